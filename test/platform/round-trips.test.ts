import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import net from 'node:net';
import { after, before, describe, it } from 'node:test';
import postgres from 'postgres';
import { openAccount } from '../../src/credits/index.js';
import { requestDemo } from '../../src/demos/index.js';
import { inTransaction } from '../../src/platform/command.js';
import { type Sql, withoutSocketHost } from '../../src/platform/database.js';
import { newId } from '../../src/platform/ids.js';
import { createSecretBox } from '../../src/platform/secrets.js';
import { createProject } from '../../src/projects/commands.js';
import { findVisibleProject } from '../../src/projects/index.js';
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
    const socket = () => {
      const connection = net.connect(Number(url.port || 5432), url.hostname);
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

  async function count(work: () => Promise<unknown>): Promise<number> {
    await work(); // warm: prepares every statement on the connection
    await drain();
    counter.roundTrips = 0;
    counter.receiving = true;
    await work();
    await drain();
    return counter.roundTrips - 1; // the drain's own
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

  it('POST /demos: two (the demo, its job and the account lock; then the charge with COMMIT), the project read included', async () => {
    const secrets = createSecretBox(randomBytes(32));
    const userId = newId();
    await inTransaction(sql, (tx) => openAccount(tx, { userId, startingCredits: 100 }, {}));
    const { projectId } = await inTransaction(sql, (tx) =>
      createProject(tx, secrets, { userId, name: 'Shop', url: 'https://shop.example.com', viewport: 'desktop', refreshSchedule: 'manual' }, {}),
    );
    const principal = { userId, projectId: null };
    const trips = await count(() =>
      inTransaction(sql, (tx) =>
        requestDemo(
          tx,
          { projectId, userId, prompt: 'Show the trial', format: 'mp4', resolution: '1080p', durationTarget: '10s', mode: 'script', presentation: null },
          {},
          { projectVisible: findVisibleProject(tx, principal as never, projectId) },
        ),
      ),
    );
    // The nudges to the workers and the demo's listeners go after COMMIT, without the command waiting for them
    // (so that new demos do not commit one after another, see notifyAfterCommit): here with the drain's statement.
    assert.equal(trips, 2);
    const [{ balance }] = (await sql`select balance from credit_accounts where user_id = ${userId}`) as unknown as [{ balance: number }];
    assert.ok(balance < 100, 'both demos were charged');
  });
});
