import { startApp } from '../app.js';
import { registerDomain } from '../domain.js';
import { ConfigError, loadConfig } from '../platform/config.js';
import { AppError } from '../platform/errors.js';
import { DataDirUnreachableError } from '../platform/embedded-postgres.js';
import { createLogger } from '../platform/logger.js';
import { openDatabase } from '../platform/open-database.js';
import { runAdmin } from './admin.js';
import { runDemoCommand } from './demo.js';
import { runEmbedUrl } from './embed-url.js';
import { UsageError, parseArguments } from './arguments.js';

/**
 * showreel [start]        API + worker in one process
 * showreel api            API only;  showreel worker   worker only
 * showreel migrate        apply migrations and exit
 * showreel admin …        see src/cli/admin.ts
 * showreel demo <url> "<prompt>" [--out demo.mp4] …   one demo, locally (src/cli/demo.ts)
 */
export async function runServiceCommand(argv: string[]): Promise<number> {
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
  const oneShot = command === 'admin' || command === 'migrate' || command === 'demo' || command === 'embed-url';
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
      case 'embed-url': {
        const result = runEmbedUrl(options, config);
        process.stdout.write(options.get('json') === true ? `${JSON.stringify(result)}\n` : `${result.url}\n`);
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
