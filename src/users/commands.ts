import { openAccount } from '../credits/index.js';
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

/**
 * Registers the user and opens their credit account in the same transaction: there is never a user without an
 * account, and `startingCredits` (the sign-up bonus, or exactly `--credits N`) is the account's starting balance.
 */
export async function registerUser(tx: Tx, prepared: Awaited<ReturnType<typeof prepareRegistration>>, metadata: EventMetadata) {
  const registered = await decideAndAppend(tx, userStream(prepared.userId), userDecider, { type: 'RegisterUser', ...prepared }, metadata);
  await openAccount(tx, { userId: prepared.userId, startingCredits: prepared.startingCredits }, metadata);
  return registered;
}

/** A new password (already hashed by the caller, outside the transaction: scrypt is slow). */
export async function changePassword(tx: Tx, userId: string, passwordHash: string, metadata: EventMetadata) {
  return decideAndAppend(tx, userStream(userId), userDecider, { type: 'ChangePassword', userId, passwordHash, via: 'reset-link' }, metadata);
}

export async function changePlan(tx: Tx, userId: string, plan: Plan, metadata: EventMetadata) {
  return decideAndAppend(tx, userStream(userId), userDecider, { type: 'ChangePlan', userId, plan }, metadata);
}
