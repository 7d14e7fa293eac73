import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocket, WebSocketServer } from 'ws';
import { resolvePrincipal } from '../../auth/index.js';
import { DEMO_PROGRESS_CHANNEL, findDemoProgress, type DemoProgressRead } from '../../demos/index.js';
import type { Principal } from '../../platform/principal.js';
import { addressBucket } from '../../platform/rate-limit.js';
import { clientAddressOf, sessionOnlyFromHere, type Services } from '../context.js';
import { createSocketSlots } from './socket-slots.js';

const WS_PATH = /^\/api\/v1\/demos\/([^/]+)\/ws$/;
/** The embed player's progress channel: public by unguessable demo id, like the embed page it serves. */
const PUBLIC_WS_PATH = /^\/embed\/([^/]+)\/ws$/;
const FINAL = new Set(['ready', 'failed', 'deleted']);
/** Application close code (4000-4999) for a socket the server ends on time: idle, or at its lifetime (cf. HTTP 408). */
export const CLOSE_TIMED_OUT = 4408;
const STATUS_TEXT: Record<number, string> = { 401: 'Unauthorized', 404: 'Not Found', 429: 'Too Many Requests' };

interface Subscriber {
  socket: WebSocket;
  principal: Principal | null;
  idle: NodeJS.Timeout;
  lifetime: NodeJS.Timeout;
}

/**
 * Live progress over WebSocket (`wsUrl`). One LISTEN connection per process fans out to every socket; NOTIFY
 * carries only the demo id and the state is re-read, so any number of API processes can serve sockets and a
 * reconnect of the LISTEN connection (onlisten) re-sends the current state: nothing is missed.
 *
 * Messages are the polling shape `{id, status, step, progress, error, updated_at}`: the current state on connect,
 * then each change; the socket closes (1000) after `ready` or `failed`.
 *
 * Bounds (issue 34; the public path needs no credential): a notification costs one read of the demo whatever the
 * number of sockets watching it (reads of one demo never overlap: a notification during a read asks for one more
 * after it); sockets are capped per client address and per demo (the upgrade is answered 429 `{error}`); a socket
 * that sent nothing for SHOWREEL_PROGRESS_SOCKET_IDLE_SECONDS, or open for SHOWREEL_PROGRESS_SOCKET_MAX_SECONDS, is
 * closed with 4408. Both clients (the embed player, the CLI) then poll the progress endpoint instead.
 */
export function createProgressHub(services: Services) {
  const { config } = services;
  const wss = new WebSocketServer({ noServer: true, maxPayload: 4096 });
  const sockets = new Map<string, Set<Subscriber>>();
  const slots = createSocketSlots({ perAddress: config.SHOWREEL_PROGRESS_SOCKETS_PER_ADDRESS, perDemo: config.SHOWREEL_PROGRESS_SOCKETS_PER_DEMO });
  /** demo id → a fan-out under way, and whether a notification came during it */
  const reading = new Map<string, { again: boolean }>();
  /** How many notifications were heard, and for each demo with sockets (or upgrades) the number at its last. */
  let heard = 0;
  const lastHeard = new Map<string, number>();
  let listening: Promise<{ unlisten(): Promise<void> }> | null = null;

  function notified(demoId: string) {
    if (slots.onDemo(demoId) === 0) return;
    lastHeard.set(demoId, ++heard);
    if (!sockets.has(demoId)) return;
    const running = reading.get(demoId);
    if (running) return void (running.again = true);
    const state = { again: false };
    reading.set(demoId, state);
    void (async () => {
      do {
        state.again = false;
        await fanOut(demoId);
      } while (state.again && sockets.has(demoId));
    })()
      .catch((error: unknown) => services.logger.warn({ err: error, demoId }, 'progress fan-out failed'))
      .finally(() => reading.delete(demoId));
  }

  /** One read, sent to every socket of the demo (serialised once). */
  async function fanOut(demoId: string) {
    const read = await findDemoProgress(services.sql, demoId);
    const text = read ? JSON.stringify(read.progress) : null;
    for (const subscriber of sockets.get(demoId) ?? []) deliver(subscriber, demoId, read, text);
  }

  function deliver(subscriber: Subscriber, demoId: string, read: DemoProgressRead | null, text: string | null = null) {
    const { socket } = subscriber;
    if (socket.readyState !== WebSocket.OPEN) return;
    if (!read || !mayWatch(subscriber.principal, read)) {
      socket.send(JSON.stringify({ id: demoId, status: 'deleted', step: null, progress: 0, error: 'The demo was deleted.', updated_at: new Date().toISOString() }));
      socket.close(1000, 'deleted');
      return;
    }
    socket.send(text ?? JSON.stringify(read.progress));
    subscriber.idle.refresh();
    if (FINAL.has(read.progress.status)) socket.close(1000, read.progress.status);
  }

  function ensureListening() {
    listening ??= services.sql.listen(DEMO_PROGRESS_CHANNEL, notified, () => {
      // (Re)connected: anything sent while we were away is covered by re-sending every watched demo's state.
      for (const demoId of sockets.keys()) notified(demoId);
    });
    return listening;
  }

  async function handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): Promise<boolean> {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const publicMatch = PUBLIC_WS_PATH.exec(url.pathname);
    const match = publicMatch ?? WS_PATH.exec(url.pathname);
    if (!match) return false;
    const demoId = decodeURIComponent(match[1]!);
    const reject = (status: number, message: string) => {
      const body = JSON.stringify({ error: message });
      socket.end(`HTTP/1.1 ${status} ${STATUS_TEXT[status]}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
      return true;
    };

    // The caps first: a refused socket costs no database work.
    const slot = slots.take(addressBucket(clientAddressOf(req, config.SHOWREEL_TRUSTED_PROXIES)), demoId);
    if ('full' in slot) {
      return reject(429, slot.full === 'address'
        ? `Too many progress sockets from your address (at most ${config.SHOWREEL_PROGRESS_SOCKETS_PER_ADDRESS} at once); close one, or poll the demo's progress instead.`
        : `Too many progress sockets on this demo (at most ${config.SHOWREEL_PROGRESS_SOCKETS_PER_DEMO} at once); poll the demo's progress instead.`);
    }
    let handedOver = false;
    try {
      let principal: Principal | null = null;
      if (!publicMatch) {
        try {
          const token = url.searchParams.get('token');
          const headers = token && !req.headers.authorization && !req.headers['x-api-key'] ? { ...req.headers, authorization: `Bearer ${token}` } : req.headers;
          principal = sessionOnlyFromHere(req, await resolvePrincipal(services.sql, headers, services.logger), config.PUBLIC_URL);
        } catch {
          return reject(401, 'Invalid API key.');
        }
        if (!principal || principal.via === 'publishable') return reject(401, 'Authentication required: send a live API key (header or ?token=) or the session cookie.');
      }
      const heardBefore = heard;
      const read = await findDemoProgress(services.sql, demoId).catch(() => null);
      if (!read || !mayWatch(principal, read)) return reject(404, 'Demo not found.');
      await ensureListening();

      handedOver = true;
      // Given back when the connection ends, however it ends (also when ws refuses a malformed handshake).
      socket.once('close', () => releaseSlot(slot, demoId));
      wss.handleUpgrade(req, socket, head, (ws) => {
        const close = (reason: string) => () => ws.close(CLOSE_TIMED_OUT, reason);
        const entry: Subscriber = {
          socket: ws,
          principal,
          idle: setTimeout(close(`idle: no progress for ${config.SHOWREEL_PROGRESS_SOCKET_IDLE_SECONDS} s`), config.SHOWREEL_PROGRESS_SOCKET_IDLE_SECONDS * 1000),
          lifetime: setTimeout(close(`lifetime: open for ${config.SHOWREEL_PROGRESS_SOCKET_MAX_SECONDS} s`), config.SHOWREEL_PROGRESS_SOCKET_MAX_SECONDS * 1000),
        };
        // Timers do not keep a stopping process alive; the sockets' own close does the rest.
        entry.idle.unref();
        entry.lifetime.unref();
        let set = sockets.get(demoId);
        if (!set) sockets.set(demoId, (set = new Set()));
        set.add(entry);
        ws.on('close', () => {
          clearTimeout(entry.idle);
          clearTimeout(entry.lifetime);
          set!.delete(entry);
          if (set!.size === 0) sockets.delete(demoId);
        });
        ws.on('error', () => ws.terminate());
        // The state read above is current unless the demo changed since: then it is read again for this socket.
        if ((lastHeard.get(demoId) ?? 0) <= heardBefore) deliver(entry, demoId, read);
        else findDemoProgress(services.sql, demoId).then((fresh) => deliver(entry, demoId, fresh), () => ws.terminate());
      });
      return true;
    } finally {
      if (!handedOver) releaseSlot(slot, demoId);
    }
  }

  function releaseSlot(slot: { release(): void }, demoId: string) {
    slot.release();
    if (slots.onDemo(demoId) === 0) lastHeard.delete(demoId);
  }

  return {
    handleUpgrade,
    async close() {
      for (const set of sockets.values()) for (const { socket } of set) socket.close(1001, 'server shutting down');
      sockets.clear();
      wss.close();
      if (listening) await (await listening).unlisten().catch(() => undefined);
    },
  };
}

/** A socket opened with a credential sees only what that credential may (another user's demo reads as deleted). */
function mayWatch(principal: Principal | null, read: DemoProgressRead): boolean {
  if (principal === null) return true;
  return read.userId === principal.userId && (principal.projectId === null || principal.projectId === read.projectId);
}
