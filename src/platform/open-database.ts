import type { Config } from './config.js';
import { connect, type Sql } from './database.js';
import { settleDriverClasses } from './driver-classes.js';
import { startEmbeddedPostgres } from './embedded-postgres.js';
import type { Logger } from './logger.js';
import { migrate } from './migrate.js';
import { instrumentQueries } from './query-timing.js';

export interface OpenDatabase {
  sql: Sql;
  url: string;
  close(): Promise<void>;
}

/** DATABASE_URL when set, else the embedded PostgreSQL of the data dir; migrated before anything uses it. */
export async function openDatabase(config: Config, logger: Logger, options: { poolSize?: number } = {}): Promise<OpenDatabase> {
  const embedded = config.DATABASE_URL ? null : await startEmbeddedPostgres({ dataDir: config.SHOWREEL_DATA_DIR, logger });
  const url = config.DATABASE_URL ?? embedded!.url;
  const pool = connect(url, { max: options.poolSize ?? config.DATABASE_POOL_SIZE });
  // Counting each request's statements costs a little on every query: only when someone reads the debug log.
  const sql = logger.isLevelEnabled('debug') ? instrumentQueries(pool) : pool;
  try {
    const applied = await migrate(sql, url);
    if (applied.length > 0) logger.info({ applied }, 'migrations applied');
    await settleDriverClasses(pool);
  } catch (error) {
    await sql.end({ timeout: 5 });
    await embedded?.stop();
    throw error;
  }
  return {
    sql,
    url,
    async close() {
      await sql.end({ timeout: 10 });
      if (embedded?.owned) {
        await embedded.stop();
        logger.info('embedded PostgreSQL stopped');
      }
    },
  };
}
