/**
 * A small typed client for the internal admin procedures (tRPC over /trpc; they are never on the REST surface).
 *
 *   npm run admin-client -- read-stream STREAM_ID
 *   npm run admin-client -- read-all [--after-tx X --after-pos Y] [--limit N]
 *   npm run admin-client -- rebuild
 *
 * SHOWREEL_URL (default http://localhost:3000) is the server; SHOWREEL_API_KEY is an admin's live key, sent as
 * `Authorization: Bearer`. Prints one JSON document on stdout; errors go to stderr.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createTRPCClient, httpLink, TRPCClientError } from '@trpc/client';
import type { TrpcRouter } from '../src/http/app-router.js';
import { UsageError } from '../src/cli/command.js';

export interface AdminClientOptions {
  /** The server's base URL, e.g. http://localhost:3000 (no /trpc). */
  url: string;
  /** An admin's live key; omitted means no credential at all. */
  apiKey?: string | undefined;
}

/** The typed admin procedures: `client.readStream.query(...)`, `client.readAll.query(...)`, `client.rebuildReadModels.mutate()`. */
export function createAdminClient(options: AdminClientOptions) {
  const client = createTRPCClient<TrpcRouter>({
    links: [
      httpLink({
        url: `${options.url.replace(/\/+$/, '')}/trpc`,
        headers: () => (options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {}),
      }),
    ],
  });
  return client.admin;
}

export type AdminClient = ReturnType<typeof createAdminClient>;

const USAGE = `Usage: npm run admin-client -- <command>
  read-stream STREAM_ID
  read-all [--after-tx X --after-pos Y] [--limit N]
  rebuild
Environment: SHOWREEL_URL (default http://localhost:3000), SHOWREEL_API_KEY (an admin's live key).`;

/** Runs one command and returns what to print. Throws UsageError for bad arguments. */
export async function runAdminClient(argv: string[], env: NodeJS.ProcessEnv = process.env): Promise<unknown> {
  const { positional, options } = parseArguments(argv);
  const [command, ...rest] = positional;
  const client = createAdminClient({ url: env.SHOWREEL_URL || 'http://localhost:3000', apiKey: env.SHOWREEL_API_KEY || undefined });
  switch (command) {
    case 'read-stream': {
      const streamId = rest[0];
      if (!streamId || rest.length > 1) throw new UsageError('read-stream needs exactly one STREAM_ID.');
      return client.readStream.query({ streamId });
    }
    case 'read-all': {
      const tx = optionalDigits(options, 'after-tx');
      const pos = optionalDigits(options, 'after-pos');
      if ((tx === undefined) !== (pos === undefined)) throw new UsageError('--after-tx and --after-pos go together.');
      const limit = optionalDigits(options, 'limit');
      return client.readAll.query({
        after: tx !== undefined && pos !== undefined ? { transactionId: tx, globalPosition: pos } : null,
        ...(limit === undefined ? {} : { limit: Number(limit) }),
      });
    }
    case 'rebuild':
      return client.rebuildReadModels.mutate();
    default:
      throw new UsageError(command === undefined ? USAGE : `Unknown command "${command}".\n${USAGE}`);
  }
}

function optionalDigits(options: Map<string, string | true>, name: string): string | undefined {
  const value = options.get(name);
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || !/^\d+$/.test(value)) throw new UsageError(`--${name} must be a non-negative integer.`);
  return value;
}

async function main(): Promise<number> {
  try {
    const result = await runAdminClient(process.argv.slice(2));
    process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
    return 0;
  } catch (error) {
    if (error instanceof UsageError) {
      process.stderr.write(`${error.message}\n`);
      return 2;
    }
    if (error instanceof TRPCClientError) {
      const code = (error.data as { code?: string } | undefined)?.code;
      process.stderr.write(`${code ? `${code}: ` : ''}${error.message}\n`);
      return 1;
    }
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  }
}

if (process.argv[1] !== undefined && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.exitCode = await main();
}

/**
 * `--name value` and `--flag` pairs; positional words stay in order. This developer script is not a `showreel`
 * command (those share src/cli/command.ts); its words are few and free-form, so a loop is enough.
 */
function parseArguments(argv: string[]): { positional: string[]; options: Map<string, string | true> } {
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

