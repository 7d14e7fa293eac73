import type { GoToOptions, HTTPRequest, HTTPResponse, Page } from 'puppeteer-core';
import { EGRESS_FAILURE_HEADER, type EgressFailure } from '../../platform/network/egress-proxy.js';
import { assertPublicUrl, checkHost, classifyAddress, hostOf, type CheckUrlResult, type LookupAll } from '../../platform/network/ssrf-guard.js';

/**
 * The SSRF guard for everything a page loads: documents, redirects, frames, scripts, images, fetch/XHR.
 *
 * Every request is intercepted (cooperative interception, so the recorder may add handlers of its own); data:, blob:
 * and about: pass, other non-http(s) schemes are refused, and an http(s) request continues only when every address
 * its host resolves to is public. A host is resolved once per job (the cache lives as long as the guard), so a page
 * cannot flip its answer between two of its requests.
 *
 * This guard is the first line, not the boundary: it gives a refused request a clear, early failure and counts it
 * for the job's log. The boundary is the browser's egress proxy (platform/network/egress-proxy.ts), which sees every
 * connection Chromium makes — including what page-level interception never sees (speculation-rules prefetch and
 * prerender, WebRTC TURN over TCP, WebSockets, a service worker's own fetches) — and connects only to the address it
 * checked, so DNS rebinding between this guard's lookup and the connection changes nothing.
 * Tripwire, for a browser whose traffic does not go through that proxy: every response's remote address (where
 * Chromium really connected) is checked, and a private one is a violation that fails the job. Responses that came
 * through the egress proxy report the proxy's own address, which is not a violation: the proxy checked the real one.
 * With allowPrivate (development, tests) nothing is intercepted: interception costs every request a round trip.
 */
export interface RequestGuardStats {
  allowed: number;
  blocked: number;
  /** hosts that did not resolve (aborted as namenotresolved, as Chromium would) */
  unresolved: number;
  /** the first blocked URLs, for the job's log */
  blockedUrls: string[];
}

export interface RequestGuard {
  readonly enabled: boolean;
  readonly stats: RequestGuardStats;
  /** Responses that came from a refused address although their host resolved to public ones (rebinding). */
  readonly violations: Violation[];
  /** Throws SsrfViolationError when any violation was seen. */
  assertClean(): void;
  /** Stops counting (the page's interception ends with the page). */
  dispose(): void;
}

export interface GuardOptions {
  allowPrivate: boolean;
  /** Resolver for tests; defaults to dns.lookup (all addresses). */
  lookup?: LookupAll;
  /** Share one host cache between the pages of a job. */
  hostCache?: Map<string, Promise<CheckUrlResult>>;
  /** Exact `host:port` targets let through unchecked, as the egress proxy's `allowTargets` (tests). */
  allowTargets?: readonly string[];
  /** The egress proxy's port on 127.0.0.1: responses from there went through its checks. */
  egressProxyPort?: number;
}

/** A page reached a refused address despite the checks: the job must not publish what it recorded. */
export class SsrfViolationError extends Error {
  constructor(readonly violations: Violation[]) {
    // The URLs, not the addresses: the message becomes the demo's error, and where a name really led is internal.
    super(`The page reached a private address (for ${violations.slice(0, 3).map((v) => v.url).join(', ')}); Showreel only records public pages.`);
    this.name = 'SsrfViolationError';
  }
}

/** A response from a refused address: the address is for the server's log, the URL for the message. */
export interface Violation {
  url: string;
  address?: string;
}

/** A frame of the page (or the page itself) ended on a URL Showreel may not record: nothing recorded is published. */
export class FrameNotAllowedError extends SsrfViolationError {
  constructor(readonly frameUrl: string, reason: string, mainFrame: boolean) {
    super([{ url: frameUrl }]);
    this.name = 'FrameNotAllowedError';
    const where = mainFrame ? 'the page ended on' : 'a frame of the page shows';
    const why = reason.replace(/^url /, 'it ');
    this.message = `The recording was not published: ${where} ${frameUrl.slice(0, 200)}, which Showreel may not record: ${why}`;
  }
}

// Frames on these schemes hold nothing fetched from elsewhere by themselves (a refused navigation shows
// chrome-error://chromewebdata/).
const framePassThroughSchemes = new Set(['data:', 'blob:', 'about:', 'chrome-error:']);

/**
 * Checks the main frame's final URL, then every other frame's, as a project URL is checked: http(s) whose host is
 * public (unless allowPrivate), or a scheme that carries no fetched content. Called after recording and before
 * anything is published: the egress proxy stops connections, this stops a recording of a page that should never
 * have been the subject (however it got there).
 */
export async function assertFramesAllowed(page: Page, options: FrameCheckOptions): Promise<void> {
  const main = page.mainFrame();
  const frames = [main, ...page.frames().filter((frame) => frame !== main)];
  for (const frame of frames) {
    const href = frame.url();
    if (href === '') continue; // a frame that has not committed a document yet
    const url = URL.parse(href);
    const reason = await frameRefusal(url, options);
    if (reason !== null) throw new FrameNotAllowedError(href, reason, frame === main);
  }
}

type FrameCheckOptions = Pick<GuardOptions, 'allowPrivate' | 'lookup' | 'hostCache' | 'allowTargets'>;

async function frameRefusal(url: URL | null, options: FrameCheckOptions): Promise<string | null> {
  if (!url) return 'not a valid URL.';
  if (framePassThroughSchemes.has(url.protocol)) return null;
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return `the scheme ${url.protocol.replace(/:$/, '')} is not http or https.`;
  if (options.allowPrivate || isAllowedTarget(url, options.allowTargets)) return null;
  const host = hostOf(url);
  let verdict = options.hostCache?.get(host);
  if (!verdict) {
    verdict = checkHost(host, { lookup: options.lookup });
    options.hostCache?.set(host, verdict);
  }
  const result = await verdict;
  return result.ok ? null : result.reason;
}

// Our abort outranks any other handler's continue or respond; our continue defers to any other handler.
const BLOCK_PRIORITY = Number.MAX_SAFE_INTEGER;
const CONTINUE_PRIORITY = 0;
const passThroughSchemes = new Set(['data:', 'blob:', 'about:']);
const maxBlockedUrls = 20;

export async function guardPage(page: Page, options: GuardOptions): Promise<RequestGuard> {
  const stats: RequestGuardStats = { allowed: 0, blocked: 0, unresolved: 0, blockedUrls: [] };
  const violations: Violation[] = [];
  const guard: RequestGuard = {
    enabled: !options.allowPrivate,
    stats,
    violations,
    assertClean() {
      if (violations.length > 0) throw new SsrfViolationError(violations);
    },
    dispose() {
      // With private addresses allowed no listener was installed (and the handlers below do not exist yet).
      if (options.allowPrivate) return;
      page.off('request', onRequest);
      page.off('response', onResponse);
    },
  };
  if (options.allowPrivate) return guard;

  const hosts = options.hostCache ?? new Map<string, Promise<CheckUrlResult>>();
  const check = (host: string): Promise<CheckUrlResult> => {
    let result = hosts.get(host);
    if (!result) {
      result = checkHost(host, { lookup: options.lookup });
      hosts.set(host, result);
    }
    return result;
  };

  const block = async (request: HTTPRequest, code: 'blockedbyclient' | 'namenotresolved') => {
    if (code === 'namenotresolved') stats.unresolved++;
    else stats.blocked++;
    if (stats.blockedUrls.length < maxBlockedUrls) stats.blockedUrls.push(request.url().slice(0, 300));
    await request.abort(code, BLOCK_PRIORITY);
  };

  const decide = async (request: HTTPRequest): Promise<void> => {
    let url: URL;
    try {
      url = new URL(request.url());
    } catch {
      return block(request, 'blockedbyclient');
    }
    if (passThroughSchemes.has(url.protocol)) {
      await request.continue(request.continueRequestOverrides(), CONTINUE_PRIORITY);
      return;
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return block(request, 'blockedbyclient');
    if (isAllowedTarget(url, options.allowTargets)) {
      stats.allowed++;
      await request.continue(request.continueRequestOverrides(), CONTINUE_PRIORITY);
      return;
    }
    const verdict = await check(hostOf(url));
    if (!verdict.ok) return block(request, verdict.code === 'unresolved' ? 'namenotresolved' : 'blockedbyclient');
    stats.allowed++;
    await request.continue(request.continueRequestOverrides(), CONTINUE_PRIORITY);
  };

  // Page.on('request') runs each handler as an intercept action and awaits the promise it returns before the
  // request is resolved, so the DNS lookup can happen right here.
  const onRequest = async (request: HTTPRequest): Promise<void> => {
    if (request.isInterceptResolutionHandled()) return;
    try {
      await decide(request);
    } catch {
      // Fail closed; a request of a page that is closing may refuse even that, which is fine.
      await request.abort('blockedbyclient', BLOCK_PRIORITY).catch(() => undefined);
    }
  };

  const onResponse = (response: HTTPResponse) => {
    const { ip, port } = response.remoteAddress();
    if (!ip) return; // data:, memory cache, service worker
    if (port === options.egressProxyPort && ip === '127.0.0.1') return;
    if (classifyAddress(ip) !== null) violations.push({ address: ip, url: response.url().slice(0, 200) });
  };

  page.on('request', onRequest);
  page.on('response', onResponse);
  await page.setBypassServiceWorker(true);
  await page.setRequestInterception(true);
  return guard;
}

const egressFailureMessages: Record<EgressFailure, string> = {
  unreachable: 'The site could not be reached; it may be down.',
  slow: 'The site took too long to answer; it may be overloaded.',
  unresolved: "The URL's host does not resolve; check the URL.",
  refused: 'The URL points at a private address, which Showreel does not record.',
  invalid: 'The URL cannot be loaded through the recorder.',
};

/**
 * The browser's egress proxy answered a navigation instead of the site (Chromium shows a proxy's answer as the page):
 * the site is down (transient) or may not be reached (permanent), not a page to record.
 */
export class EgressFailureError extends Error {
  readonly transient: boolean;
  constructor(readonly failure: EgressFailure) {
    super(egressFailureMessages[failure] ?? egressFailureMessages.invalid);
    this.name = 'EgressFailureError';
    this.transient = failure === 'unreachable' || failure === 'slow';
  }
}

/**
 * Navigates after checking the URL itself (scheme, and unless allowPrivate its host's addresses), so a refused page
 * fails with a sentence a person can act on (a ValidationError) instead of net::ERR_BLOCKED_BY_CLIENT; an answer of
 * the egress proxy instead of the site is an EgressFailureError.
 */
export async function gotoChecked(
  page: Page,
  url: string,
  options: { allowPrivate: boolean; lookup?: LookupAll; allowTargets?: readonly string[] } & GoToOptions,
): Promise<HTTPResponse | null> {
  const { allowPrivate, lookup, allowTargets, ...gotoOptions } = options;
  if (!isAllowedTarget(URL.parse(url), allowTargets)) await assertPublicUrl(url, { allowPrivate, lookup });
  const response = await page.goto(url, gotoOptions);
  const failure = response?.headers()[EGRESS_FAILURE_HEADER];
  if (failure) throw new EgressFailureError(failure as EgressFailure);
  return response;
}

/** Whether the URL's `host:port` (default port filled in) is one of the targets let through unchecked. */
function isAllowedTarget(url: URL | null, allowTargets: readonly string[] | undefined): boolean {
  if (!url || !allowTargets?.length || (url.protocol !== 'http:' && url.protocol !== 'https:')) return false;
  const port = url.port || (url.protocol === 'https:' ? '443' : '80');
  return allowTargets.includes(`${url.hostname.toLowerCase()}:${port}`);
}
