import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocket, WebSocketServer } from 'ws';
import { resolvePrincipal } from '../../auth/index.js';
import { DEMO_PROGRESS_CHANNEL, findPublicDemo, findVisibleDemo } from '../../demos/index.js';
import { findJob } from '../../demos/queries.js';
import { toProgress } from '../../demos/representation.js';
import type { Principal } from '../../platform/principal.js';
import { sessionOnlyFromHere, type Services } from '../context.js';

const WS_PATH = /^\/api\/v1\/demos\/([^/]+)\/ws$/;
/** The embed player's progress channel: public by unguessable demo id, like the embed page it serves. */
const PUBLIC_WS_PATH = /^\/embed\/([^/]+)\/ws$/;
const FINAL = new Set(['ready', 'failed', 'deleted']);

/**
 * Live progress over WebSocket (`wsUrl`). One LISTEN connection per process fans out to every socket; NOTIFY
 * carries only the demo id and the state is re-read, so any number of API processes can serve sockets and a
 * reconnect of the LISTEN connection (onlisten) re-sends the current state: nothing is missed.
 *
 * Messages are the polling shape `{id, status, step, progress, error, updated_at}`: the current state on connect,
 * then each change; the socket closes (1000) after `ready` or `failed`.
 */
export function createProgressHub(services: Services) {
  const wss = new WebSocketServer({ noServer: true, maxPayload: 4096 });
  const sockets = new Map<string, Set<{ socket: WebSocket; principal: Principal | null }>>();
  let listening: Promise<{ unlisten(): Promise<void> }> | null = null;

  async function send(demoId: string) {
    const subscribers = sockets.get(demoId);
    if (!subscribers || subscribers.size === 0) return;
    for (const subscriber of subscribers) await sendTo(subscriber, demoId);
  }

  async function sendTo(subscriber: { socket: WebSocket; principal: Principal | null }, demoId: string) {
    {
      const demo = subscriber.principal ? await findVisibleDemo(services.sql, subscriber.principal, demoId) : await findPublicDemo(services.sql, demoId);
      if (subscriber.socket.readyState !== WebSocket.OPEN) return;
      if (!demo) {
        subscriber.socket.send(JSON.stringify({ id: demoId, status: 'deleted', step: null, progress: 0, error: 'The demo was deleted.', updated_at: new Date().toISOString() }));
        subscriber.socket.close(1000, 'deleted');
        return;
      }
      const progress = toProgress(demo, demo.latest_job_id ? await findJob(services.sql, demo.latest_job_id) : null);
      subscriber.socket.send(JSON.stringify(progress));
      if (FINAL.has(progress.status)) subscriber.socket.close(1000, progress.status);
    }
  }

  function ensureListening() {
    listening ??= services.sql.listen(
      DEMO_PROGRESS_CHANNEL,
      (demoId) => {
        send(demoId).catch((error: unknown) => services.logger.warn({ err: error, demoId }, 'progress fan-out failed'));
      },
      () => {
        // (Re)connected: anything sent while we were away is covered by re-sending every watched demo's state.
        for (const demoId of sockets.keys()) send(demoId).catch(() => undefined);
      },
    );
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
      socket.end(`HTTP/1.1 ${status} ${status === 401 ? 'Unauthorized' : 'Not Found'}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
      return true;
    };
    let principal: Principal | null = null;
    if (publicMatch) {
      if (!(await findPublicDemo(services.sql, demoId).catch(() => null))) return reject(404, 'Demo not found.');
    } else try {
      const token = url.searchParams.get('token');
      const headers = token && !req.headers.authorization && !req.headers['x-api-key'] ? { ...req.headers, authorization: `Bearer ${token}` } : req.headers;
      principal = sessionOnlyFromHere(req, await resolvePrincipal(services.sql, headers, services.logger), services.config.PUBLIC_URL);
    } catch {
      return reject(401, 'Invalid API key.');
    }
    if (!publicMatch) {
      if (!principal || principal.via === 'publishable') return reject(401, 'Authentication required: send a live API key (header or ?token=) or the session cookie.');
      const demo = await findVisibleDemo(services.sql, principal, demoId);
      if (!demo) return reject(404, 'Demo not found.');
    }
    await ensureListening();

    wss.handleUpgrade(req, socket, head, (ws) => {
      const entry = { socket: ws, principal };
      let set = sockets.get(demoId);
      if (!set) sockets.set(demoId, (set = new Set()));
      set.add(entry);
      ws.on('close', () => {
        set!.delete(entry);
        if (set!.size === 0) sockets.delete(demoId);
      });
      ws.on('error', () => ws.terminate());
      sendTo(entry, demoId).catch(() => undefined);
    });
    return true;
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
