import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import postgres from 'postgres';
import { grantAtOnceProvider, openAccount, purchaseCredits } from '../../src/credits/index.js';
import { requestDemo } from '../../src/demos/index.js';
import { inTransaction } from '../../src/platform/command.js';
import { corkedSocket } from '../../src/platform/corked-socket.js';
import { type Sql, withoutSocketHost } from '../../src/platform/database.js';
import { newId } from '../../src/platform/ids.js';
import { createSecretBox } from '../../src/platform/secrets.js';
import { createProject } from '../../src/projects/commands.js';
import { visibleProjectPrecondition } from '../../src/projects/index.js';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';

/**
 * Each round trip to PostgreSQL costs the API process CPU (about 90 µs on the 2-core bench machine) and, inside an
 * account's lock, time every other demo of that account waits. These are the round trips of the two busiest writes,
 * counted on the wire: a burst of writes to the socket after a response (or at the start) is one round trip.
 */
describe('round trips of the write path', () => {
  let db: TestDatabase;
  let sql: Sql;
  const counter = { roundTrips: 0, receiving: true };

  before(async () => {
    db = await createTestDatabase();
    const url = new URL(db.url);
    // One connection, so its prepared statements are warm after the first run (a statement's first use on a
    // connection costs a describe round trip of its own).
    // postgres.js accepts a socket factory (its typings do not declare the option): this one counts round trips.
    // The app's own socket (corkedSocket: a pipeline leaves in one write), so that what is counted is what leaves.
    const socket = () => {
      const connection = corkedSocket({ host: [url.hostname], port: [Number(url.port || 5432)] });
      const write = connection.write.bind(connection) as (...args: unknown[]) => boolean;
      connection.write = ((...args: unknown[]) => {
        if (counter.receiving) counter.roundTrips++;
        counter.receiving = false;
        return write(...args);
      }) as typeof connection.write;
      connection.on('data', () => (counter.receiving = true));
      return connection;
    };
    // Over TCP, with a socket of its own (the URL's Unix-socket host taken out).
    sql = postgres(withoutSocketHost(db.url).url, { max: 1, onnotice: () => {}, ...({ socket } as object) });
  });
  after(async () => {
    await sql.end();
    await db.drop();
  });

  // The pool has one connection: a statement sent now runs after everything sent before it, including what a
  // command sends after COMMIT without waiting (notifyAfterCommit).
  // Nudges leave in the next turn of the event loop (sendNotifications), so the drain waits for that turn first.
  const drain = () => new Promise((resolve) => setImmediate(resolve)).then(() => sql`select 1`);

  /** The round trips of one run of `work`, as it comes (nothing warmed first). */
  async function tripsOf(work: () => Promise<unknown>): Promise<number> {
    counter.roundTrips = 0;
    counter.receiving = true;
    await work();
    await drain();
    return counter.roundTrips - 1; // the drain's own
  }

  async function count(work: () => Promise<unknown>): Promise<number> {
    // Warm: prepares every statement on the connection. Twice, since the first job of a task also creates (or
    // learns) the task's row, and later jobs send a statement of their own (enqueueNewJob).
    await work();
    await work();
    await drain();
    return tripsOf(work);
  }

  it('POST /projects: one (BEGIN, the event, its read model and COMMIT together)', async () => {
    const secrets = createSecretBox(randomBytes(32));
    const userId = newId();
    const trips = await count(() =>
      inTransaction(sql, (tx) =>
        createProject(tx, secrets, { userId, name: 'Shop', url: 'https://shop.example.com', viewport: 'desktop', refreshSchedule: 'manual' }, {}),
      ),
    );
    assert.equal(trips, 1);
  });

  async function accountWithProject() {
    const secrets = createSecretBox(randomBytes(32));
    const userId = newId();
    await inTransaction(sql, (tx) => openAccount(tx, { userId, startingCredits: 100 }, {}));
    const { projectId } = await inTransaction(sql, (tx) =>
      createProject(tx, secrets, { userId, name: 'Shop', url: 'https://shop.example.com', viewport: 'desktop', refreshSchedule: 'manual' }, {}),
    );
    const principal = { userId, projectId: null };
    const demoOf = (project: string) => () =>
      inTransaction(sql, (tx) =>
        requestDemo(
          tx,
          { projectId: project, userId, prompt: 'Show the trial', format: 'mp4', resolution: '1080p', durationTarget: '10s', mode: 'script', presentation: null },
          {},
          { projectVisible: visibleProjectPrecondition(tx, principal as never, project) },
        ),
      );
    const balance = async () => ((await sql`select balance from credit_accounts where user_id = ${userId}`) as unknown as [{ balance: number }])[0].balance;
    return { userId, demo: demoOf(projectId), demoOf, balance };
  }

  it('POST /demos: one when this process remembers the account (the project check, the demo, its job and its charge with COMMIT)', async () => {
    const { demo, balance } = await accountWithProject();
    // The nudge to the workers goes after COMMIT, without the command waiting for it
    // (so that new demos do not commit one after another, see notifyAfterCommit): here with the drain's statement.
    assert.equal(await count(demo), 1);
    assert.equal(await balance(), 97, 'all three demos were charged');
  });

  it('POST /demos: three once, then two, after another process wrote to the account (a wasted attempt, then a read while it cools down)', async () => {
    const { userId, demo, balance } = await accountWithProject();
    // A pack bought here first: the read path's statements are then prepared on the connection too (a statement's
    // first use costs a describe round trip of its own), as they are in a process that has run a while.
    await inTransaction(sql, (tx) => purchaseCredits(tx, { userId, packId: '5' }, {}, { provider: grantAtOnceProvider }));
    await count(demo);
    // Another process (its own pool) buys a pack: what this one remembers is now a version behind.
    const elsewhere = postgres(withoutSocketHost(db.url).url, { max: 1, onnotice: () => {} });
    try {
      await inTransaction(elsewhere, (tx) => purchaseCredits(tx, { userId, packId: '5' }, {}, { provider: grantAtOnceProvider }));
    } finally {
      await elsewhere.end();
    }
    // The charge on remembered state fails its version check (one round trip, COMMIT included: it only rolls
    // back, and nothing is left to roll back after it); the retry reads the account under its lock (two more).
    assert.equal(await tripsOf(demo), 3);
    // Then the account is not remembered for a while: the lock-and-read path, two round trips.
    assert.equal(await tripsOf(demo), 2);
    assert.equal(await balance(), 100 + 5 - 5 + 5, 'five demos charged once each, the pack bought here and the one bought elsewhere');
  });

  it('POST /demos: a demo refused for another reason (no such project) costs the account one read, not a cool-down', async () => {
    const { demo, demoOf, balance } = await accountWithProject();
    await count(demo);
    await assert.rejects(demoOf(newId())(), /not found/i);
    // What was remembered is forgotten (the command rolled back): the next demo reads the account, under its lock.
    assert.equal(await tripsOf(demo), 2);
    // The account itself never moved underneath this process, so it is remembered again at once.
    assert.equal(await tripsOf(demo), 1);
    assert.equal(await balance(), 100 - 5, 'five demos charged, the refused one not');
  });
});
