import type { Decider } from '../platform/command.js';
import { ConflictError } from '../platform/errors.js';
import type { BackgroundEvent } from './events.js';

export type BackgroundsState = { ids: ReadonlySet<string> };

export type BackgroundCommand = { type: 'UploadBackground'; background: BackgroundEvent['data'] };

export const backgroundsDecider: Decider<BackgroundsState, BackgroundEvent, BackgroundCommand> = {
  initialState: () => ({ ids: new Set() }),
  evolve: (state, event) => ({ ids: new Set([...state.ids, event.data.backgroundId]) }),
  decide(command, state) {
    if (state.ids.has(command.background.backgroundId)) throw new ConflictError('This background already exists.');
    return [{ type: 'BackgroundUploaded', data: command.background }];
  },
};
