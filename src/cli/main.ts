import { isClientCommand } from './client/commands-index.js';

/**
 * The `showreel` command. Two kinds of commands share it:
 * - client commands (login, demos …, projects …; src/cli/client/) talk to a running service over its REST API and
 *   need only its address and a key;
 * - service commands (start, api, worker, migrate, admin …, demo, embed-url; src/cli/service.ts) run the service,
 *   act on its database or record locally.
 * Both sides declare their commands for the one parser of src/cli/command.ts (subcommands, strict options, --help
 * on every command, exit codes 0/1/2). Each side is imported only when used, so a client command does not load the
 * server, the pipeline or the database driver (it starts in a fraction of the time).
 */
const given = process.argv.slice(2);
// "showreel help demos create" is "showreel demos create --help".
const argv = given[0] === 'help' && given.length > 1 ? [...given.slice(1), '--help'] : given;
if (argv[0] === 'help' || argv[0] === '--help' || argv[0] === '-h') process.stdout.write((await import('./help.js')).help());
else process.exitCode = isClientCommand(argv[0])
  ? await (await import('./client/run.js')).runClientCommand(argv)
  : await (await import('./service.js')).runServiceCommand(argv);
