import type { Tx } from '../platform/database.js';
import type { RecordedEvent } from '../platform/event-store/types.js';
import type { Projection } from '../platform/projections.js';
import type { BackgroundEvent } from './events.js';

export const backgroundsProjection: Projection = {
  name: 'backgrounds',
  tables: ['backgrounds'],
  async apply(tx: Tx, stored: RecordedEvent) {
    const event = stored as unknown as BackgroundEvent & RecordedEvent;
    if (event.type !== 'BackgroundUploaded') return;
    const d = event.data;
    await tx`
      insert into backgrounds (id, user_id, name, storage_key, format, size_bytes, created_at)
      values (${d.backgroundId}, ${d.userId}, ${d.name}, ${d.key}, ${d.format}, ${d.sizeBytes}, ${stored.createdAt})`;
  },
};
