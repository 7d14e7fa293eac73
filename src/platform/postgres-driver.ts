import fs from 'node:fs';
import Module, { createRequire } from 'node:module';
import path from 'node:path';
import type postgresType from 'postgres';

/**
 * postgres.js (3.4.9), with one crash fixed: when a connection closes (the database restarted, crashed, or ended
 * the session), a statement written to it afterwards (the ROLLBACK that `sql.begin` sends itself when its
 * callback fails, or any statement on a reserved connection) is buffered, and the write scheduled for it runs
 * `socket.write` on the socket that `closed()` has set to null: a TypeError from a setImmediate, which nobody can
 * catch, and the whole process exits (upstream porsager/postgres#1154, #1208; fixes proposed in #1168, #1209, not
 * released). Surviving a database restart is the point of the supervision (issue 34), so the write is refused
 * instead: the statements waiting on that connection fail with CONNECTION_CLOSED (a 503 for the API), and the
 * connection's write state is reset, so that it can connect again on its next use.
 *
 * Two hangs of the same close are fixed with it (issue 58). `closed()` cancelled the scheduled write but left its
 * timer handle and buffer set: a statement of a reserved connection's transaction written after the close was
 * appended to that buffer and never scheduled (the handle said a write was pending), so it neither ran nor failed,
 * and its request waited for ever (two of ~270 writes in flight across a kill -9); and the connection's next
 * attempt sent its startup message behind the dead statements, or not at all, and failed after the connect timeout.
 * Now `closed()` clears both, and a statement written while the connection has no socket fails at once with
 * CONNECTION_CLOSED. `writeAfterClose` also answers that the connection may take more statements (true): false
 * moved a closed reserved connection into the pool's `full` queue, where its later statements waited unsent.
 *
 * And a request for a reserved connection (every command's transaction) was lost: when a connection closed, the
 * pool took the oldest waiting request out of its queue to connect for; a reserve request, once that connect
 * succeeded, was dropped (the pool hands reserved connections out from its queue only), and its command waited for
 * ever (one to three per kill -9 under three busy writers, right after the restart). A reserve request now stays in
 * the queue while a connect runs for it, and leaves the queue when it fails (else the next connection to open would
 * be handed to a request nobody waits for any more, and never come back).
 *
 * The fix is applied to the package's CommonJS build, loaded from its own files with these places changed, so
 * that node_modules stays as installed. Should a release change any of them (say, fix it), the package is used as it
 * is: `driverPatched` says which, and test/platform/database-supervision.test.ts checks the crash does not happen.
 */
const require = createRequire(import.meta.url);

const UNGUARDED = 'function nextWrite(fn) {\n    const x = socket.write(chunk, fn)';
const GUARDED = `function nextWrite(fn) {
    if (!socket) return writeAfterClose()
    const x = socket.write(chunk, fn)`;
const UNGUARDED_WRITE = 'function write(x, fn) {\n    chunk = chunk ? ';
const GUARDED_WRITE = 'function write(x, fn) {\n    if (!socket) return writeAfterClose()\n    chunk = chunk ? ';
const CLOSED_KEEPING_WRITE = "    clearImmediate(nextWriteTimer)\n    socket.removeListener('data', data)";
const CLOSED_CLEARING_WRITE = "    clearImmediate(nextWriteTimer)\n    chunk = nextWriteTimer = null\n    socket.removeListener('data', data)";
const DROPPING_RESERVE = '    queries.length && connect(c, queries.shift())';
const KEEPING_RESERVE = `    if (queries.length) {
      const next = queries.shift()
      next.reserve && queries.push(next)
      connect(c, next)
    }`;
const RESERVE_REJECT = 'const query = { reserve: resolve, reject }';
const RESERVE_REJECT_LEAVING = 'const query = { reserve: resolve, reject: (e) => (queries.remove(query), reject(e)) }';
const WRITE_AFTER_CLOSE = `
  function writeAfterClose() {
    nextWriteTimer !== null && clearImmediate(nextWriteTimer)
    chunk = nextWriteTimer = null
    const err = Errors.connection('CONNECTION_CLOSED', options)
    query && queryError(query, err)
    query = null
    while (sent.length) queryError(sent.shift(), err)
    return true
  }

  `;

function loadPatched(): { postgres: typeof postgresType; patched: boolean } {
  const entry = require.resolve('postgres');
  const connectionFile = path.join(path.dirname(entry), 'connection.js');
  const source = fs.readFileSync(connectionFile, 'utf8');
  const indexSource = fs.readFileSync(entry, 'utf8');
  const once = (text: string, within = source) => within.split(text).length === 2;
  const patchable = [UNGUARDED, UNGUARDED_WRITE, CLOSED_KEEPING_WRITE].every((text) => once(text)) && [DROPPING_RESERVE, RESERVE_REJECT].every((text) => once(text, indexSource));
  if (!patchable || require.cache[connectionFile] || require.cache[entry]) return { postgres: require('postgres'), patched: false };
  const patchedSource = source
    .replace(UNGUARDED, `${WRITE_AFTER_CLOSE.trimStart()}${GUARDED}`)
    .replace(UNGUARDED_WRITE, GUARDED_WRITE)
    .replace(CLOSED_KEEPING_WRITE, CLOSED_CLEARING_WRITE);
  const connectionModule = new Module(connectionFile);
  connectionModule.filename = connectionFile;
  connectionModule.paths = (Module as unknown as { _nodeModulePaths(dir: string): string[] })._nodeModulePaths(path.dirname(connectionFile));
  (connectionModule as unknown as { _compile(code: string, file: string): void })._compile(patchedSource, connectionFile);
  connectionModule.loaded = true;
  require.cache[connectionFile] = connectionModule;
  const indexModule = new Module(entry);
  indexModule.filename = entry;
  indexModule.paths = connectionModule.paths;
  const patchedIndex = indexSource.replace(DROPPING_RESERVE, KEEPING_RESERVE).replace(RESERVE_REJECT, RESERVE_REJECT_LEAVING);
  (indexModule as unknown as { _compile(code: string, file: string): void })._compile(patchedIndex, entry);
  indexModule.loaded = true;
  require.cache[entry] = indexModule;
  return { postgres: require('postgres'), patched: true };
}

const loaded = loadPatched();
export const postgres = loaded.postgres;
export const driverPatched = loaded.patched;
