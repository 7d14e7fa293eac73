import { setTimeout as sleep } from 'node:timers/promises';
import WebSocket from 'ws';
import type { ClientContext } from './context.js';
import { unwrap } from './context.js';

export interface Progress {
  id: string;
  status: string;
  step: string | null;
  progress: number;
  error: string | null;
}

const FINAL = new Set(['ready', 'failed', 'deleted']);
const POLL_MS = 2000;

/**
 * Follows a demo until it is ready, failed or deleted: over its WebSocket (the current state on connect, then each
 * change), and by polling GET /demos/{id}/progress when the socket cannot be had or drops. `onProgress` sees every
 * state. The returned promise is abandoned, never the job, when the caller stops waiting (Ctrl-C).
 */
export async function waitForDemo(context: ClientContext, demoId: string, onProgress: (p: Progress) => void, signal: AbortSignal): Promise<Progress> {
  const viaSocket = await followSocket(context, demoId, onProgress, signal).catch(() => null);
  if (viaSocket) return viaSocket;
  const api = await context.api();
  while (!signal.aborted) {
    const progress = unwrap(await api.GET('/api/v1/demos/{id}/progress', { params: { path: { id: demoId } } })) as Progress;
    onProgress(progress);
    if (FINAL.has(progress.status)) return progress;
    await sleep(POLL_MS, undefined, { signal }).catch(() => undefined);
  }
  throw signal.reason;
}

/** The final state over the socket, or null when the socket closed (or never opened) before one came. */
async function followSocket(context: ClientContext, demoId: string, onProgress: (p: Progress) => void, signal: AbortSignal): Promise<Progress | null> {
  const url = `${context.baseUrl.replace(/^http/, 'ws')}/api/v1/demos/${encodeURIComponent(demoId)}/ws`;
  const socket = new WebSocket(url, { headers: { authorization: `Bearer ${await context.key()}` } });
  return new Promise((resolve) => {
    let last: Progress | null = null;
    const stop = () => socket.terminate();
    signal.addEventListener('abort', stop, { once: true });
    socket.on('message', (data) => {
      try {
        last = JSON.parse(String(data)) as Progress;
        onProgress(last);
      } catch {
        // not a progress message: ignore
      }
    });
    socket.on('error', () => undefined);
    socket.on('close', () => {
      signal.removeEventListener('abort', stop);
      resolve(last && FINAL.has(last.status) ? last : null);
    });
  });
}
