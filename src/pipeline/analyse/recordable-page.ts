import type { Page } from 'puppeteer-core';
import { PermanentJobError } from '../job-errors.js';

const PAGE_TYPES = new Set(['text/html', 'application/xhtml+xml']);

/**
 * Refuses, before anything is planned or charged for good, what a browser shows that is no web page to demo: a
 * file (an image, a PDF, JSON: the browser's viewer, not the customer's site), including one the page moved itself
 * to, and a page with nothing on it. Such a demo would otherwise be "ready" with a video of a viewer or of white.
 * An element that draws (image, canvas, video, frame, form control) counts as something, text or not.
 */
export async function assertRecordablePage(page: Page): Promise<void> {
  const seen = await page.evaluate(() => ({
    type: document.contentType,
    url: location.href,
    empty:
      !document.body ||
      (document.body.innerText.trim() === '' && !document.body.querySelector('img, svg, canvas, video, iframe, object, embed, input, button, select, textarea')),
  }));
  if (!PAGE_TYPES.has(seen.type)) {
    throw new PermanentJobError(`The page at ${seen.url} is a file (${seen.type}), not a web page; point the project at a page of the site.`);
  }
  if (seen.empty) throw new PermanentJobError(`The page at ${seen.url} is empty: there is nothing on it to record.`);
}
