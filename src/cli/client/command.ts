import { type Command, HELP_LINE, HELP_OPTION, type OptionSpec } from '../command.js';
import type { ClientContext } from './context.js';

export { integerOption, oneOf, type Parsed, requiredOption, stringOption } from '../command.js';

/** A command that talks to a running service over its REST API (src/cli/command.ts has the parser). */
export type ClientCommand = Command<ClientContext>;

/** What every client command accepts: where the service is, JSON for scripts, help. */
export const CLIENT_OPTIONS: OptionSpec = {
  'base-url': { type: 'string' },
  json: { type: 'boolean' },
  ...HELP_OPTION,
};

export const CLIENT_HELP = [
  '--base-url URL   the service (default: $SHOWREEL_URL, else http://localhost:3000)',
  '--json           print JSON for scripts instead of tables',
  HELP_LINE,
];
