import { randomBytes } from 'node:crypto';
import { registerDomain } from '../../src/domain.js';
import { connect, type Sql } from '../../src/platform/database.js';
import { migrate } from '../../src/platform/migrate.js';

export interface TestDatabase {
  sql: Sql;
  url: string;
  drop(): Promise<void>;
}

/**
 * A database of this test file's own, cloned from the migrated template that scripts/test.ts prepared
 * (TEST_DATABASE_URL). Real PostgreSQL, never a mock.
 */
export async function createTestDatabase(): Promise<TestDatabase> {
  const templateUrl = process.env.TEST_DATABASE_URL;
  if (!templateUrl) throw new Error('TEST_DATABASE_URL is not set: run the tests with `npm test`.');
  registerDomain();
  const template = new URL(templateUrl);
  const templateName = template.pathname.slice(1);
  const name = `t_${randomBytes(6).toString('hex')}`;
  const admin = connect(withDatabase(template, 'postgres'), { max: 1 });
  // Cloning needs the template to be idle; retry briefly if another file is cloning at the same moment.
  for (let attempt = 0; ; attempt++) {
    try {
      await admin.unsafe(`create database "${name}" template "${templateName}"`);
      break;
    } catch (error) {
      if (attempt > 50 || !String((error as Error).message).includes('is being accessed by other users')) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100 + Math.random() * 200));
    }
  }
  const url = withDatabase(template, name);
  const sql = connect(url, { max: 40 });
  await migrate(sql, url);
  return {
    sql,
    url,
    async drop() {
      await sql.end({ timeout: 5 });
      // graphile-worker's migration pool is ended without waiting (its releaser does not await pool.end()): in a file
      // whose tests take a few milliseconds its idle client was still connected here, and the forced drop ended it
      // with an error thrown after the test (driver-classes.test.ts, twice in full runs). Let the sessions go first.
      for (let waited = 0; waited < 3000; waited += 50) {
        const [row] = await admin<{ sessions: number }[]>`select count(*)::int as sessions from pg_stat_activity where datname = ${name}`;
        if (!row || row.sessions === 0) break;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      await admin.unsafe(`drop database if exists "${name}" with (force)`);
      await admin.end({ timeout: 5 });
    },
  };
}

function withDatabase(url: URL, database: string): string {
  const copy = new URL(url);
  copy.pathname = `/${database}`;
  return copy.toString();
}
