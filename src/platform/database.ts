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
    ...(options.debug ? { debug: options.debug } : {}),
    connection: { application_name: options.applicationName ?? 'showreel' },
    // int8 as JS strings would make counts awkward; event positions stay strings (bigint-safe) via explicit casts.
    types: { date: timestampType },
    // One write per pipeline (see corkedSocket); TLS and multi-host URLs keep postgres.js's own socket.
    ...(plainSingleHost(target) ? ({ socket: corkedSocket } as object) : {}),
  });
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
