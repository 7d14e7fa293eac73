import type { Sql, Tx } from './database.js';
import { ConcurrencyError } from './errors.js';
import { appendToStream } from './event-store/append-to-stream.js';
import { readStream } from './event-store/read-stream.js';
import type { EventMetadata, NewEvent, StoredEvent } from './event-store/types.js';
import { applyProjections } from './projections.js';

/**
 * A decider is the pure heart of an aggregate: `evolve` folds its events into state, `decide` turns a command and
 * that state into new events or throws an AppError. No I/O in either.
 */
export interface Decider<State, Event extends NewEvent, Command> {
  initialState(): State;
  evolve(state: State, event: Event): State;
  decide(command: Command, state: State): Event[];
}

// Measured: 20 writers racing on one stream all succeed within 20 attempts; 8 left some failing (test/platform/event-store.test.ts).
export const MAX_COMMAND_ATTEMPTS = 20;

/**
 * Runs `work` in one transaction and, when a stream moved underneath it (ConcurrencyError), runs all of it again
 * from a fresh read. Because the whole transaction is retried, an effect is never half-applied and never doubled.
 */
export async function inTransaction<T>(sql: Sql, work: (tx: Tx) => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return (await sql.begin((tx) => work(tx))) as T;
    } catch (error) {
      if (!(error instanceof ConcurrencyError) || attempt >= MAX_COMMAND_ATTEMPTS) throw error;
      // Jittered backoff so writers that collided do not collide again in lockstep.
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 5 * attempt));
    }
  }
}

/**
 * Inside a transaction: load a stream, decide, append at the version read, and run the inline projections.
 *
 * `newStream`: the caller just minted the stream's id (a fresh random id), so there is nothing to read: decide on
 * the initial state and append at version 0, a round trip saved. Should the stream exist after all, the append's
 * version check refuses (ConcurrencyError) and inTransaction runs the caller again, with a new id.
 */
export async function decideAndAppend<State, Event extends NewEvent, Command>(
  tx: Tx,
  streamId: string,
  decider: Decider<State, Event, Command>,
  command: Command,
  metadata: EventMetadata = {},
  options: { newStream?: boolean } = {},
): Promise<{ state: State; events: StoredEvent[] }> {
  const history = options.newStream ? [] : await readStream(tx, streamId);
  let state = decider.initialState();
  for (const event of history) state = decider.evolve(state, event as unknown as Event);
  const decided = decider.decide(command, state);
  const stored = await appendToStream(tx, streamId, history.length, decided, metadata);
  for (const event of decided) state = decider.evolve(state, event);
  await applyProjections(tx, stored);
  return { state, events: stored };
}

/** Load a stream's current state without deciding anything. */
export async function loadState<State, Event extends NewEvent>(
  tx: Tx | Sql,
  streamId: string,
  decider: Pick<Decider<State, Event, unknown>, 'initialState' | 'evolve'>,
): Promise<{ state: State; version: number }> {
  const history = await readStream(tx, streamId);
  let state = decider.initialState();
  for (const event of history) state = decider.evolve(state, event as unknown as Event);
  return { state, version: history.length };
}
