import postgres from 'postgres';
import { corkedSocket } from './corked-socket.js';

/** postgres.js: one pool per process. `Sql` is the pool, `Tx` a transaction; both run queries. */
export type Sql = postgres.Sql;
export type Tx = postgres.TransactionSql;
export type Queryable = Sql | Tx;

export function connect(url: string, options: { max?: number; applicationName?: string } = {}): Sql {
  return postgres(url, {
    max: options.max ?? 20,
    onnotice: () => {},
    connection: { application_name: options.applicationName ?? 'showreel' },
    // int8 as JS strings would make counts awkward; event positions stay strings (bigint-safe) via explicit casts.
    types: {},
    // One write per pipeline (see corkedSocket); TLS and multi-host URLs keep postgres.js's own socket.
    ...(plainSingleHost(url) ? ({ socket: corkedSocket } as object) : {}),
  });
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
