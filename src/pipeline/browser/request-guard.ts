import type { GoToOptions, HTTPRequest, HTTPResponse, Page } from 'puppeteer-core';
import { assertPublicUrl, checkHost, classifyAddress, hostOf, type CheckUrlResult, type LookupAll } from '../../platform/network/ssrf-guard.js';

/**
 * The SSRF guard for everything a page loads: documents, redirects, frames, scripts, images, fetch/XHR.
 *
 * Every request is intercepted (cooperative interception, so the recorder may add handlers of its own); data:, blob:
 * and about: pass, other non-http(s) schemes are refused, and an http(s) request continues only when every address
 * its host resolves to is public. A host is resolved once per job (the cache lives as long as the guard), so a page
 * cannot flip its answer between two of its requests.
 *
 * Residual risks, accepted and documented here rather than solved with an egress proxy:
 * - DNS rebinding between our lookup and Chromium's own: Chromium resolves the host again when it connects, and a
 *   hostile resolver with a short TTL can answer a private address the second time. Tripwire: every response's
 *   remote address (where Chromium really connected) is checked; a private one is recorded as a violation, and the
 *   pool fails the job, so nothing read from a private service ends up in a published video.
 * - Traffic that page-level interception does not see: WebSockets (ws:, wss:), and the fetches a service worker makes
 *   on its own (page requests bypass service workers here, so they are intercepted), and popups (the pool closes
 *   them as they open). A deployment that must be airtight runs workers where private ranges are not routable.
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
  readonly violations: string[];
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
}

/** A page reached a refused address despite the checks: the job must not publish what it recorded. */
export class SsrfViolationError extends Error {
  constructor(readonly violations: string[]) {
    super(`The page reached a private address (${violations.slice(0, 3).join(', ')}); Showreel only records public pages.`);
    this.name = 'SsrfViolationError';
  }
}

// Our abort outranks any other handler's continue or respond; our continue defers to any other handler.
const BLOCK_PRIORITY = Number.MAX_SAFE_INTEGER;
const CONTINUE_PRIORITY = 0;
const passThroughSchemes = new Set(['data:', 'blob:', 'about:']);
const maxBlockedUrls = 20;

export async function guardPage(page: Page, options: GuardOptions): Promise<RequestGuard> {
  const stats: RequestGuardStats = { allowed: 0, blocked: 0, unresolved: 0, blockedUrls: [] };
  const violations: string[] = [];
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
    const ip = response.remoteAddress().ip;
    if (!ip) return; // data:, memory cache, service worker
    if (classifyAddress(ip) !== null) violations.push(`${ip} for ${response.url().slice(0, 200)}`);
  };

  page.on('request', onRequest);
  page.on('response', onResponse);
  await page.setBypassServiceWorker(true);
  await page.setRequestInterception(true);
  return guard;
}

/**
 * Navigates after checking the URL itself (scheme, and unless allowPrivate its host's addresses), so a refused page
 * fails with a sentence a person can act on (a ValidationError) instead of net::ERR_BLOCKED_BY_CLIENT.
 */
export async function gotoChecked(
  page: Page,
  url: string,
  options: { allowPrivate: boolean; lookup?: LookupAll } & GoToOptions,
): Promise<HTTPResponse | null> {
  const { allowPrivate, lookup, ...gotoOptions } = options;
  await assertPublicUrl(url, { allowPrivate, lookup });
  return page.goto(url, gotoOptions);
}
