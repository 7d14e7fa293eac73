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
/**
 * The client's global options may come before the command, as in most CLIs ("showreel --json demos list"): they
 * are moved behind the command words, where the parser reads them. Anything else is left as it is.
 */
function commandFirst(words: string[]): string[] {
  const leading: string[] = [];
  let at = 0;
  while (at < words.length && (words[at] === '--json' || words[at] === '--base-url' || words[at]!.startsWith('--base-url='))) {
    leading.push(words[at]!);
    if (words[at] === '--base-url' && at + 1 < words.length) leading.push(words[++at]!);
    at++;
  }
  return leading.length > 0 && isClientCommand(words[at]) ? [...words.slice(at), ...leading] : words;
}

const given = commandFirst(process.argv.slice(2));
// "showreel help demos create" is "showreel demos create --help".
const argv = given[0] === 'help' && given.length > 1 ? [...given.slice(1), '--help'] : given;
if (argv[0] === 'help' || argv[0] === '--help' || argv[0] === '-h') process.stdout.write((await import('./help.js')).help());
else process.exitCode = isClientCommand(argv[0])
  ? await (await import('./client/run.js')).runClientCommand(argv)
  : await (await import('./service.js')).runServiceCommand(argv);
