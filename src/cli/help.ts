import { clientHelpLines } from './client/run.js';
import { summaryLines } from './command.js';
import { serviceCommands } from './service.js';

/** `showreel --help`: every command, client and service. */
export const help = () =>
  [
    'Usage: showreel <command> [options]',
    '',
    'Talk to a running service (--base-url or SHOWREEL_URL; key from login or SHOWREEL_API_KEY):',
    ...clientHelpLines(),
    '',
    'Run the service, act on its database, or record locally:',
    ...summaryLines(serviceCommands.commands),
    '',
    'Every command takes --help; client commands also take --json. Exit codes: 0 done, 1 refused or failed, 2 bad usage, 130 stopped waiting (Ctrl-C).',
    '',
  ].join('\n');
