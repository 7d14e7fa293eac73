import { startApp } from '../app.js';
import { registerDomain } from '../domain.js';
import { ConfigError, loadConfig } from '../platform/config.js';
import { AppError } from '../platform/errors.js';
import { DataDirUnreachableError } from '../platform/embedded-postgres.js';
import { createLogger } from '../platform/logger.js';
import { openDatabase } from '../platform/open-database.js';
import { runAdmin } from './admin.js';
import { runDemoCommand } from './demo.js';
import { UsageError, parseArguments } from './arguments.js';
import { clientHelpLines, isClientCommand, runClientCommand } from './client/run.js';

const SERVER_HELP = [
  '  start            API and worker in one process (the default)',
  '  api, worker      API only, worker only',
  '  migrate          apply the database migrations and exit',
  '  admin …          create-user and other admin tasks on the database',
  '  demo URL PROMPT  one demo, locally, without a server',
];

const help = () =>
  ['Usage: showreel <command> [options]', '', 'Talk to a running service (--base-url or SHOWREEL_URL; key from login or SHOWREEL_API_KEY):', ...clientHelpLines(), '', 'Run the service:', ...SERVER_HELP, '', 'Every client command takes --help and --json.', ''].join('\n');

/**
 * showreel [start]        API + worker in one process
 * showreel api            API only;  showreel worker   worker only
 * showreel migrate        apply migrations and exit
 * showreel admin …        see src/cli/admin.ts
 * showreel demo <url> "<prompt>" [--out demo.mp4] …   one demo, locally (src/cli/demo.ts)
 * showreel login | demos … | projects … | …        a client of a running service (src/cli/client/)
 */
async function main(argv: string[]): Promise<number> {
  // Client commands need no server configuration and no database: only the service's address and a key.
  if (isClientCommand(argv[0])) return runClientCommand(argv);
  if (argv[0] === 'help' || argv[0] === '--help' || argv[0] === '-h') {
    process.stdout.write(help());
    return 0;
  }
  registerDomain();
  const { positional, options } = parseArguments(argv);
  const [command = 'start', subcommand] = positional;
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      for (const problem of error.problems) process.stderr.write(`Invalid environment variable ${problem}\n`);
      return 2;
    }
    throw error;
  }
  // Services log JSON to stdout; one-shot commands keep stdout for their result and log to stderr.
  const oneShot = command === 'admin' || command === 'migrate' || command === 'demo';
  const logger = createLogger(oneShot ? (process.env.LOG_LEVEL ? config.LOG_LEVEL : 'warn') : config.LOG_LEVEL, oneShot ? process.stderr : process.stdout);

  try {
    switch (command) {
      case 'start':
      case 'api':
      case 'worker': {
        const app = await startApp(config, logger, { http: command !== 'worker', worker: command !== 'api' && config.SHOWREEL_RUN_WORKER });
        await new Promise<void>((resolve) => {
          const shutdown = (signal: string) => {
            logger.info({ signal }, 'shutting down');
            app.stop().then(resolve, (error: unknown) => {
              logger.error({ err: error }, 'shutdown failed');
              resolve();
            });
          };
          process.once('SIGTERM', () => shutdown('SIGTERM'));
          process.once('SIGINT', () => shutdown('SIGINT'));
        });
        return 0;
      }
      case 'migrate': {
        registerDomain();
        const database = await openDatabase(config, logger, { poolSize: 2 });
        await database.close();
        process.stdout.write(`${JSON.stringify({ migrated: true })}\n`);
        return 0;
      }
      case 'demo': {
        const result = await runDemoCommand(positional.slice(1), options, config, logger);
        process.stdout.write(`${JSON.stringify(result)}\n`);
        return 0;
      }
      case 'admin': {
        const result = await runAdmin(subcommand, options, config, logger);
        process.stdout.write(`${JSON.stringify(result)}\n`);
        return 0;
      }
      default:
        throw new UsageError(`Unknown command "${command}". Run "showreel --help" for the list.`);
    }
  } catch (error) {
    if (error instanceof UsageError || error instanceof AppError || error instanceof DataDirUnreachableError) {
      process.stderr.write(`${error.message}\n`);
      return 2;
    }
    logger.error({ err: error }, 'command failed');
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  }
}

process.exitCode = await main(process.argv.slice(2));
