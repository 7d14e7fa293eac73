import { decideAndAppend } from '../platform/command.js';
import type { Tx } from '../platform/database.js';
import type { EventMetadata } from '../platform/event-store/types.js';
import { newId } from '../platform/ids.js';
import { keyDecider } from './decide.js';
import { type KeyType, keyStream } from './events.js';
import { forgetKey, KEY_REVOKED_CHANNEL } from './key-cache.js';
import { generateKey } from './secret-key.js';

export interface CreateKeyInput {
  userId: string;
  name: string;
  type: KeyType;
  projectId: string | null;
  allowedDomains: string[] | null;
}

/** Creates a key and returns its plaintext, which exists only in this return value. */
export async function createApiKey(tx: Tx, input: CreateKeyInput, metadata: EventMetadata) {
  const keyId = newId();
  const { key, hash, prefix } = generateKey(input.type);
  await decideAndAppend(
    tx,
    keyStream(keyId),
    keyDecider,
    { type: 'CreateApiKey', key: { keyId, keyHash: hash, prefix, ...input } },
    metadata,
    { newStream: true },
  );
  return { id: keyId, key, prefix, ...input };
}

/**
 * Revokes one of the user's keys: from the next request on it is a 401. Key caches (key-cache.ts) forget it now in
 * this process and, through the NOTIFY delivered at commit, in every process; the caller calls forgetKey again
 * once the transaction committed (a lookup may have cached the key between this forget and the commit).
 */
export async function revokeApiKey(tx: Tx, input: { keyId: string; userId: string }, metadata: EventMetadata): Promise<void> {
  await decideAndAppend(tx, keyStream(input.keyId), keyDecider, { type: 'RevokeApiKey', ...input }, metadata);
  forgetKey(input.keyId);
  await tx`select pg_notify(${KEY_REVOKED_CHANNEL}, ${input.keyId})`;
}
