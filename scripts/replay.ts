/**
 * `npm run replay`: empties every read model and rebuilds it from the event log, in one transaction (readers see
 * the old rows or the new ones, never half; writers wait for the duration). Same database as the server:
 * DATABASE_URL, else the embedded PostgreSQL of SHOWREEL_DATA_DIR.
 *
 * Prints one JSON line, `{"rebuilt":true,"events":N,"tables":[...]}`, and exits 0; on failure a message on
 * stderr and exit 1. Logs go to stderr.
 */
import { registerDomain } from '../src/domain.js';
import { ConfigError, loadConfig } from '../src/platform/config.js';
import { createLogger } from '../src/platform/logger.js';
import { openDatabase } from '../src/platform/open-database.js';
import { rebuildReadModels } from '../src/platform/projections.js';

async function main(): Promise<number> {
  const config = loadConfig();
  const logger = createLogger(config.LOG_LEVEL, process.stderr);
  registerDomain();
  const database = await openDatabase(config, logger, { poolSize: 2 });
  try {
    const started = Date.now();
    const { events, tables } = await database.sql.begin((tx) => rebuildReadModels(tx));
    logger.info({ events, tables, ms: Date.now() - started }, 'read models rebuilt');
    process.stdout.write(`${JSON.stringify({ rebuilt: true, events, tables })}\n`);
    return 0;
  } finally {
    await database.close();
  }
}

const code = await main().catch((error: unknown) => {
  // A bad environment already explains itself, one line per variable.
  const message = error instanceof ConfigError ? error.message : `Replay failed: ${error instanceof Error ? error.message : String(error)}`;
  process.stderr.write(`${message}\n`);
  return 1;
});
process.exit(code);
