/**
 * Which errors mean "the database is not there right now" (restarting, crashed, unreachable) rather than a fault
 * of ours: the error mapper answers those 503 with Retry-After instead of 500, and the pool reconnects on its own
 * once the database is back (postgres.js opens connections lazily, per query).
 *
 * - postgres.js's own connection errors (a connection closed or destroyed under a query, a connect timeout), and
 *   ours when a command got no connection within its wait (CONNECTION_WAIT_TIMEOUT, src/platform/transaction.ts);
 * - PostgreSQL's answers while it shuts down, restarts or recovers (class 57P: admin/crash shutdown, "cannot
 *   connect now") and class 08 (connection exceptions);
 * - socket errors (ECONNREFUSED while nothing listens, ENOENT when its Unix socket is gone, ECONNRESET when it
 *   dies mid-answer) that postgres.js failed a query with (it marks them with the query's text), or of a connect
 *   to the database's own address. Only the database's: the same codes from an outbound request (a project's
 *   site, object storage) are not a database outage, and must not be reported as one.
 */
const POSTGRES_JS_CONNECTION_CODES = new Set(['CONNECTION_CLOSED', 'CONNECTION_DESTROYED', 'CONNECT_TIMEOUT', 'CONNECTION_ENDED', 'CONNECTION_WAIT_TIMEOUT']);
const POSTGRES_UNAVAILABLE_CODES = new Set(['57P01', '57P02', '57P03', '57P05']);
const SOCKET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ENOENT', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ECONNABORTED']);

/** host:port and Unix socket paths of the databases this process connects to (connect() adds them). */
const databaseAddresses = new Set<string>();

export function rememberDatabaseAddress(host: string, port: number | null): void {
  databaseAddresses.add(port === null ? host : `${host}:${port}`);
  if (host.startsWith('/') && port !== null) databaseAddresses.add(`${host.replace(/\/+$/, '')}/.s.PGSQL.${port}`);
}

/**
 * Databases known to be down right now, by address: the embedded cluster from its postmaster's exit until its
 * supervisor has it accepting connections again. A new postmaster listens on its socket before it takes
 * connections (while it sets itself up, and while an attempt fails because the dead one's backends still hold its
 * shared memory): a connect then is accepted by the kernel and waits unanswered, up to the connect timeout. Connects
 * to such an address are refused at once instead (see refusedSocket), so that a request is answered 503 at once.
 */
const knownDown = new Set<string>();

export function setDatabaseDown(addresses: string[], down: boolean): void {
  for (const address of addresses) {
    if (down) knownDown.add(address);
    else knownDown.delete(address);
  }
}

export function isKnownDown(address: string): boolean {
  return knownDown.size > 0 && knownDown.has(address);
}

export function isDatabaseUnavailable(thrown: unknown): boolean {
  // A wrapped error (tRPC's, a task's) carries the database's as its cause.
  for (let error = thrown, depth = 0; error instanceof Error && depth < 4; error = error.cause, depth++) {
    const { code, name, syscall, address, port } = error as Error & { code?: unknown; syscall?: unknown; address?: unknown; port?: unknown };
    if (typeof code !== 'string') continue;
    if (POSTGRES_JS_CONNECTION_CODES.has(code)) return true;
    if (name === 'PostgresError' && (POSTGRES_UNAVAILABLE_CODES.has(code) || code.startsWith('08'))) return true;
    if (!SOCKET_CODES.has(code) || typeof syscall !== 'string') continue;
    if ('query' in error && 'parameters' in error) return true;
    if (typeof address === 'string' && (databaseAddresses.has(address) || databaseAddresses.has(`${address}:${String(port)}`))) return true;
  }
  return false;
}
