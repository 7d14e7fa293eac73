import { SsrfViolationError } from './browser/request-guard.js';
import { AppError } from '../platform/errors.js';

/**
 * Faults of a pipeline job, in two kinds. Transient ones (the browser crashed, the page timed out, the site was
 * briefly down) are retried with backoff; permanent ones (a private URL, a 404 page, a deleted project) are not.
 * Either way the final message is a sentence a person can act on.
 */
export class TransientJobError extends Error {
  override name = 'TransientJobError';
}

export class PermanentJobError extends Error {
  override name = 'PermanentJobError';
}

export function describeFailure(error: unknown): { transient: boolean; message: string } {
  if (error instanceof PermanentJobError) return { transient: false, message: error.message };
  if (error instanceof TransientJobError) return { transient: true, message: error.message };
  // The page reached a private address (SSRF guard), or a URL was refused: retrying cannot help.
  if (error instanceof SsrfViolationError || error instanceof AppError) return { transient: false, message: error.message };
  const message = error instanceof Error ? error.message : String(error);
  // The browser pool marks its own faults (crash, job timeout) as transient.
  if ((error as { transient?: unknown })?.transient === true) return { transient: true, message };
  if (/Target closed|Session closed|browser has disconnected|Protocol error|crash/i.test(message)) {
    return { transient: true, message: 'The browser crashed while recording; try again.' };
  }
  return { transient: true, message: `Recording failed: ${message.slice(0, 300)}` };
}
