import http from 'node:http';
import https from 'node:https';
import { pinnedLookup } from './pinned-lookup.js';

/**
 * One POST to a URL whose address the SSRF guard approved, connecting to that address (`address`, when given)
 * rather than resolving the host again: DNS rebinding cannot swap in a private address between check and connect.
 * TLS still verifies the certificate against the URL's host. Redirects are not followed (the answer is the
 * answer). One `timeoutMs` for the connect, the request and the answer; of the answer's body only the first
 * `excerptBytes` are kept, the rest is not read.
 */
export interface PinnedPostResult {
  status: number;
  excerpt: string;
}

export function postPinned(
  url: string,
  address: string | null,
  request: { headers: Record<string, string>; body: string; timeoutMs: number; excerptBytes: number },
): Promise<PinnedPostResult> {
  const target = new URL(url);
  const lookup = pinnedLookup(address);
  const client = target.protocol === 'https:' ? https : http;
  const signal = AbortSignal.timeout(request.timeoutMs);
  return new Promise((resolve, reject) => {
    const outgoing = client.request(target, {
      method: 'POST',
      agent: false,
      lookup,
      signal,
      headers: { ...request.headers, 'content-length': String(Buffer.byteLength(request.body)) },
    });
    outgoing.once('error', (error) => reject(signal.aborted ? Object.assign(new Error(`no answer within ${request.timeoutMs / 1000} s`), { code: 'ETIMEDOUT' }) : error));
    outgoing.once('response', (response) => {
      const chunks: Buffer[] = [];
      let kept = 0;
      const finish = () => {
        response.destroy();
        resolve({ status: response.statusCode ?? 0, excerpt: Buffer.concat(chunks).toString('utf8').slice(0, request.excerptBytes) });
      };
      response.on('data', (chunk: Buffer) => {
        const room = request.excerptBytes - kept;
        if (room > 0) {
          chunks.push(chunk.subarray(0, room));
          kept += Math.min(room, chunk.length);
        }
        if (kept >= request.excerptBytes) finish();
      });
      response.once('end', finish);
      response.once('error', finish);
    });
    outgoing.end(request.body);
  });
}
