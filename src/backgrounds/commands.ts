import { decideAndAppend } from '../platform/command.js';
import type { Tx } from '../platform/database.js';
import type { EventMetadata } from '../platform/event-store/types.js';
import { backgroundsDecider } from './decide.js';
import { type BackgroundEvent, backgroundStream } from './events.js';

/** Records an upload whose image is already stored under `key`: the event is what makes it exist. */
export async function recordBackgroundUpload(tx: Tx, background: BackgroundEvent['data'], metadata: EventMetadata): Promise<void> {
  await decideAndAppend(tx, backgroundStream(background.userId), backgroundsDecider, { type: 'UploadBackground', background }, metadata);
}
