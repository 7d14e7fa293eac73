import { ValidationError } from '../platform/errors.js';
import type { Logger } from '../platform/logger.js';
import { probeUrl } from '../platform/network/probe-url.js';

/**
 * A project URL is tried when it is saved, so a page that is not there is said at once on the form rather than
 * five seconds into a recording (docs/decisions.md, "A project URL is tried when it is saved"). Only clear
 * failures are refused: nothing listening (connection refused), a port browsers will not open, a redirect the
 * recorder would refuse, and a page answering 404 or 410. Anything that may be momentary or may differ for the
 * recorder's browser (no DNS answer, a timeout, a TLS error, 401/403/429/5xx) is accepted, as before.
 */
export const URL_CHECK_TIMEOUT_MS = 5_000;

const MISSING: Record<number, string> = { 404: '404 Not Found', 410: '410 Gone' };

export interface UrlCheckOptions {
  allowPrivate: boolean;
  /** The project signs in to its app: a page missing to an anonymous visitor may be there once signed in. */
  signsIn: boolean;
  log: Logger;
}

export async function assertProjectUrlAnswers(url: string, options: UrlCheckOptions): Promise<void> {
  const outcome = await probeUrl(url, { allowPrivate: options.allowPrivate, timeoutMs: URL_CHECK_TIMEOUT_MS });
  const via = outcome.url === url ? '' : ` (it redirects to ${outcome.url})`;
  switch (outcome.kind) {
    case 'refused':
      throw new ValidationError(
        `Nothing answers at ${new URL(outcome.url).host}${via}: the connection was refused. Check the address and its port, or start the site first.`,
      );
    case 'bad-port':
      throw new ValidationError(`Browsers refuse to open port ${outcome.port}${via}, so the page cannot be recorded: use the site’s usual http(s) port.`);
    case 'guard':
      throw new ValidationError(`${url} redirects to ${outcome.url}, which cannot be recorded: ${outcome.reason}`);
    case 'answered': {
      const missing = MISSING[outcome.status];
      if (missing && !options.signsIn) throw new ValidationError(`The page ${url}${via} answered ${missing}: check the address.`);
      return;
    }
    case 'inconclusive':
      options.log.info({ url, detail: outcome.detail }, 'project URL check inconclusive; accepted');
      return;
  }
}
