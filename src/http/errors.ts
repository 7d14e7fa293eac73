import { TRPCError } from '@trpc/server';
import { isDatabaseUnavailable } from '../platform/database-availability.js';
import { AppError, ConcurrencyError, DatabaseUnavailableError } from '../platform/errors.js';
import { describeIssues } from '../platform/validation.js';

export interface ErrorResponse {
  status: number;
  body: { error: string };
  headers: Record<string, string>;
  /** true for faults of ours, logged with the request id; input errors are not. */
  fault: boolean;
}

const TRPC_STATUS: Partial<Record<TRPCError['code'], [number, string]>> = {
  PARSE_ERROR: [400, 'The request body is not valid JSON.'],
  BAD_REQUEST: [400, 'The request is not valid.'],
  UNAUTHORIZED: [401, 'Authentication required: send a live API key or sign in.'],
  FORBIDDEN: [403, 'You are not allowed to do this.'],
  NOT_FOUND: [404, 'Not found.'],
  METHOD_NOT_SUPPORTED: [405, 'This method is not allowed here.'],
  PAYLOAD_TOO_LARGE: [413, 'The request body is too large.'],
  UNSUPPORTED_MEDIA_TYPE: [415, 'Send the request body as application/json.'],
  TOO_MANY_REQUESTS: [429, 'Too many requests; try again later.'],
};

/**
 * The one error mapper: anything thrown anywhere becomes `{"error": "<sentence>"}` with the right status.
 * Only real faults are 500, and those never echo internals to the client.
 */
export function toErrorResponse(thrown: unknown): ErrorResponse {
  const cause = thrown instanceof TRPCError && thrown.cause !== undefined ? thrown.cause : thrown;
  if (cause instanceof AppError) {
    return { status: cause.status, body: { error: cause.message }, headers: cause.headers, fault: false };
  }
  if (isZodError(cause)) {
    return { status: 400, body: { error: describeIssues(cause.issues) }, headers: {}, fault: false };
  }
  if (cause instanceof ConcurrencyError) {
    return { status: 409, body: { error: 'Too many concurrent changes to the same record; try again.' }, headers: {}, fault: false };
  }
  // The database restarting or unreachable: the client may try again shortly; nothing of ours is broken.
  if (isDatabaseUnavailable(cause)) return toErrorResponse(new DatabaseUnavailableError());
  if (thrown instanceof TRPCError) {
    const known = TRPC_STATUS[thrown.code];
    if (known) return { status: known[0], body: { error: known[1] }, headers: {}, fault: false };
  }
  return { status: 500, body: { error: 'Something went wrong on our side; it has been logged.' }, headers: {}, fault: true };
}

interface ZodLikeError {
  name: string;
  issues: Parameters<typeof describeIssues>[0];
}

function isZodError(value: unknown): value is ZodLikeError {
  return value instanceof Error && value.name === 'ZodError' && Array.isArray((value as unknown as ZodLikeError).issues);
}
