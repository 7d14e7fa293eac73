/** `--name value` and `--flag` pairs; positional words stay in order. Small on purpose: no dependency needed. */
export function parseArguments(argv: string[]): { positional: string[]; options: Map<string, string | true> } {
  const positional: string[] = [];
  const options = new Map<string, string | true>();
  for (let i = 0; i < argv.length; i++) {
    const word = argv[i]!;
    if (word.startsWith('--')) {
      const [name, inline] = word.slice(2).split(/=(.*)/s, 2) as [string, string | undefined];
      if (inline !== undefined) options.set(name, inline);
      else if (argv[i + 1] !== undefined && !argv[i + 1]!.startsWith('--')) options.set(name, argv[++i]!);
      else options.set(name, true);
    } else positional.push(word);
  }
  return { positional, options };
}

export class UsageError extends Error {}

export function requireOption(options: Map<string, string | true>, name: string): string {
  const value = options.get(name);
  if (typeof value !== 'string' || value === '') throw new UsageError(`--${name} is required.`);
  return value;
}
