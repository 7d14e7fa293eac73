import type { HTTPRequest, Page } from 'puppeteer-core';
import type { RecordingLogEntry } from '../types.js';

/**
 * Issue 56: recording a customer's site changes nothing on it. While a demo is made, no request but a read leaves the
 * page: a form's POST, a fetch that saves, an analytics beacon (sendBeacon is a POST) are refused at the request
 * layer, and a form's submit event is cancelled in the page, so the browser never shows its error page for a refused
 * navigation. A GET form (a search box) may submit: it changes nothing. A project opts in (`recording.allow_submit`)
 * for a staging site, and then everything goes through.
 *
 * Cooperative interception, beside the SSRF guard (browser/request-guard.ts): a refusal here outranks any handler's
 * continue; a request let through defers to the others.
 */
export interface SubmitGuard {
  /** the requests refused so far (method and URL, the first few), for the recording log */
  readonly refused: Array<{ method: string; url: string }>;
  /** how many were refused in all */
  readonly refusedCount: number;
  dispose(): Promise<void>;
}

const BLOCK_PRIORITY = Number.MAX_SAFE_INTEGER;
const CONTINUE_PRIORITY = 0;
const READS = new Set(['GET', 'HEAD', 'OPTIONS']);
const KEPT = 10;

export async function guardSubmits(page: Page, options: { allowSubmit: boolean }): Promise<SubmitGuard> {
  const refused: Array<{ method: string; url: string }> = [];
  let refusedCount = 0;
  if (options.allowSubmit) return { refused, get refusedCount() { return 0; }, dispose: async () => undefined };

  const onRequest = async (request: HTTPRequest): Promise<void> => {
    if (request.isInterceptResolutionHandled()) return;
    const method = request.method().toUpperCase();
    if (READS.has(method)) {
      await request.continue(request.continueRequestOverrides(), CONTINUE_PRIORITY).catch(() => undefined);
      return;
    }
    refusedCount++;
    if (refused.length < KEPT) refused.push({ method, url: request.url().slice(0, 200) });
    await request.abort('blockedbyclient', BLOCK_PRIORITY).catch(() => undefined);
  };
  page.on('request', onRequest);
  await page.setRequestInterception(true);
  // In the page: a form that is not a GET form does not submit (on this page and every page it leads to).
  const script = await page.evaluateOnNewDocument(cancelWritingSubmits);
  await page.evaluate(cancelWritingSubmits).catch(() => undefined);
  return {
    refused,
    get refusedCount() {
      return refusedCount;
    },
    async dispose() {
      page.off('request', onRequest);
      // Interception with no handler left would hold every request: off, unless another guard still decides them.
      if (page.listenerCount('request') === 0) await page.setRequestInterception(false).catch(() => undefined);
      await page.removeScriptToEvaluateOnNewDocument(script.identifier).catch(() => undefined);
    },
  };
}

function cancelWritingSubmits(): void {
  const flag = '__showreelSubmitGuard';
  const w = window as unknown as Record<string, unknown>;
  if (w[flag]) return;
  w[flag] = true;
  window.addEventListener(
    'submit',
    (event) => {
      const form = event.target;
      const method = form instanceof HTMLFormElement ? (form.getAttribute('method') ?? 'get').toLowerCase() : 'post';
      if (method !== 'get' && method !== 'dialog') event.preventDefault();
    },
    true,
  );
  // form.submit() skips the submit event: refuse it the same way.
  const submit = HTMLFormElement.prototype.submit;
  HTMLFormElement.prototype.submit = function guardedSubmit(this: HTMLFormElement) {
    const method = (this.getAttribute('method') ?? 'get').toLowerCase();
    if (method === 'get') submit.call(this);
  };
}

/** Issue 56: what the recording kept from reaching the site (submits, requests that change things), in its log. */
export function submitEntries(guard: SubmitGuard, recording: { log: RecordingLogEntry[]; durationMs: number }): RecordingLogEntry[] {
  if (guard.refusedCount === 0) return [];
  const first = guard.refused.map((request) => `${request.method} ${request.url}`).join(', ');
  return [{
    index: recording.log.length,
    action: 'submit-guard',
    startMs: 0,
    endMs: Math.round(recording.durationMs),
    ok: true,
    target: `Kept ${guard.refusedCount} request(s) that would change the site from leaving the page (the project does not allow submitting): ${first}`,
  }];
}
