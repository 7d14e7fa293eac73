import type { Decider } from '../platform/command.js';
import { ConflictError } from '../platform/errors.js';
import type { KeyEvent } from './events.js';

export type KeyState = { exists: boolean };

export type KeyCommand = { type: 'CreateApiKey'; key: KeyEvent['data'] };

export const keyDecider: Decider<KeyState, KeyEvent, KeyCommand> = {
  initialState: () => ({ exists: false }),
  evolve: (_state, event) => (event.type === 'ApiKeyCreated' ? { exists: true } : _state),
  decide(command, state) {
    if (state.exists) throw new ConflictError('This API key already exists.');
    return [{ type: 'ApiKeyCreated', data: command.key }];
  },
};
