import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { nextAttemptAt, retryDelayMs } from '../../src/webhooks/retry-schedule.js';

describe('the retry schedule of a failed webhook delivery', () => {
  it('waits 30 s, then twice as long each time, at most an hour', () => {
    assert.deepEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 30].map((n) => retryDelayMs(n) / 1000), [30, 60, 120, 240, 480, 960, 1920, 3600, 3600, 3600]);
  });

  it('keeps trying for a day after the event, then gives up', () => {
    const created = new Date('2026-05-04T09:00:00Z');
    let now = created;
    let attempts = 0;
    for (;;) {
      attempts++;
      const next = nextAttemptAt(created, attempts, now);
      if (!next) break;
      now = next;
    }
    const hours = (now.getTime() - created.getTime()) / 3_600_000;
    assert.ok(hours > 23 && hours <= 24, `the last attempt ${hours} h after the event`);
    assert.ok(attempts >= 28 && attempts <= 32, `${attempts} attempts in all`);
  });
});
