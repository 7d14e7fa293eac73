import net from 'node:net';
import { isKnownDown } from './database-availability.js';

/**
 * A socket for postgres.js that sends a pipeline of statements in one write.
 *
 * postgres.js gathers the statements sent in one tick and writes them in a setImmediate, but writes at once
 * whenever its buffer reaches 1 KiB: a command's round trip of ten statements (a demo: its events, projections,
 * job, lock and reads, about 2.5 KiB) became three writes. Each write to a loopback socket costs the API process
 * about as much CPU as a round trip (the kernel runs PostgreSQL's side of it in the same system call).
 *
 * So the first such early write corks the socket, and it is uncorked in a setImmediate scheduled at the end of the
 * current tick (after every microtask): that runs after postgres.js's own setImmediate that writes the rest, and
 * the whole pipeline leaves in one writev. Small writes from postgres.js's setImmediate (everything under 1 KiB)
 * are already whole and go out at once, without waiting.
 */
export function corkedSocket(options: { host: string[]; port: number[]; path?: string | false }): net.Socket {
  const address = options.path || `${options.host[0]}:${options.port[0]}`;
  if (isKnownDown(address)) return refusedSocket(address);
  const socket = options.path ? net.connect(options.path) : net.connect(options.port[0]!, options.host[0]!);
  const write = socket.write;
  let corked = false;
  const uncork = () => {
    corked = false;
    socket.uncork();
  };
  socket.write = function (this: net.Socket, ...args: Parameters<net.Socket['write']>) {
    const [data] = args;
    if (!corked && typeof data !== 'string' && data.length >= 1024) {
      corked = true;
      socket.cork();
      // queueMicrotask → nextTick: after every microtask of this tick, wherever the write came from (see above).
      queueMicrotask(() => process.nextTick(() => setImmediate(uncork)));
    }
    return write.apply(this, args);
  } as net.Socket['write'];
  return socket;
}

/**
 * A connect to a database known to be down (database-availability.ts), refused as the kernel refuses one where
 * nothing listens: postgres.js writes its startup message to a socket still connecting (held, not refused), and the
 * refusal comes after, on a later turn of the event loop. Failing any sooner would leave that message queued inside
 * postgres.js with no write scheduled for it, and the connection's next attempt would never send its own.
 */
function refusedSocket(address: string): net.Socket {
  const socket = new net.Socket();
  (socket as { connecting: boolean }).connecting = true;
  const refusal = Object.assign(new Error(`connect ECONNREFUSED ${address}`), { code: 'ECONNREFUSED', errno: -111, syscall: 'connect', address });
  const write = socket.write;
  let refused = false;
  socket.write = function (this: net.Socket, ...args: Parameters<net.Socket['write']>) {
    if (!refused) {
      refused = true;
      setImmediate(() => socket.destroy(refusal));
    }
    return write.apply(this, args);
  } as net.Socket['write'];
  return socket;
}
