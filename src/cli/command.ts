import { parseArgs } from 'node:util';

/**
 * The one argument parser of `showreel`, for every command: the client commands (src/cli/client/) and the service,
 * admin and local commands (src/cli/service.ts).
 *
 * Terminology
 * - command: one thing `showreel` does, named by one or two words (`login`, `demos create`, `admin create-user`).
 *   Each declares its options (node:util parseArgs, strict) and a help text; --help works on every one.
 * - group: the first word of two-word commands (`demos`, `admin`); `showreel demos` lists its commands.
 * - global options: the options every command of one kind accepts (--help always; --base-url and --json for the
 *   client commands).
 *
 * Exit codes: 0 done; 1 the service (or the database) said no, or could not be reached; 2 bad usage.
 */
export type OptionSpec = Record<string, { type: 'string' | 'boolean'; short?: string; multiple?: boolean }>;

export interface Parsed {
  values: Record<string, string | boolean | string[] | boolean[] | undefined>;
  positionals: string[];
}

export interface Command<Context> {
  /** `login`, `demos create`, `admin set-plan` */
  name: string;
  summary: string;
  /** The line after `showreel `, e.g. `demos show ID`. */
  usage: string;
  /** One line per option, as shown in --help. */
  help?: string[];
  options?: OptionSpec;
  /** How many positionals the command takes, at least and at most (none when left out). */
  positionals?: { min: number; max: number };
  run(parsed: Parsed, context: Context): Promise<void>;
}

/** The commands of one kind with the options they all take. */
export interface CommandSet<C extends Command<never>> {
  commands: C[];
  globalOptions: OptionSpec;
  globalHelp: string[];
}

/** Bad usage: exit 2 with the message. */
export class UsageError extends Error {}

export const HELP_OPTION: OptionSpec = { help: { type: 'boolean', short: 'h' } };
export const HELP_LINE = '-h, --help       this help';

/** What `resolveCommand` found: a command to run with its parsed words, or a help text to print. */
export type Resolved<C> = { command: C; parsed: Parsed } | { help: string; exitCode: 0 | 2 };

const isHelpWord = (word: string | undefined) => word === '--help' || word === '-h' || word === 'help';

/**
 * Finds the command named by the first one or two words and parses the rest strictly. `showreel demos` (a group
 * with no command) prints the group's commands and is bad usage (2); `showreel demos --help` prints them and is 0.
 * Throws UsageError for an unknown command, an unknown option, a missing value or a wrong number of positionals.
 */
export function resolveCommand<C extends Command<never>>(set: CommandSet<C>, argv: string[]): Resolved<C> {
  const [first, second] = argv;
  let command = set.commands.find((c) => c.name === `${first} ${second}`);
  let rest = argv.slice(2);
  if (!command) {
    command = set.commands.find((c) => c.name === first);
    rest = argv.slice(1);
  }
  if (!command) {
    const group = set.commands.filter((c) => c.name.startsWith(`${first} `));
    if (group.length === 0) throw new UsageError(`Unknown command "${first}". Run "showreel --help" for the list.`);
    if (second === undefined) return { help: groupHelp(first!, group), exitCode: 2 };
    if (isHelpWord(second)) return { help: groupHelp(first!, group), exitCode: 0 };
    throw new UsageError(`Unknown command "${first} ${second}".\n${groupHelp(first!, group)}`);
  }
  const parsed = parseCommand(command, rest, set.globalOptions);
  if (parsed.values.help) return { help: helpOf(command, set.globalHelp), exitCode: 0 };
  return { command, parsed };
}

function parseCommand(command: Command<never>, argv: string[], globalOptions: OptionSpec): Parsed {
  let parsed: Parsed;
  try {
    parsed = parseArgs({ args: argv, options: { ...globalOptions, ...command.options }, allowPositionals: true, strict: true }) as Parsed;
  } catch (error) {
    throw new UsageError(`${(error as Error).message.replace(/\.?$/, '.')} Run "showreel ${command.name} --help".`);
  }
  if (parsed.values.help) return parsed;
  const { min, max } = command.positionals ?? { min: 0, max: 0 };
  if (parsed.positionals.length < min || parsed.positionals.length > max) throw new UsageError(`Usage: showreel ${command.usage}`);
  // An empty argument ("$ID" of an unset variable) would address the collection instead of one of its items.
  if (parsed.positionals.some((word) => word.trim() === '')) throw new UsageError(`An argument is empty. Usage: showreel ${command.usage}`);
  return parsed;
}

export function helpOf(command: Command<never>, globalHelp: string[]): string {
  return [`${command.summary}`, '', `Usage: showreel ${command.usage}`, '', 'Options:', ...(command.help ?? []).map((l) => `  ${l}`), ...globalHelp.map((l) => `  ${l}`), ''].join('\n');
}

/** One line per command, for `showreel --help` and the group helps. */
export const summaryLines = (commands: Array<Command<never>>) => commands.map((c) => `  ${c.name.padEnd(18)} ${c.summary}`);

const groupHelp = (group: string, commands: Array<Command<never>>) => [`Usage: showreel ${group} <command> [options]`, '', ...summaryLines(commands), '', `Run "showreel ${group} <command> --help" for its options.`, ''].join('\n');

export const stringOption = (parsed: Parsed, name: string): string | undefined => {
  const value = parsed.values[name];
  return typeof value === 'string' ? value : undefined;
};

export function requiredOption(parsed: Parsed, name: string): string {
  const value = stringOption(parsed, name);
  if (value === undefined || value === '') throw new UsageError(`--${name} is required.`);
  return value;
}

export function oneOf<T extends string>(value: string | undefined, allowed: readonly T[], name: string): T | undefined {
  if (value === undefined) return undefined;
  if (!(allowed as readonly string[]).includes(value)) throw new UsageError(`--${name} must be one of: ${allowed.join(', ')}.`);
  return value as T;
}

export function integerOption(parsed: Parsed, name: string, minimum: number): number | undefined {
  const text = stringOption(parsed, name);
  if (text === undefined) return undefined;
  const value = Number(text);
  if (!Number.isSafeInteger(value) || value < minimum) throw new UsageError(`--${name} must be a whole number, at least ${minimum}.`);
  return value;
}
