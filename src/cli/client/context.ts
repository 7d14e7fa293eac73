import createClient from 'openapi-fetch';
import type { paths } from '../api-schema.js';
import { UsageError } from '../command.js';
import { readLogin } from './config-file.js';

export type Api = ReturnType<typeof createClient<paths>>;

/** The API said no (exit 1): its status and its `{error}` sentence. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** Something on this side that is not bad usage: no login, an unreachable service, a failed demo (exit 1). */
export class ClientError extends Error {}

export interface ClientContext {
  baseUrl: string;
  json: boolean;
  /** The typed REST client (openapi-fetch over the served OpenAPI document), with the key when there is one. */
  api(): Promise<Api>;
  /** The key in use: SHOWREEL_API_KEY, else the one `login` stored. */
  key(): Promise<string>;
  /** A result: JSON with --json, else what `human` prints. */
  print(result: unknown, human: () => string): void;
  /** Progress and hints for people: stderr, so stdout stays the result. */
  note(line: string): void;
}

export const DEFAULT_BASE_URL = 'http://localhost:3000';

/**
 * The service and the key to call it with. The service: --base-url, else SHOWREEL_URL, else the one `login`
 * stored the key for, else localhost. The key: SHOWREEL_API_KEY, else the stored one, and that only for the
 * service it was issued by: sending it to another service would hand a live key to whoever runs that one.
 */
export async function createContext(options: { baseUrl?: string; json: boolean }): Promise<ClientContext> {
  const explicit = options.baseUrl ?? (process.env.SHOWREEL_URL || undefined);
  const stored = process.env.SHOWREEL_API_KEY ? null : await readLogin();
  const baseUrl = withoutTrailingSlash(explicit ?? stored?.base_url ?? DEFAULT_BASE_URL);
  if (!/^https?:\/\/[^/]+/.test(baseUrl)) throw new UsageError(`The base URL must start with http:// or https:// (got "${baseUrl}").`);
  const key = async () => {
    if (process.env.SHOWREEL_API_KEY) return process.env.SHOWREEL_API_KEY;
    if (!stored) throw new ClientError('Not logged in: run "showreel login", or set SHOWREEL_API_KEY.');
    if (withoutTrailingSlash(stored.base_url) !== baseUrl) {
      throw new ClientError(
        `The key "showreel login" stored is for ${stored.base_url}, not ${baseUrl}: run "showreel login --base-url ${baseUrl}", or set SHOWREEL_API_KEY.`,
      );
    }
    return stored.key;
  };
  return {
    baseUrl,
    json: options.json,
    key,
    async api() {
      return createClient<paths>({ baseUrl, headers: { authorization: `Bearer ${await key()}` } });
    },
    print(result, human) {
      process.stdout.write(options.json ? `${JSON.stringify(result, null, 2)}\n` : `${human()}\n`);
    },
    note(line) {
      process.stderr.write(`${line}\n`);
    },
  };
}

const withoutTrailingSlash = (url: string) => url.replace(/\/+$/, '');

/** A client with no credential, for device login. */
export const anonymousApi = (baseUrl: string): Api => createClient<paths>({ baseUrl });

/** The answer's data, or ApiError with the service's own sentence. */
export function unwrap<T>(result: { data?: T; error?: unknown; response: Response }): T {
  if (result.error !== undefined || !result.response.ok) {
    const body = result.error as { error?: unknown } | undefined;
    const message = typeof body?.error === 'string' ? body.error : `The service answered ${result.response.status} ${result.response.statusText}.`;
    throw new ApiError(result.response.status, message);
  }
  return result.data as T;
}

/** Rows as aligned columns, for people. */
export function table(headers: string[], rows: Array<Array<string | number | null | undefined>>): string {
  if (rows.length === 0) return '(none)';
  const cells = [headers, ...rows.map((r) => r.map((c) => (c === null || c === undefined ? '-' : String(c))))];
  const widths = headers.map((_, i) => Math.max(...cells.map((r) => r[i]!.length)));
  return cells.map((r) => r.map((c, i) => (i === r.length - 1 ? c : c.padEnd(widths[i]!))).join('  ')).join('\n');
}

/** A size for people: "532 bytes", "48.2 KB", "1.7 MB" (powers of 1024, one decimal). */
export function humanBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} byte${bytes === 1 ? '' : 's'}`;
  const units = ['KB', 'MB', 'GB', 'TB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value.toFixed(1)} ${units[unit]}`;
}

export const truncate = (text: string | null | undefined, length: number) =>
  !text ? '' : text.length <= length ? text : `${text.slice(0, length - 1)}…`;
