/**
 * `npm run audit:credits [-- --all] [-- --user USER_ID]`: recomputes every credit account from its events and
 * compares it with the read models (see src/credits/audit.ts).
 *
 * Prints one JSON line per account with a problem (every account with --all), then one summary line:
 *   {"summary":{"accounts":12,"events":340,"clean":12,"mismatched":0,"ok":true}}
 * Exits 1 when any account mismatches, 2 when the audit could not run. Logs go to stderr. Same database as the
 * server: DATABASE_URL, else the embedded PostgreSQL of SHOWREEL_DATA_DIR.
 */
import { auditCredits } from '../src/credits/index.js';
import { registerDomain } from '../src/domain.js';
import { ConfigError, loadConfig } from '../src/platform/config.js';
import { createLogger } from '../src/platform/logger.js';
import { openDatabase } from '../src/platform/open-database.js';

async function main(argv: string[]): Promise<number> {
  const all = argv.includes('--all');
  const userIndex = argv.indexOf('--user');
  const userId = userIndex >= 0 ? argv[userIndex + 1] : undefined;
  if (userIndex >= 0 && !userId) throw new Error('--user needs a user id.');

  const config = loadConfig();
  const logger = createLogger(config.LOG_LEVEL, process.stderr);
  registerDomain();
  const database = await openDatabase(config, logger, { poolSize: 2 });
  try {
    const report = await auditCredits(database.sql, userId === undefined ? {} : { userId });
    for (const account of report.accounts) {
      if (all || !account.ok) process.stdout.write(`${JSON.stringify(account)}\n`);
    }
    process.stdout.write(`${JSON.stringify({ summary: report.summary })}\n`);
    return report.summary.ok ? 0 : 1;
  } finally {
    await database.close();
  }
}

const code = await main(process.argv.slice(2)).catch((error: unknown) => {
  // A bad environment already explains itself, one line per variable.
  const message = error instanceof ConfigError ? error.message : `Credits audit failed: ${error instanceof Error ? error.message : String(error)}`;
  process.stderr.write(`${message}\n`);
  return 2;
});
process.exit(code);
