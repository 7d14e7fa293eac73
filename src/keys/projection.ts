import type { Tx } from '../platform/database.js';
import type { RecordedEvent } from '../platform/event-store/types.js';
import type { Projection } from '../platform/projections.js';
import type { KeyEvent } from './events.js';

export const keysProjection: Projection = {
  name: 'api_keys',
  tables: ['api_keys'],
  async apply(tx: Tx, stored: RecordedEvent) {
    const event = stored as unknown as KeyEvent & RecordedEvent;
    if (event.type === 'ApiKeyRevoked') {
      await tx`delete from api_keys where id = ${event.data.keyId}`;
      return;
    }
    if (event.type !== 'ApiKeyCreated') return;
    const d = event.data;
    await tx`
      insert into api_keys (id, user_id, name, type, project_id, allowed_domains, key_hash, key_prefix, created_at)
      values (${d.keyId}, ${d.userId}, ${d.name}, ${d.type}, ${d.projectId},
              ${d.allowedDomains === null ? null : tx.json(d.allowedDomains)}, ${d.keyHash}, ${d.prefix}, ${stored.createdAt})`;
  },
};
