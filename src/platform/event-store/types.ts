/**
 * Terminology
 * - event: a fact that happened, `{type, data}`, appended to exactly one stream and never changed.
 * - stream: the events of one aggregate (`project-<id>`, `user-<id>`), numbered 1, 2, 3… by `stream_version`.
 * - global position: the order of insertion across all streams. Not commit order: see `readAll`.
 * - checkpoint: `(transaction_id, global_position)` of the last event a reader has seen.
 * - metadata: who and why: actor, request id, causation and correlation ids.
 */
export interface EventMetadata {
  actor?: string | null;
  requestId?: string | null;
  causationId?: string | null;
  correlationId?: string | null;
}

export interface NewEvent<Type extends string = string, Data = unknown> {
  type: Type;
  data: Data;
}

export interface StoredEvent<Type extends string = string, Data = unknown> extends NewEvent<Type, Data> {
  globalPosition: string;
  streamId: string;
  streamVersion: number;
  metadata: EventMetadata;
  transactionId: string;
  createdAt: Date;
}

/**
 * An event as a projection sees it: all a read model may depend on. Not its global position nor transaction id,
 * which only the insert learns, so that projections can be sent in the same round trip as the append.
 */
export type RecordedEvent<Type extends string = string, Data = unknown> = Omit<StoredEvent<Type, Data>, 'globalPosition' | 'transactionId'>;

export interface Checkpoint {
  transactionId: string;
  globalPosition: string;
}

export interface EventRow {
  global_position: string;
  stream_id: string;
  stream_version: number;
  type: string;
  data: unknown;
  metadata: EventMetadata;
  transaction_id: string;
  created_at: Date;
}

export function toStoredEvent(row: EventRow): StoredEvent {
  return {
    globalPosition: String(row.global_position),
    streamId: row.stream_id,
    streamVersion: row.stream_version,
    type: row.type,
    data: row.data,
    metadata: row.metadata,
    transactionId: String(row.transaction_id),
    createdAt: row.created_at,
  };
}
