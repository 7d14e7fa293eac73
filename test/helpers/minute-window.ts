/**
 * Request limits count per clock minute (src/platform/rate-limit.ts): a test that makes N requests and expects the
 * N+1st refused fails when the minute turns in between, and the count starts again. Called first in such a test, this
 * waits for the next minute when fewer than `marginSeconds` of this one are left (at most that long).
 */
export async function clearOfMinuteTurn(marginSeconds = 8): Promise<void> {
  const intoMinute = Date.now() % 60_000;
  if (intoMinute < 60_000 - marginSeconds * 1000) return;
  await new Promise((resolve) => setTimeout(resolve, 60_000 - intoMinute + 100));
}
