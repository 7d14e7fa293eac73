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
 * command runs until stopped and logs JSON to stdout; the others are one-shot and keep stdout for their result. A
 * `local` command needs neither the database nor the domain's events (a demo recorded on this machine, a signed URL):
 * the domain is not loaded for it, which with its payment and storage clients is ~0.3 s of a one-shot demo's start.
 */
export type ServiceCommand = Command<ServiceContext> & { service?: boolean; local?: boolean };
