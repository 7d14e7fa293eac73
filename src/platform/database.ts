import type postgresTypes from 'postgres';
import { corkedSocket } from './corked-socket.js';
import { rememberDatabaseAddress } from './database-availability.js';
import { postgres } from './postgres-driver.js';

/** postgres.js: one pool per process. `Sql` is the pool, `Tx` a transaction; both run queries. */
export type Sql = postgresTypes.Sql;
export type Tx = postgresTypes.TransactionSql;
export type Queryable = Sql | Tx;

/**
 * Reads that must agree with one another, in one REPEATABLE READ, read-only snapshot: what a command wrote in one
 * transaction (a job's end and its demo's new version, say) is seen whole or not at all. Separate reads can each see
 * a different moment. Two round trips more than reading without it.
 */
export async function inReadSnapshot<T>(sql: Sql, read: (tx: Tx) => Promise<T>): Promise<T> {
  return (await sql.begin('isolation level repeatable read read only', read)) as T;
}

export function connect(
  url: string,
  // debug: postgres.js's hook, called with each statement as it is sent (tests count a component's reads with it).
  options: { max?: number; applicationName?: string; debug?: (connection: number, query: string, parameters: unknown[]) => void } = {},
): Sql {
  const { url: target, socketDir } = withoutSocketHost(url);
  rememberAddresses(target, socketDir);
  return postgres(target, {
    // postgres.js finds the socket as <host>/.s.PGSQL.<port> when the host is a directory.
    ...(socketDir ? { host: socketDir } : {}),
    max: options.max ?? 20,
    onnotice: () => {},
    connect_timeout: CONNECT_TIMEOUT_SECONDS,
    backoff: reconnectDelaySeconds,
    ...(options.debug ? { debug: options.debug } : {}),
    connection: { application_name: options.applicationName ?? 'showreel' },
    // int8 as JS strings would make counts awkward; event positions stay strings (bigint-safe) via explicit casts.
    types: { date: timestampType },
    // One write per pipeline (see corkedSocket); TLS and multi-host URLs keep postgres.js's own socket.
    ...(plainSingleHost(target) ? ({ socket: corkedSocket } as object) : {}),
  });
}

/**
 * How long one attempt to connect may take before the statements waiting for it fail (CONNECT_TIMEOUT: a 503). A
 * database that is down refuses at once (nothing listens on its socket); this bounds the case where nothing answers
 * at all (a host gone from the network). postgres.js's default, 30 s, held every request behind such an attempt.
 */
export const CONNECT_TIMEOUT_SECONDS = 5;

/**
 * The wait before a connection that closed with an error connects again, in seconds. postgres.js's default grows
 * with every failed attempt of the whole pool (0.03 s × 3^failures, up to 20 s) and only falls back once a
 * connection succeeds: an outage of 3 s made 20 connections fail often enough that, with the database back, the
 * pool waited another ~12 s before trying it (issue 58: the first write 15.4 s after a kill -9, the database back
 * at 3.0 s). A connection only connects again when a statement is waiting for it, and a refused attempt costs
 * next to nothing, so the wait stays short: at most 0.1 s, jittered so that the pool's connections do not knock
 * together. A statement given to a closed connection waits this long, plus the attempt, before it fails.
 */
export const MAX_RECONNECT_DELAY_SECONDS = 0.1;
function reconnectDelaySeconds(failures: number): number {
  return Math.min(0.01 * 2 ** failures, MAX_RECONNECT_DELAY_SECONDS) * (0.5 + Math.random() / 2);
}

/**
 * postgres.js's own date type (timestamptz, timestamp and date parameters as ISO text, results as Dates), with the
 * text of the last instant kept: a command writes one instant many times (an event's created_at is also its
 * projections' created_at and updated_at), and `toISOString` for each was ~1.4% of the API's CPU under POST /demos.
 * Keyed by the time value, not the object, so a Date changed in place is written as it now is.
 */
let lastInstant = Number.NaN;
let lastInstantText = '';
const timestampType = {
  to: 1184,
  from: [1082, 1114, 1184],
  serialize: (value: unknown): string => {
    const date = value instanceof Date ? value : new Date(value as string | number);
    const instant = date.getTime();
    if (instant !== lastInstant) {
      lastInstantText = date.toISOString();
      lastInstant = instant;
    }
    return lastInstantText;
  },
  parse: (text: string) => new Date(text),
};

/**
 * libpq's Unix-socket URL form, `postgres://user:pw@host:port/db?host=/run/postgresql` (the embedded cluster's URL
 * has it): postgres.js would send an unknown query parameter to the server as a setting, so it is taken out here.
 */
export function withoutSocketHost(url: string): { url: string; socketDir: string | null } {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { url, socketDir: null };
  }
  const host = parsed.searchParams.get('host');
  if (!host?.startsWith('/')) return { url, socketDir: null };
  parsed.searchParams.delete('host');
  return { url: parsed.toString(), socketDir: host };
}

/** So that a refused or reset connection to this database reads as "the database is away", not as a fault. */
function rememberAddresses(url: string, socketDir: string | null): void {
  try {
    const parsed = new URL(url);
    const port = Number(parsed.port || 5432);
    for (const host of decodeURIComponent(parsed.hostname).split(',')) rememberDatabaseAddress(host.replace(/^\[|\]$/g, ''), port);
    if (socketDir) rememberDatabaseAddress(socketDir, port);
  } catch {
    // not a URL postgres.js would take either
  }
}

function plainSingleHost(url: string): boolean {
  try {
    const { hostname, searchParams } = new URL(url);
    const ssl = searchParams.get('sslmode') ?? searchParams.get('ssl');
    return !hostname.includes(',') && (ssl === null || ssl === 'disable' || ssl === 'false') && !process.env.PGSSLMODE;
  } catch {
    return false;
  }
}
