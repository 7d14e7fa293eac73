import type { Page } from 'puppeteer-core';

/**
 * Tells every page a job opens, before any of its own scripts run, that Showreel's recorder is looking at it
 * (issue 57): `window.__showreelRecording` is true (read-only), so a script can stand down — Showreel's own
 * sdk.js does: a page carrying an embed must not start a demo of itself, nor show the embed's "still being
 * recorded" box inside its own video. The flag is general, not only for sdk.js: any script on a customer's page may
 * read it (a chat widget or a survey that should stay out of the video).
 *
 * Belt and braces for an embed the flag cannot reach (an old copy of sdk.js, a placeholder a page fills itself):
 * every `[data-showreel]` placeholder is hidden. It collapses (`display: none`) rather than leaving an empty 16:9
 * hole, so the recording shows the page as it reads without the embed. The rule sits in an adopted style sheet,
 * which exists from the document's first moment (no <head> needed) and which the page's own CSS cannot outrank
 * without `!important` on an inline style; it is adopted again at DOMContentLoaded and load in case the page
 * replaced the document's adopted sheets.
 */
export const RECORDING_FLAG = '__showreelRecording';
export const HIDDEN_IN_RECORDINGS = '[data-showreel]';

// A string, not a function: a function would be serialised as compiled (tsx adds helpers the page does not have).
const MARK_SCRIPT = `(() => {
  try {
    Object.defineProperty(window, ${JSON.stringify(RECORDING_FLAG)}, { value: true, writable: false, configurable: false, enumerable: false });
  } catch (e) { /* already defined: a reload of the same document */ }
  try {
    const sheet = new CSSStyleSheet();
    sheet.replaceSync(${JSON.stringify(`${HIDDEN_IN_RECORDINGS}{display:none!important}`)});
    const adopt = () => {
      if (!document.adoptedStyleSheets.includes(sheet)) document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
    };
    adopt();
    document.addEventListener('DOMContentLoaded', adopt);
    window.addEventListener('load', adopt);
  } catch (e) { /* a document without style sheets (an image, a PDF viewer): nothing to hide */ }
})();`;

export async function markRecorderPage(page: Page): Promise<void> {
  await page.evaluateOnNewDocument(MARK_SCRIPT);
}
