import { type CommandSet, UsageError, resolveCommand, summaryLines } from '../command.js';
import { CLIENT_HELP, CLIENT_OPTIONS, type ClientCommand } from './command.js';
import { credits, keysCreate, keysList, keysRevoke, projectsCreate, projectsList, projectsUpdate, upload, usage } from './commands/account.js';
import { login, logout, whoami } from './commands/auth.js';
import { demosStats } from './commands/demo-stats.js';
import { demosCreate, demosDelete, demosDownload, demosList, demosRefresh, demosRestyle, demosShow } from './commands/demos.js';
import { ApiError, ClientError, createContext } from './context.js';

const clientCommands: CommandSet<ClientCommand> = {
  commands: [
    login, logout, whoami,
    projectsList, projectsCreate, projectsUpdate,
    demosList, demosCreate, demosShow, demosRefresh, demosRestyle, demosDelete, demosDownload, demosStats,
    upload, keysList, keysCreate, keysRevoke, credits, usage,
  ],
  globalOptions: CLIENT_OPTIONS,
  globalHelp: CLIENT_HELP,
};

/** Every command's first word is in commands-index.ts (checked by the CLI tests through --help). */
export const clientCommandWords = () => [...new Set(clientCommands.commands.map((c) => c.name.split(' ')[0]!))];

export const clientHelpLines = () => summaryLines(clientCommands.commands);

/**
 * Runs a client command and returns its exit code: 0 done, 1 the service said no (its `{error}` on stderr) or
 * could not be reached, 2 bad usage, 130 stopped waiting on Ctrl-C.
 */
export async function runClientCommand(argv: string[]): Promise<number> {
  // Known before parsing, so that even bad usage answers a script in the form it asked for.
  const json = argv.includes('--json');
  /** Every failure the same way: `Error: <sentence>` for people; under --json the API's own shape, `{"error": …}`, on stderr (stdout stays the result). */
  const fail = (message: string, code: number) => {
    process.stderr.write(json ? `${JSON.stringify({ error: message })}\n` : `${code === 2 ? '' : 'Error: '}${message}\n`);
    return code;
  };
  try {
    const resolved = resolveCommand(clientCommands, argv);
    if ('help' in resolved) {
      process.stdout.write(resolved.help);
      return resolved.exitCode;
    }
    const { command, parsed } = resolved;
    const context = await createContext({ baseUrl: parsed.values['base-url'] as string | undefined, json: parsed.values.json === true });
    await command.run(parsed, context);
    return typeof process.exitCode === 'number' ? process.exitCode : 0;
  } catch (error) {
    if (error instanceof UsageError) {
      return fail(error.message, 2);
    }
    if (error instanceof ApiError || error instanceof ClientError) {
      // A stored key the service no longer takes (revoked in the dashboard, or from another install): say the way out.
      const hint = error instanceof ApiError && error.status === 401 && !process.env.SHOWREEL_API_KEY ? ' Run "showreel login" again.' : '';
      return fail(`${error.message}${hint}`, 1);
    }
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    if (error instanceof TypeError && error.message === 'fetch failed') {
      return fail(`could not reach the service (${cause?.code ?? cause?.message ?? 'no answer'}). Check --base-url or SHOWREEL_URL.`, 1);
    }
    // openapi-fetch parses an OK answer as JSON: a page instead (a proxy's login page, a wrong base URL) is no crash.
    if (error instanceof SyntaxError && /JSON/.test(error.message)) {
      return fail('the service did not answer JSON: is --base-url (or SHOWREEL_URL) the Showreel service itself?', 1);
    }
    // A key with characters no HTTP header can carry (a placeholder pasted from the README, a stray Unicode letter).
    if (error instanceof TypeError && /ByteString/.test(error.message)) {
      return fail('the API key holds characters an HTTP header cannot carry; check SHOWREEL_API_KEY or log in again.', 1);
    }
    // The file system (a download's --out, an upload's file, the config directory): one line, not a stack trace.
    const code = (error as NodeJS.ErrnoException | null)?.code;
    if (typeof code === 'string' && /^E[A-Z]+$/.test(code) && typeof (error as NodeJS.ErrnoException).path === 'string') {
      return fail((error as Error).message, 1);
    }
    throw error;
  }
}
