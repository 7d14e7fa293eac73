import type { Page } from 'puppeteer-core';

/**
 * Runs a self-contained function in the page with one JSON argument and returns its (JSON) result.
 *
 * Not `page.evaluate(fn, arg)`: the TypeScript loader (tsx/esbuild with keepNames) rewrites nested functions into
 * `__name(fn, "fn")` calls, a helper that exists in Node but not in the page. The function's source is sent as an
 * expression with a local no-op `__name`, so it runs the same whether the sources were transpiled or not.
 * The function must not close over anything from Node: everything it needs comes through `arg`.
 */
export async function evaluateInPage<A, R>(page: Page, fn: (arg: A) => R | Promise<R>, arg: A): Promise<R> {
  const expression = `(() => { const __name = (target) => target; return (${fn.toString()})(${JSON.stringify(arg ?? null)}); })()`;
  return (await page.evaluate(expression)) as R;
}

/**
 * As evaluateInPage, for an in-page function made of parts kept in files of their own: each part is sent as its own
 * source and handed to `fn` as its second argument (not imported by name: the loader may rename an import, and the
 * page has no modules). Every part follows evaluateInPage's rule: only the DOM and its arguments.
 */
export async function evaluateComposedInPage<A, P extends Record<string, (...args: never[]) => unknown>, R>(
  page: Page,
  fn: (arg: A, parts: P) => R | Promise<R>,
  parts: P,
  arg: A,
): Promise<R> {
  const sources = Object.entries(parts).map(([name, part]) => `${JSON.stringify(name)}: (${part.toString()})`);
  const expression = `(() => { const __name = (target) => target; return (${fn.toString()})(${JSON.stringify(arg ?? null)}, { ${sources.join(', ')} }); })()`;
  return (await page.evaluate(expression)) as R;
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));
}

/** True for the errors puppeteer raises when the page navigated while a script was running in it. */
export function isNavigationError(error: unknown): boolean {
  const message = error instanceof Error ? error.message : String(error);
  return /context was destroyed|Cannot find context|navigat|Target closed|detached Frame/i.test(message);
}

/**
 * Runs an in-page step; when the page navigates under it (a consent button that posts a form, a script redirect),
 * waits for the new document to load and runs the step once more.
 */
export async function retryAfterNavigation<R>(page: Page, step: () => Promise<R>, loadTimeoutMs = 5000): Promise<R> {
  try {
    return await step();
  } catch (error) {
    if (!isNavigationError(error) || page.isClosed()) throw error;
    await page.waitForFunction('document.readyState === "complete"', { timeout: loadTimeoutMs, polling: 100 }).catch(() => undefined);
    return step();
  }
}
