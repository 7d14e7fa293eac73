import type { Tx } from '../platform/database.js';
import type { StoredEvent } from '../platform/event-store/types.js';
import type { Projection } from '../platform/projections.js';
import type { ProjectEvent } from './events.js';

export const projectsProjection: Projection = {
  name: 'projects',
  tables: ['projects'],
  async apply(tx: Tx, stored: StoredEvent) {
    const event = stored as unknown as ProjectEvent & StoredEvent;
    switch (event.type) {
      case 'ProjectCreated': {
        const d = event.data;
        await tx`
          insert into projects (id, user_id, name, url, viewport, refresh_schedule, signing_secret_enc, webhook_secret_enc, created_at, updated_at)
          values (${d.projectId}, ${d.userId}, ${d.name}, ${d.url}, ${d.viewport}, ${d.refreshSchedule},
                  ${d.sealedSigningSecret}, ${d.sealedWebhookSecret}, ${stored.createdAt}, ${stored.createdAt})`;
        return;
      }
      case 'ProjectUpdated': {
        const d = event.data;
        await tx`
          update projects set
            name = coalesce(${d.name ?? null}, name),
            url = coalesce(${d.url ?? null}, url),
            viewport = coalesce(${d.viewport ?? null}, viewport),
            refresh_schedule = coalesce(${d.refreshSchedule ?? null}, refresh_schedule),
            updated_at = ${stored.createdAt}
          where id = ${d.projectId}`;
        return;
      }
      case 'ProjectSigningSecretRotated':
        await tx`
          update projects set signing_secret_enc = ${event.data.sealedSigningSecret}, updated_at = ${stored.createdAt}
          where id = ${event.data.projectId}`;
        return;
    }
  },
};
