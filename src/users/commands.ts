import { decideAndAppend } from '../platform/command.js';
import type { Tx } from '../platform/database.js';
import type { EventMetadata } from '../platform/event-store/types.js';
import { newId } from '../platform/ids.js';
import { hashPassword } from '../platform/secrets.js';
import { userDecider } from './decide.js';
import { type Plan, userStream } from './events.js';

export interface RegisterUserInput {
  email: string;
  password: string;
  isAdmin?: boolean;
  plan?: Plan;
  startingCredits: number;
}

/** Hash outside the retry loop's hot path: callers hash once, then run this inside their transaction. */
export async function prepareRegistration(input: RegisterUserInput) {
  return {
    userId: newId(),
    email: input.email.trim(),
    passwordHash: await hashPassword(input.password),
    isAdmin: input.isAdmin ?? false,
    plan: input.plan ?? 'free',
    startingCredits: input.startingCredits,
  } as const;
}

export async function registerUser(tx: Tx, prepared: Awaited<ReturnType<typeof prepareRegistration>>, metadata: EventMetadata) {
  return decideAndAppend(tx, userStream(prepared.userId), userDecider, { type: 'RegisterUser', ...prepared }, metadata);
}

export async function changePlan(tx: Tx, userId: string, plan: Plan, metadata: EventMetadata) {
  return decideAndAppend(tx, userStream(userId), userDecider, { type: 'ChangePlan', userId, plan }, metadata);
}
