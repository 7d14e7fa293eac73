import type { Tx } from '../database.js';

/**
 * Serialises the writers of one stream for the rest of the caller's transaction.
 *
 * Optimistic appends are right for streams that are rarely written at once (a project, a key). A hot stream — one
 * credit account charged by many generations at the same moment — turns them into a retry storm: with 50 writers,
 * each round lets one win and sends 49 back, so they exhaust MAX_COMMAND_ATTEMPTS long before the queue drains.
 * A transaction-scoped advisory lock makes them wait in line instead, and is released at commit or rollback, so a
 * crashed writer never leaves it behind. Appends still check the expected version: the lock is an optimisation of
 * who goes first, not the guard of correctness.
 *
 * Take it before reading the stream. At the default READ COMMITTED isolation every statement after the lock sees
 * what the previous holder committed. Lock one stream per transaction, or always in the same order, to stay clear
 * of deadlocks. The 64-bit hash makes a collision between two stream ids (which would only make them wait for each
 * other) vanishingly rare.
 */
export async function lockStream(tx: Tx, streamId: string): Promise<void> {
  await tx`select pg_advisory_xact_lock(hashtextextended(${streamId}, 0))`;
}
