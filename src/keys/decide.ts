import type { Decider } from '../platform/command.js';
import { ConflictError, NotFoundError } from '../platform/errors.js';
import type { KeyEvent } from './events.js';

export type KeyState = { exists: boolean; userId: string | null; revoked: boolean };

type CreatedData = Extract<KeyEvent, { type: 'ApiKeyCreated' }>['data'];

export type KeyCommand = { type: 'CreateApiKey'; key: CreatedData } | { type: 'RevokeApiKey'; keyId: string; userId: string };

export const keyDecider: Decider<KeyState, KeyEvent, KeyCommand> = {
  initialState: () => ({ exists: false, userId: null, revoked: false }),
  evolve(state, event) {
    if (event.type === 'ApiKeyCreated') return { exists: true, userId: event.data.userId, revoked: false };
    return { ...state, revoked: true };
  },
  decide(command, state) {
    if (command.type === 'CreateApiKey') {
      if (state.exists) throw new ConflictError('This API key already exists.');
      return [{ type: 'ApiKeyCreated', data: command.key }];
    }
    // Another user's key, or one already revoked, is not found: revoking tells nothing about keys one cannot see.
    if (!state.exists || state.revoked || state.userId !== command.userId) throw new NotFoundError('API key');
    return [{ type: 'ApiKeyRevoked', data: { keyId: command.keyId, userId: command.userId } }];
  },
};
