import type { Decider } from '../platform/command.js';
import { ConflictError, NotFoundError } from '../platform/errors.js';
import type { Plan, UserEvent } from './events.js';

export type UserState = { exists: false } | { exists: true; email: string; plan: Plan; isAdmin: boolean };

export type UserCommand =
  | { type: 'RegisterUser'; userId: string; email: string; passwordHash: string; isAdmin: boolean; plan: Plan; startingCredits: number }
  | { type: 'ChangePlan'; userId: string; plan: Plan }
  | { type: 'ChangePassword'; userId: string; passwordHash: string; via: 'reset-link' };

export const userDecider: Decider<UserState, UserEvent, UserCommand> = {
  initialState: () => ({ exists: false }),
  evolve(state, event) {
    switch (event.type) {
      case 'UserRegistered':
        return { exists: true, email: event.data.email, plan: event.data.plan, isAdmin: event.data.isAdmin };
      case 'UserPlanChanged':
        return state.exists ? { ...state, plan: event.data.plan } : state;
      case 'UserPasswordChanged':
        return state;
    }
  },
  decide(command, state) {
    switch (command.type) {
      case 'RegisterUser': {
        if (state.exists) throw new ConflictError('This user already exists.');
        const { type: _type, ...data } = command;
        return [{ type: 'UserRegistered', data }];
      }
      case 'ChangePlan':
        if (!state.exists) throw new NotFoundError('User');
        if (state.plan === command.plan) return [];
        return [{ type: 'UserPlanChanged', data: { userId: command.userId, plan: command.plan } }];
      case 'ChangePassword':
        if (!state.exists) throw new NotFoundError('User');
        return [{ type: 'UserPasswordChanged', data: { userId: command.userId, passwordHash: command.passwordHash, via: command.via } }];
    }
  },
};
