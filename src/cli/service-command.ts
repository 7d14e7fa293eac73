import type { Config } from '../platform/config.js';
import type { Logger } from '../platform/logger.js';
import type { Command } from './command.js';

export interface ServiceContext {
  config: Config;
  logger: Logger;
  /** The command's result on stdout: one JSON line (logs go to stderr for one-shot commands). */
  print(result: unknown): void;
}

/**
 * A command that runs the service or acts on its database or files (src/cli/service.ts lists them). A `service`
 * command runs until stopped and logs JSON to stdout; the others are one-shot and keep stdout for their result.
 */
export type ServiceCommand = Command<ServiceContext> & { service?: boolean };
