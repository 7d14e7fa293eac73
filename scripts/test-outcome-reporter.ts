/**
 * A second reporter for `npm test` (scripts/test.ts): writes, as JSON, which test files timed out and how many
 * tests failed for any other reason, so a run whose only failures are hangs can run those files once more.
 */
import type { TestEvent } from 'node:test/reporters';

/** Failures that follow from a hang: the hang itself, and what it cancelled or failed above it. */
const FROM_A_HANG = new Set(['testTimeoutFailure', 'cancelledByParent', 'subtestsFailed']);

export interface TestOutcome {
  timedOutFiles: string[];
  otherFailures: string[];
}

export default async function* testOutcome(source: AsyncIterable<TestEvent>): AsyncGenerator<string> {
  const timedOut = new Set<string>();
  const other: string[] = [];
  for await (const event of source) {
    if (event.type !== 'test:fail') continue;
    const { file, name, details } = event.data;
    const failureType = (details.error as { failureType?: string } | undefined)?.failureType ?? 'unknown';
    if (failureType === 'testTimeoutFailure' && file) timedOut.add(file);
    else if (!FROM_A_HANG.has(failureType)) other.push(`${file ?? '?'}: ${name} (${failureType})`);
  }
  const outcome: TestOutcome = { timedOutFiles: [...timedOut], otherFailures: other };
  yield JSON.stringify(outcome);
}
