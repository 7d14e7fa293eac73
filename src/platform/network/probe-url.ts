import http from 'node:http';
import https from 'node:https';
import { checkUrl } from './ssrf-guard.js';
import { pinnedLookup } from './pinned-lookup.js';

/**
 * Does anything answer at a URL a user just named? One GET (headers only, the body is never read), redirects
 * followed with each hop checked by the SSRF guard and connected to the address it approved, all within one short
 * timeout. The answer says what was seen; what counts as a clear failure is the caller's to decide.
 */
export type ProbeOutcome =
  | { kind: 'answered'; status: number; url: string }
  | { kind: 'refused'; url: string }
  | { kind: 'bad-port'; url: string; port: number }
  | { kind: 'guard'; url: string; reason: string }
  /** Nothing that proves the page is missing: no DNS answer, a timeout, a TLS or network error, a redirect loop. */
  | { kind: 'inconclusive'; url: string; detail: string };

export interface ProbeOptions {
  allowPrivate: boolean;
  timeoutMs: number;
  maxRedirects?: number;
}

/**
 * The ports browsers refuse to open (the Fetch standard's "bad ports", which Chromium follows): a page on one can
 * never be recorded, whatever answers there.
 */
const BAD_PORTS = new Set([
  1, 7, 9, 11, 13, 15, 17, 19, 20, 21, 22, 23, 25, 37, 42, 43, 53, 69, 77, 79, 87, 95, 101, 102, 103, 104, 109, 110, 111, 113, 115,
  117, 119, 123, 135, 137, 139, 143, 161, 179, 389, 427, 465, 512, 513, 514, 515, 526, 530, 531, 532, 540, 548, 554, 556, 563, 587,
  601, 636, 989, 990, 993, 995, 1719, 1720, 1723, 2049, 3659, 4045, 4190, 5060, 5061, 6000, 6566, 6665, 6666, 6667, 6668, 6669,
  6679, 6697, 10080,
]);

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

export async function probeUrl(url: string, options: ProbeOptions): Promise<ProbeOutcome> {
  const signal = AbortSignal.timeout(options.timeoutMs);
  const maxRedirects = options.maxRedirects ?? 5;
  let current = url;
  for (let redirects = 0; ; redirects++) {
    const target = new URL(current);
    const port = Number(target.port);
    if (target.port !== '' && BAD_PORTS.has(port)) return { kind: 'bad-port', url: current, port };
    const check = await Promise.race([
      checkUrl(current, { allowPrivate: options.allowPrivate }),
      new Promise<null>((resolve) => signal.addEventListener('abort', () => resolve(null), { once: true })),
    ]);
    if (check === null) return { kind: 'inconclusive', url: current, detail: 'timeout' };
    if (!check.ok) {
      // A host that does not resolve proves nothing now (a site not live yet, a resolver hiccup).
      if (check.code === 'unresolved') return { kind: 'inconclusive', url: current, detail: 'unresolved' };
      return { kind: 'guard', url: current, reason: check.reason };
    }
    let response: http.IncomingMessage;
    try {
      response = await headersOf(current, check.addresses[0] ?? null, signal);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException)?.code;
      if (!signal.aborted && code === 'ECONNREFUSED') return { kind: 'refused', url: current };
      return { kind: 'inconclusive', url: current, detail: signal.aborted ? 'timeout' : (code ?? String(error)) };
    }
    response.destroy();
    const status = response.statusCode ?? 0;
    const location = response.headers.location;
    if (REDIRECTS.has(status) && location) {
      if (redirects >= maxRedirects) return { kind: 'inconclusive', url: current, detail: 'too many redirects' };
      try {
        current = new URL(location, current).href;
      } catch {
        return { kind: 'inconclusive', url: current, detail: 'unreadable Location' };
      }
      if (!/^https?:$/.test(new URL(current).protocol)) return { kind: 'inconclusive', url: current, detail: 'redirect off http(s)' };
      continue;
    }
    return { kind: 'answered', status, url: current };
  }
}

function headersOf(url: string, address: string | null, signal: AbortSignal): Promise<http.IncomingMessage> {
  const target = new URL(url);
  const client = target.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const request = client.request(target, {
      method: 'GET',
      agent: false,
      lookup: pinnedLookup(address),
      signal,
      headers: {
        'user-agent': 'Mozilla/5.0 (compatible; Showreel/1.0; +project URL check)',
        accept: 'text/html,application/xhtml+xml,*/*;q=0.8',
        'accept-encoding': 'identity',
      },
    });
    request.once('response', resolve);
    request.once('error', reject);
    request.end();
  });
}
