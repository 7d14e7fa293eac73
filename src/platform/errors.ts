/**
 * The one error hierarchy of the service. Domain code throws these; the HTTP layer maps `status` to the response
 * and `message` to `{"error": message}`. Messages are sentences a person can act on.
 */
export class AppError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = new.target.name;
  }
}

export class ValidationError extends AppError {
  constructor(message: string) {
    super(400, message);
  }
}
export class UnauthorizedError extends AppError {
  constructor(message = 'Authentication required: send a live API key or sign in.') {
    super(401, message);
  }
}
export class ForbiddenError extends AppError {
  constructor(message: string) {
    super(403, message);
  }
}
export class NotFoundError extends AppError {
  constructor(what: string) {
    super(404, `${what} not found.`);
  }
}
export class ConflictError extends AppError {
  constructor(message: string) {
    super(409, message);
  }
}
export class TooLargeError extends AppError {
  constructor(message: string) {
    super(413, message);
  }
}
export class UnsupportedMediaError extends AppError {
  constructor(message: string) {
    super(415, message);
  }
}
export class QuotaError extends AppError {
  constructor(message: string, retryAfterSeconds?: number) {
    super(429, message, retryAfterSeconds === undefined ? {} : { 'Retry-After': String(retryAfterSeconds) });
  }
}

/**
 * The database is away (restarting after a crash, or an external one being restarted): a 503 the client may retry,
 * never a 500. The embedded one is back within seconds (src/platform/embedded-postgres-supervisor.ts; about 1 s after
 * a kill -9 on a quiet machine, 4 s on a loaded one), and the pool takes it up again within 0.1 s: 2 s is when a
 * retry is likely to succeed, and a retry that comes too early is answered at once, not held.
 */
export const DATABASE_RETRY_AFTER_SECONDS = 2;
export class DatabaseUnavailableError extends AppError {
  constructor() {
    super(503, 'The database is restarting; try again shortly.', { 'Retry-After': String(DATABASE_RETRY_AFTER_SECONDS) });
  }
}

/** Optimistic concurrency: the stream moved on since it was read. Command handlers retry on it. */
export class ConcurrencyError extends Error {
  constructor(
    readonly streamId: string,
    readonly expectedVersion: number,
    readonly actualVersion: number | null,
  ) {
    super(`Stream ${streamId} expected version ${expectedVersion} but found ${actualVersion ?? 'another version'}.`);
    this.name = 'ConcurrencyError';
  }
}

/** Normalise anything thrown into an Error (graphile-worker's coerceError idea). */
export function coerceError(thrown: unknown): Error {
  return thrown instanceof Error ? thrown : new Error(String(thrown));
}
