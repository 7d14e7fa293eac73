import { clientHelpLines } from './client/run.js';

const SERVER_HELP = [
  '  start            API and worker in one process (the default)',
  '  api, worker      API only, worker only',
  '  migrate          apply the database migrations and exit',
  '  admin …          create-user and other admin tasks on the database',
  '  demo URL PROMPT  one demo, locally, without a server',
  '  embed-url --project ID [--payload JSON] [--ttl 3600]   a signed runtime embed URL (SHOWREEL_SIGNING_SECRET)',
];

/** `showreel --help`: every command, client and service. */
export const help = () =>
  ['Usage: showreel <command> [options]', '', 'Talk to a running service (--base-url or SHOWREEL_URL; key from login or SHOWREEL_API_KEY):', ...clientHelpLines(), '', 'Run the service:', ...SERVER_HELP, '', 'Every client command takes --help and --json.', ''].join('\n');

