import http from 'node:http';
import https from 'node:https';
import { checkUrl, type LookupAll } from './ssrf-guard.js';
import { pinnedLookup } from './pinned-lookup.js';

/**
 * GET a URL a user named, from our own machines, without becoming an SSRF proxy:
 * - every hop (the URL and each redirect) goes through checkUrl, and the socket connects to the address that check
 *   approved: the host is not resolved a second time, so DNS rebinding cannot swap in a private address between
 *   the check and the connect;
 * - at most `maxRedirects` redirects, one overall `timeoutMs` for all hops and the body;
 * - the body is counted while it streams and the transfer stops at `maxBytes` (a lying or absent Content-Length
 *   changes nothing).
 * With allowPrivate (SHOWREEL_ALLOW_PRIVATE_URLS) only the scheme is checked and the OS resolves as usual.
 */
export interface FetchPublicOptions {
  allowPrivate: boolean;
  maxBytes: number;
  timeoutMs: number;
  maxRedirects: number;
  /** Resolver for tests; defaults to the OS resolver (as checkUrl). */
  lookup?: LookupAll;
}

export interface FetchedBody {
  bytes: Buffer;
  /** The URL the bytes came from, after redirects. */
  url: string;
  contentType: string | null;
}

export type FetchFailure = 'refused' | 'unresolved' | 'invalid' | 'status' | 'too-large' | 'redirects' | 'timeout' | 'network';

/** Why a fetch failed; `message` is a clause a caller can put after "could not be fetched: ". */
export class PublicFetchError extends Error {
  constructor(
    readonly failure: FetchFailure,
    message: string,
  ) {
    super(message);
    this.name = 'PublicFetchError';
  }
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

export async function fetchPublicUrl(url: string, options: FetchPublicOptions): Promise<FetchedBody> {
  const signal = AbortSignal.timeout(options.timeoutMs);
  const timedOut = () => new PublicFetchError('timeout', `no complete answer within ${options.timeoutMs / 1000} s`);
  let current = url;
  for (let redirects = 0; ; redirects++) {
    const check = await Promise.race([
      checkUrl(current, { allowPrivate: options.allowPrivate, lookup: options.lookup }),
      new Promise<never>((_, reject) => signal.addEventListener('abort', () => reject(timedOut()), { once: true })),
    ]);
    if (!check.ok) throw new PublicFetchError(check.code === 'scheme' ? 'invalid' : check.code, check.reason);

    let response: http.IncomingMessage;
    try {
      response = await requestPinned(current, check.addresses[0] ?? null, signal);
    } catch (error) {
      throw signal.aborted ? timedOut() : new PublicFetchError('network', `the connection failed (${describe(error)})`);
    }
    const status = response.statusCode ?? 0;
    if (REDIRECTS.has(status)) {
      response.resume();
      const location = response.headers.location;
      if (!location) throw new PublicFetchError('status', `the server answered ${status} without a Location`);
      if (redirects >= options.maxRedirects) throw new PublicFetchError('redirects', `more than ${options.maxRedirects} redirects`);
      current = new URL(location, current).href;
      continue;
    }
    if (status !== 200) {
      response.resume();
      throw new PublicFetchError('status', `the server answered ${status}`);
    }
    const declared = Number(response.headers['content-length']);
    if (Number.isFinite(declared) && declared > options.maxBytes) {
      response.destroy();
      throw new PublicFetchError('too-large', `the file is ${formatMegabytes(declared)}, over the ${formatMegabytes(options.maxBytes)} limit`);
    }
    try {
      const bytes = await readCapped(response, options.maxBytes);
      return { bytes, url: current, contentType: response.headers['content-type'] ?? null };
    } catch (error) {
      if (error instanceof PublicFetchError) throw error;
      throw signal.aborted ? timedOut() : new PublicFetchError('network', `the transfer broke off (${describe(error)})`);
    }
  }
}

/**
 * One GET, connecting to `address` when given (the one checkUrl approved) rather than resolving the host again;
 * TLS still verifies the certificate against the URL's host name.
 */
export function requestPinned(url: string, address: string | null, signal: AbortSignal): Promise<http.IncomingMessage> {
  const target = new URL(url);
  const lookup = pinnedLookup(address);
  const client = target.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const request = client.request(target, {
      method: 'GET',
      agent: false,
      lookup,
      signal,
      headers: { 'user-agent': 'Showreel/1.0 (+background image fetch)', accept: 'image/png, image/jpeg, image/webp', 'accept-encoding': 'identity' },
    });
    request.once('response', resolve);
    request.once('error', reject);
    request.end();
  });
}

async function readCapped(response: http.IncomingMessage, maxBytes: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let received = 0;
  for await (const chunk of response) {
    received += (chunk as Buffer).length;
    if (received > maxBytes) {
      response.destroy();
      throw new PublicFetchError('too-large', `the file is larger than the ${formatMegabytes(maxBytes)} limit`);
    }
    chunks.push(chunk as Buffer);
  }
  if (!response.complete) throw new PublicFetchError('network', 'the transfer broke off before the end');
  return Buffer.concat(chunks);
}

function describe(error: unknown): string {
  return (error as NodeJS.ErrnoException)?.code ?? (error instanceof Error ? error.message : String(error));
}

function formatMegabytes(bytes: number): string {
  return `${Math.round((bytes / (1024 * 1024)) * 10) / 10} MB`;
}
