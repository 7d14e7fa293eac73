import type { CookieData, HTTPResponse, Page } from 'puppeteer-core';
import type { SignInRecipe, SiteAccess, SiteCookie } from '../../projects/index.js';
import { evaluateInPage, isNavigationError, sleep } from '../analyse/in-page.js';
import { PermanentJobError } from '../job-errors.js';
import { asksForPassword, markSignInFields } from './sign-in-form.js';

/**
 * Issue 56: before the recorder loads a project's page, it gets past the app's sign-in the way the project says:
 * its cookies are set, or its sign-in recipe is played (the sign-in page opened, the user name and password typed,
 * the form submitted, and the result checked). None of it is recorded: the recording starts on the project's page,
 * loaded afterwards. A sign-in that does not work fails the job with a sentence that says so (a PermanentJobError,
 * so the credit is refunded); no message, log line or error here ever holds the password or a cookie's value.
 */

/** Opens a URL the way the job opens the project's (SSRF-checked; its failures become job errors naming `urlName`). */
export type OpenPage = (url: string, urlName: string) => Promise<void>;

/** How long the sign-in page may take to show its form, and the app to answer the submitted one. */
const FORM_WAIT_MS = 10_000;
const SETTLE_MS = 15_000;
const POLL_MS = 250;

export async function enterSite(page: Page, access: SiteAccess | null, pageUrl: string, open: OpenPage): Promise<void> {
  if (!access) return;
  if (access.kind === 'cookies') await setCookies(page, access.cookies, pageUrl);
  else await signIn(page, access, open);
}

/**
 * After the project's page loaded: an app that still sent the recorder to a sign-in page (the page it asked for
 * redirected to one that asks for a password) was not entered, and a video of its sign-in page is not what the
 * project wants.
 */
export async function assertSignedIn(page: Page, access: SiteAccess | null, pageUrl: string): Promise<void> {
  if (!access) return;
  const landed = page.url().split('#')[0];
  if (landed === pageUrl.split('#')[0]) return;
  if (!(await evaluateInPage(page, asksForPassword, null).catch(() => false))) return;
  throw new PermanentJobError(
    access.kind === 'cookies'
      ? 'The project’s cookies did not sign in: the project URL led to a sign-in page. They may have expired; export them again from a signed-in browser.'
      : 'The sign-in seemed to work, but the project URL still led to a sign-in page. Check the project’s sign-in URL and that this user can open the page.',
  );
}

/** The cookies, for the page's origin: one exported without a domain belongs to the project's host. */
async function setCookies(page: Page, cookies: SiteCookie[], pageUrl: string): Promise<void> {
  const { hostname, protocol } = new URL(pageUrl);
  const data: CookieData[] = cookies.map((c) => ({
    name: c.name,
    value: c.value,
    domain: c.domain ?? hostname,
    path: c.path ?? '/',
    ...(c.expires !== undefined ? { expires: c.expires } : {}),
    ...(c.httpOnly !== undefined ? { httpOnly: c.httpOnly } : {}),
    // A cookie marked Secure is never sent to an http:// page; a staging site on http gets it anyway.
    secure: (c.secure ?? false) && protocol === 'https:',
    ...(c.sameSite ? { sameSite: c.sameSite } : {}),
  }));
  try {
    await page.browserContext().setCookie(...data);
  } catch (error) {
    // The browser's own message names the cookie's fields, not its value.
    throw new PermanentJobError(`The project’s cookies could not be set (${error instanceof Error ? error.message.slice(0, 160) : 'refused'}).`);
  }
}

async function signIn(page: Page, recipe: SignInRecipe, open: OpenPage): Promise<void> {
  await open(recipe.url, 'sign-in URL');
  const selectors = {
    ...(recipe.usernameSelector ? { username: recipe.usernameSelector } : {}),
    ...(recipe.passwordSelector ? { password: recipe.passwordSelector } : {}),
    ...(recipe.submitSelector ? { submit: recipe.submitSelector } : {}),
  };
  let fields = await waitForFields(page, selectors, (found) => found.password || found.username);
  if (!fields.password && !fields.username) {
    throw new PermanentJobError(
      selectors.password || selectors.username
        ? 'The sign-in page has no field matching the project’s user name or password selector.'
        : 'The sign-in page shows no user name or password field; give their selectors in the project’s sign-in settings.',
    );
  }
  let usernameTyped = false;
  if (!fields.password) {
    // A two-step sign-in: the user name on one page, the password on the next.
    await typeInto(page, 'username', recipe.username);
    usernameTyped = true;
    await submitAndSettle(page, fields.submit ? 'submit' : 'username');
    fields = await waitForFields(page, selectors, (found) => found.password);
    if (!fields.password) throw new PermanentJobError('After the user name, the sign-in page asked for no password. Check the project’s sign-in user name.');
  }
  if (fields.username && !usernameTyped && fields.usernameFilled !== recipe.username) await typeInto(page, 'username', recipe.username);
  await typeInto(page, 'password', recipe.password);
  const response = await submitAndSettle(page, fields.submit ? 'submit' : 'password');
  const status = response?.status() ?? 0;
  if (status >= 400) {
    throw new PermanentJobError(`The sign-in did not work: the site answered HTTP ${status} to it. Check the project’s sign-in user name and password.`);
  }
  if (await evaluateInPage(page, asksForPassword, null).catch(() => false)) {
    throw new PermanentJobError('The sign-in did not work: after submitting, the page still asks for a password. Check the project’s sign-in user name and password.');
  }
}

type Found = ReturnType<typeof markSignInFields>;

/** The form's fields, once the page shows them (a sign-in page drawn by a script shows them late). */
async function waitForFields(page: Page, selectors: Parameters<typeof markSignInFields>[0], ready: (found: Found) => boolean): Promise<Found> {
  const deadline = Date.now() + FORM_WAIT_MS;
  for (;;) {
    const found = await evaluateInPage(page, markSignInFields, selectors).catch((error: unknown) => {
      if (isNavigationError(error)) return null; // the page moved on under us (a redirect): look again
      throw error;
    });
    if (found?.badSelector) throw new PermanentJobError(`The sign-in selector “${found.badSelector.slice(0, 100)}” is not a valid CSS selector.`);
    if (found && ready(found)) return found;
    if (Date.now() > deadline) return found ?? { username: false, password: false, submit: false, usernameFilled: null, badSelector: null };
    await sleep(POLL_MS);
  }
}

/** Types into a marked field, replacing what it held; quickly, since nobody watches this part. */
async function typeInto(page: Page, field: 'username' | 'password', text: string): Promise<void> {
  const handle = await page.$(`[data-showreel-sign-in="${field}"]`);
  if (!handle) throw new PermanentJobError(`The sign-in page lost its ${field === 'username' ? 'user name' : 'password'} field while it was being filled in.`);
  try {
    await handle.evaluate((el) => {
      (el as HTMLInputElement).focus();
      (el as HTMLInputElement).select?.();
    });
    await page.keyboard.type(text);
  } finally {
    await handle.dispose();
  }
}

/**
 * Submits (clicks the marked submit control, else presses Enter in the marked field) and waits until the app has
 * answered: a navigation that loaded, or a page that no longer asks for a password (an app that signs in without
 * leaving the page). Returns the navigation's response, if there was one.
 */
async function submitAndSettle(page: Page, via: 'submit' | 'username' | 'password'): Promise<HTTPResponse | null> {
  let navigation: HTTPResponse | null | undefined;
  const navigated = page.waitForNavigation({ waitUntil: 'load', timeout: SETTLE_MS }).then(
    (response) => (navigation = response),
    () => (navigation = null),
  );
  const handle = await page.$(`[data-showreel-sign-in="${via}"]`);
  try {
    if (via === 'submit') await handle?.evaluate((el) => (el as HTMLElement).click());
    else {
      await handle?.focus();
      await page.keyboard.press('Enter');
    }
  } catch (error) {
    // The click navigated at once: the page we clicked in is gone, which is what a submit does.
    if (!isNavigationError(error)) throw error;
  } finally {
    await handle?.dispose().catch(() => undefined);
  }
  const deadline = Date.now() + SETTLE_MS;
  while (navigation === undefined && Date.now() < deadline) {
    const settled = await evaluateInPage(page, () => document.readyState === 'complete' && !document.querySelector('input[type=password]:not([type=hidden])'), null).catch(() => false);
    // Without a navigation under way, a page that stopped asking for a password signed in in place.
    if (settled && navigation === undefined) {
      await Promise.race([navigated, sleep(500)]);
      break;
    }
    await Promise.race([navigated, sleep(POLL_MS)]);
  }
  // Whatever the app does next (a redirect by script, the session's first requests) gets a moment.
  await page.waitForNetworkIdle({ idleTime: 300, timeout: 3000 }).catch(() => undefined);
  return navigation ?? null;
}
