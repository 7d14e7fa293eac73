import { parseArgs } from 'node:util';
import { UsageError } from '../arguments.js';

/**
 * Terminology
 * - command: one thing `showreel` does against a running service, named by one or two words (`login`,
 *   `demos create`). Each declares its options (node:util parseArgs) and a help text; --help works on every one.
 * - global options: --base-url, --json and --help, accepted by every command.
 */
export type OptionSpec = Record<string, { type: 'string' | 'boolean'; short?: string; multiple?: boolean }>;

export interface Parsed {
  values: Record<string, string | boolean | string[] | boolean[] | undefined>;
  positionals: string[];
}

export interface ClientCommand {
  /** `login`, `demos create` */
  name: string;
  summary: string;
  /** The line after `showreel `, e.g. `demos show ID`. */
  usage: string;
  /** One line per option, as shown in --help. */
  help?: string[];
  options?: OptionSpec;
  /** How many positionals the command takes, at most (and at least). */
  positionals?: { min: number; max: number };
  run(parsed: Parsed, context: import('./context.js').ClientContext): Promise<void>;
}

export const GLOBAL_OPTIONS: OptionSpec = {
  'base-url': { type: 'string' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
};

const GLOBAL_HELP = [
  '--base-url URL   the service (default: $SHOWREEL_URL, else http://localhost:3000)',
  '--json           print JSON for scripts instead of tables',
  '-h, --help       this help',
];

/** Parses a command's own words; an unknown option or a missing value is bad usage (exit 2). */
export function parseCommand(command: ClientCommand, argv: string[]): Parsed {
  let parsed: Parsed;
  try {
    parsed = parseArgs({ args: argv, options: { ...GLOBAL_OPTIONS, ...command.options }, allowPositionals: true, strict: true }) as Parsed;
  } catch (error) {
    throw new UsageError(`${(error as Error).message.replace(/\.?$/, '.')} Run "showreel ${command.name} --help".`);
  }
  if (parsed.values.help) return parsed;
  const { min, max } = command.positionals ?? { min: 0, max: 0 };
  if (parsed.positionals.length < min || parsed.positionals.length > max) {
    throw new UsageError(`Usage: showreel ${command.usage}`);
  }
  return parsed;
}

export function helpOf(command: ClientCommand): string {
  return [`${command.summary}`, '', `Usage: showreel ${command.usage}`, '', 'Options:', ...(command.help ?? []).map((l) => `  ${l}`), ...GLOBAL_HELP.map((l) => `  ${l}`), ''].join('\n');
}

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
