/**
 * When a failed delivery is tried again: 30 s after the first attempt, doubling (1 min, 2 min … 32 min) up to an
 * hour between attempts, for a day from the event; then it is given up and logged as failed. About 30 attempts in
 * all, most of them hourly: a receiver down for an afternoon still gets every event once it is back.
 */
export const FIRST_RETRY_MS = 30_000;
export const MAX_RETRY_INTERVAL_MS = 60 * 60_000;
export const RETRY_FOR_MS = 24 * 60 * 60_000;

/** The wait after the `attempts`-th failed attempt (1-based). */
export function retryDelayMs(attempts: number): number {
  return Math.min(MAX_RETRY_INTERVAL_MS, FIRST_RETRY_MS * 2 ** Math.max(0, attempts - 1));
}

/** The next attempt after `attempts` failures of an event created at `createdAt`, or null once the day is over. */
export function nextAttemptAt(createdAt: Date, attempts: number, now: Date): Date | null {
  const next = new Date(now.getTime() + retryDelayMs(attempts));
  return next.getTime() - createdAt.getTime() > RETRY_FOR_MS ? null : next;
}
