import type { Sql, Tx } from './database.js';
import { type AppendOptions, type Precondition, sendAppend } from './event-store/append-to-stream.js';
import { readStream } from './event-store/read-stream.js';
import type { EventMetadata, NewEvent, RecordedEvent, StoredEvent } from './event-store/types.js';
import { applyProjections } from './projections.js';
import { beforeCommit, settleInOrder } from './transaction.js';

/**
 * A decider is the pure heart of an aggregate: `evolve` folds its events into state, `decide` turns a command and
 * that state into new events or throws an AppError. No I/O in either.
 */
export interface Decider<State, Event extends NewEvent, Command> {
  initialState(): State;
  evolve(state: State, event: Event): State;
  decide(command: Command, state: State): Event[];
}

export { inTransaction, MAX_COMMAND_ATTEMPTS } from './transaction.js';

/**
 * Sends an append and the inline projections of its events together, one round trip: projections read only what
 * the events say (RecordedEvent), never what the insert returns. Should the append fail (the stream moved), the
 * projections' writes fail or roll back with it; `written` reports the append's error first.
 */
export function sendAppendAndProject(
  tx: Tx,
  streamId: string,
  expectedVersion: number,
  events: NewEvent[],
  metadata: EventMetadata = {},
  options: AppendOptions = {},
): { events: RecordedEvent[]; written: Promise<StoredEvent[]> } {
  const append = sendAppend(tx, streamId, expectedVersion, events, metadata, options);
  const projected = applyProjections(tx, append.events);
  return { events: append.events, written: settleInOrder([append.inserted, projected] as const).then(([stored]) => stored) };
}

/**
 * Inside a transaction: load a stream, decide, append at the version read, and run the inline projections.
 *
 * `newStream`: the caller just minted the stream's id (a fresh random id), so there is nothing to read: decide on
 * the initial state and append at version 0, a round trip saved. Should the stream exist after all, the append's
 * version check refuses (ConcurrencyError) and inTransaction runs the caller again, with a new id.
 *
 * `untilCommit`: the caller needs nothing from the database about this append, so it goes on at once and the append
 * and its projections travel with whatever it sends next, COMMIT at the latest (see beforeCommit).
 *
 * `precondition`: checked with the append (see AppendOptions); `written` settles with the append and its
 * projections, rejecting with the precondition's refusal when it did not hold.
 */
export async function decideAndAppend<State, Event extends NewEvent, Command>(
  tx: Tx,
  streamId: string,
  decider: Decider<State, Event, Command>,
  command: Command,
  metadata: EventMetadata = {},
  options: { newStream?: boolean; untilCommit?: boolean; precondition?: Precondition } = {},
): Promise<{ state: State; events: RecordedEvent[]; written: Promise<unknown> }> {
  const history = options.newStream ? [] : await readStream(tx, streamId);
  let state = decider.initialState();
  for (const event of history) state = decider.evolve(state, event as unknown as Event);
  const decided = decider.decide(command, state);
  const { events, written } = sendAppendAndProject(tx, streamId, history.length, decided, metadata, options.precondition ? { precondition: options.precondition } : {});
  for (const event of decided) state = decider.evolve(state, event);
  if (options.untilCommit) await beforeCommit(tx, written);
  else await written;
  return { state, events, written };
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
