import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { accountTurnsFor, creditStream } from '../../src/credits/index.js';
import { startTestApp, type TestApp, type TestUser } from '../helpers/app.js';

describe("one account's burst of demos", () => {
  let app: TestApp;
  let busy: TestUser;
  let other: TestUser;
  const projects = new Map<string, string>();

  before(async () => {
    // A pool of 4: each account gets one command at a time (accountTurnsFor(4) = 1), three connections stay free.
    app = await startTestApp({ DATABASE_POOL_SIZE: '4', SHOWREEL_RATE_LIMIT_PER_KEY: '0', SHOWREEL_RATE_LIMIT_PER_USER: '0' });
    busy = await app.createUser({ credits: 100 });
    other = await app.createUser({ credits: 10 });
    const earlier = await app.createUser({ credits: 1 });
    for (const user of [busy, other, earlier]) {
      const created = await app.api('/api/v1/projects', { key: user.key, body: { name: 'Acme', url: 'https://acme.example' } });
      projects.set(user.userId, created.body.id);
    }
    // Someone's demo before: the job queue's task row exists, as on any database that has seen a demo.
    assert.equal((await createDemo(earlier)).status, 202);
  });
  after(() => app.stop());

  const createDemo = (user: TestUser) =>
    app.api('/api/v1/demos', { key: user.key, body: { project_id: projects.get(user.userId), prompt: 'Walk through the pricing page' } });
  const balance = async (user: TestUser) => (await app.api('/api/v1/credits', { key: user.key })).body.balance as number;

  it('takes a few turns at a time, leaving the pool to the others', () => {
    assert.equal(accountTurnsFor(4), 1);
    assert.equal(accountTurnsFor(10), 2);
    assert.equal(accountTurnsFor(20), 5);
  });

  it("does not hold every pooled connection: another account's demo is answered while one account's wait", async () => {
    // Another process holds the busy account's lock (a purchase there, say): its charges here wait for it.
    const holder = await app.sql.reserve();
    await holder`select pg_advisory_lock(hashtextextended(${creditStream(busy.userId)}, 0))`;
    let released = false;
    try {
      const burst = Array.from({ length: 8 }, () => createDemo(busy));
      // Before, each of the eight waited at the lock holding a pooled connection, all four of them, and this
      // demo of another account waited for a connection until the lock was released.
      const single = await Promise.race([
        createDemo(other),
        new Promise<never>((_, reject) => setTimeout(() => reject(new Error("the other account's demo waited for the busy account's lock")), 5000).unref()),
      ]);
      assert.equal(single.status, 202);
      assert.equal(await balance(other), 10 - 1);
      released = true;
      await holder`select pg_advisory_unlock(hashtextextended(${creditStream(busy.userId)}, 0))`;
      const responses = await Promise.all(burst);
      assert.deepEqual(responses.map((r) => r.status), Array(8).fill(202));
      // Nothing lost or doubled on the busy account.
      assert.equal(await balance(busy), 100 - 8);
    } finally {
      if (!released) await holder`select pg_advisory_unlock_all()`.catch(() => undefined);
      holder.release();
    }
  });
});
