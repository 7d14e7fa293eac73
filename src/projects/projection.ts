import type { Tx } from '../platform/database.js';
import type { RecordedEvent } from '../platform/event-store/types.js';
import type { Projection } from '../platform/projections.js';
import type { ProjectEvent } from './events.js';
import type { ProjectRecord } from './queries.js';

type Created = Extract<ProjectEvent, { type: 'ProjectCreated' }>['data'];

/** The read-model row a ProjectCreated makes: what the projection inserts, and what create answers with. */
export function projectRecordOf(d: Created, createdAt: Date): ProjectRecord {
  return {
    id: d.projectId,
    user_id: d.userId,
    name: d.name,
    url: d.url,
    viewport: d.viewport,
    refresh_schedule: d.refreshSchedule,
    signing_secret_enc: d.sealedSigningSecret,
    webhook_secret_enc: d.sealedWebhookSecret,
    site_access_enc: d.siteAccess?.sealedCredentials ?? null,
    site_access: d.siteAccess ? JSON.stringify(d.siteAccess.summary) : null,
    allow_submit: d.allowSubmit ?? false,
    created_at: createdAt,
    updated_at: createdAt,
  };
}

export const projectsProjection: Projection = {
  name: 'projects',
  tables: ['projects'],
  async apply(tx: Tx, stored: RecordedEvent) {
    const event = stored as unknown as ProjectEvent & RecordedEvent;
    switch (event.type) {
      case 'ProjectCreated': {
        const r = projectRecordOf(event.data, stored.createdAt);
        await tx`
          insert into projects (id, user_id, name, url, viewport, refresh_schedule, signing_secret_enc, webhook_secret_enc,
                                site_access_enc, site_access, allow_submit, created_at, updated_at)
          values (${r.id}, ${r.user_id}, ${r.name}, ${r.url}, ${r.viewport}, ${r.refresh_schedule},
                  ${r.signing_secret_enc}, ${r.webhook_secret_enc}, ${r.site_access_enc}, ${r.site_access}, ${r.allow_submit},
                  ${r.created_at}, ${r.updated_at})`;
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
            allow_submit = coalesce(${d.allowSubmit ?? null}, allow_submit),
            updated_at = ${stored.createdAt}
          where id = ${d.projectId}`;
        return;
      }
      case 'ProjectSigningSecretRotated':
        await tx`
          update projects set signing_secret_enc = ${event.data.sealedSigningSecret}, updated_at = ${stored.createdAt}
          where id = ${event.data.projectId}`;
        return;
      case 'ProjectSiteAccessSet':
        await tx`
          update projects set site_access_enc = ${event.data.sealedCredentials}, site_access = ${JSON.stringify(event.data.summary)},
            updated_at = ${stored.createdAt}
          where id = ${event.data.projectId}`;
        return;
      case 'ProjectSiteAccessCleared':
        await tx`update projects set site_access_enc = null, site_access = null, updated_at = ${stored.createdAt} where id = ${event.data.projectId}`;
        return;
    }
  },
};
