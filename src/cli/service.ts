import { ConfigError, loadConfig } from '../platform/config.js';
import { AppError } from '../platform/errors.js';
import { DataDirUnreachableError } from '../platform/embedded-postgres.js';
import { createLogger } from '../platform/logger.js';
import { adminCommands } from './admin.js';
import { type CommandSet, HELP_LINE, HELP_OPTION, UsageError, resolveCommand } from './command.js';
import { demoCommand } from './demo.js';
import { embedUrlCommand } from './embed-url.js';
import type { ServiceCommand } from './service-command.js';

/** start, api, worker: run until SIGTERM or SIGINT, then drain and stop. */
const serve = (name: 'start' | 'api' | 'worker', summary: string): ServiceCommand => ({
  name,
  summary,
  usage: name,
  service: true,
  async run(_parsed, { config, logger }) {
    const { startApp } = await import('../app.js');
    const app = await startApp(config, logger, { http: name !== 'worker', worker: name !== 'api' && config.SHOWREEL_RUN_WORKER });
    await new Promise<void>((resolve) => {
      let stopping = false;
      const shutdown = (signal: string) => {
        // Ctrl-C under bin/showreel.mjs's Node-22 relay arrives twice (from the terminal and relayed): one stop.
        if (stopping) return;
        stopping = true;
        logger.info({ signal }, 'shutting down');
        app.stop().then(resolve, (error: unknown) => {
          logger.error({ err: error }, 'shutdown failed');
          resolve();
        });
      };
      process.on('SIGTERM', () => shutdown('SIGTERM'));
      process.on('SIGINT', () => shutdown('SIGINT'));
    });
  },
});

const migrate: ServiceCommand = {
  name: 'migrate',
  summary: 'Apply the database migrations and exit',
  usage: 'migrate',
  async run(_parsed, { config, logger, print }) {
    const { openDatabase } = await import('../platform/open-database.js');
    const database = await openDatabase(config, logger, { poolSize: 2 });
    await database.close();
    print({ migrated: true });
  },
};

export const serviceCommands: CommandSet<ServiceCommand> = {
  commands: [
    serve('start', 'API and worker in one process (the default)'),
    serve('api', 'The API only'),
    serve('worker', 'The worker only'),
    migrate,
    ...adminCommands,
    demoCommand,
    embedUrlCommand,
  ],
  globalOptions: HELP_OPTION,
  globalHelp: [HELP_LINE],
};

/**
 * The service, admin and local commands (`showreel` alone is `showreel start`), parsed like the client commands
 * (src/cli/command.ts). Returns the exit code: 0 done, 1 the database said no or the command failed, 2 bad usage
 * or bad environment variables.
 */
export async function runServiceCommand(argv: string[]): Promise<number> {
  let resolved;
  try {
    resolved = resolveCommand(serviceCommands, argv.length === 0 ? ['start'] : argv);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    process.stderr.write(`${error.message}\n`);
    return 2;
  }
  if ('help' in resolved) {
    process.stdout.write(resolved.help);
    return resolved.exitCode;
  }
  const { command, parsed } = resolved;

  // Only now the domain, the server and the pipeline load: --help and bad usage answer at once. A local command
  // (service-command.ts) does without the domain.
  if (!command.local) (await import('../domain.js')).registerDomain();
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
  const logger = command.service
    ? createLogger(config.LOG_LEVEL, process.stdout)
    : createLogger(process.env.LOG_LEVEL ? config.LOG_LEVEL : 'warn', process.stderr);
  const print = (result: unknown) => void process.stdout.write(`${JSON.stringify(result)}\n`);

  try {
    await command.run(parsed, { config, logger, print });
    return 0;
  } catch (error) {
    // An unreachable data dir is the environment's to fix (SHOWREEL_DATA_DIR or a chmod), like a bad variable.
    if (error instanceof UsageError || error instanceof DataDirUnreachableError) {
      process.stderr.write(`${error.message}\n`);
      return 2;
    }
    if (error instanceof AppError) {
      process.stderr.write(`${error.message}\n`);
      return 1;
    }
    logger.error({ err: error }, 'command failed');
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  }
}
