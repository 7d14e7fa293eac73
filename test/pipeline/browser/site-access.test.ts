import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'puppeteer-core';
import { createBrowserPool, type BrowserPool, type PageContext } from '../../../src/pipeline/browser/pool.js';
import { assertSignedIn, enterSite } from '../../../src/pipeline/browser/site-access.js';
import { PermanentJobError } from '../../../src/pipeline/job-errors.js';
import type { SiteAccess } from '../../../src/projects/index.js';
import { SITE_USER, startSignInSite, type SignInSite } from '../../helpers/sign-in-site.js';

/**
 * Issue 56, in a real Chromium against a real app behind a sign-in: the recorder gets in with the project's cookies
 * or by playing its sign-in recipe, and a way in that does not work fails with a sentence that says so (never
 * holding the password).
 */
describe('getting past an app’s sign-in before recording', () => {
  const password = 'hunter2-but-longer';
  let pool: BrowserPool;
  let site: SignInSite;
  let strictSite: SignInSite;

  before(async () => {
    pool = createBrowserPool({ size: 1 });
    [site, strictSite] = await Promise.all([startSignInSite({ password }), startSignInSite({ password, wrongAnswer: 401 })]);
  });
  after(async () => {
    await pool.close();
    await Promise.all([site.close(), strictSite.close()]);
  });

  const desktop = { viewport: 'desktop' as const, resolution: '720p' as const, allowPrivate: true };
  const openWith = (ctx: PageContext) => async (url: string) => void (await ctx.goto(url, { waitUntil: 'load' }));

  /** Enters the app as the access says, loads its page, and tells what the recorder would record. */
  const reachApp = (app: SignInSite, access: SiteAccess | null) =>
    pool.withPage(desktop, async (page: Page, ctx) => {
      await enterSite(page, access, app.appUrl, openWith(ctx));
      await ctx.goto(app.appUrl, { waitUntil: 'load' });
      await assertSignedIn(page, access, app.appUrl);
      return { title: await page.title(), url: page.url() };
    });

  const recipe = (app: SignInSite, path: string, pass: string, selectors: Partial<SiteAccess & { kind: 'sign_in' }> = {}): SiteAccess => ({
    kind: 'sign_in', url: `${app.origin}${path}`, username: SITE_USER, password: pass, ...selectors,
  });

  it('without a way in, the app sends the recorder to its sign-in page', async () => {
    const reached = await reachApp(site, null);
    assert.equal(reached.title, 'Sign in — Ledgerly');
  });

  it('signs in with a recipe whose fields it finds on the page, and records the app', async () => {
    const before = site.posts.length;
    const reached = await reachApp(site, recipe(site, '/login', password));
    assert.equal(reached.title, 'Invoices — Ledgerly');
    assert.equal(reached.url, site.appUrl);
    // The form was filled as a person would: the email in the email field, nothing in the help search.
    assert.deepEqual(site.posts.slice(before), [{ email: SITE_USER, password }]);
  });

  it('follows a two-step sign-in (the email, then the password)', async () => {
    const reached = await reachApp(site, recipe(site, '/login/two-step', password));
    assert.equal(reached.title, 'Invoices — Ledgerly');
  });

  it('uses the selectors it is given where the page names nothing', async () => {
    const reached = await reachApp(site, recipe(site, '/login/odd', password, { usernameSelector: '#f1', passwordSelector: '#f2', submitSelector: '#go' }));
    assert.equal(reached.title, 'Invoices — Ledgerly');
  });

  it('fails with a clear reason, never the password, when the password is wrong', async () => {
    const wrong = 'not-the-password-42';
    for (const [app, reason] of [[site, /still asks for a password/], [strictSite, /answered HTTP 401/]] as const) {
      const failure = await reachApp(app, recipe(app, '/login', wrong)).then(() => null, (error: unknown) => error);
      assert.ok(failure instanceof PermanentJobError, `a permanent failure, not ${String(failure)}`);
      assert.match(failure.message, /^The sign-in did not work/);
      assert.match(failure.message, reason);
      assert.ok(!failure.message.includes(wrong) && !failure.message.includes(SITE_USER));
    }
  });

  it('fails when the sign-in page has no field the selectors name', async () => {
    const failure = await reachApp(site, recipe(site, '/login/odd', password, { passwordSelector: '#nothing-here', usernameSelector: '#nor-here' })).then(() => null, (error: unknown) => error);
    assert.ok(failure instanceof PermanentJobError);
    assert.match(failure.message, /no field matching/);
  });

  it('gets in with exported cookies, and says so when they no longer sign in', async () => {
    const session = site.issueSession();
    // As Cookie-Editor exports them: a host-only cookie of the app's host.
    const reached = await reachApp(site, { kind: 'cookies', cookies: [{ name: 'sid', value: session, domain: '127.0.0.1', path: '/', httpOnly: true }] });
    assert.equal(reached.title, 'Invoices — Ledgerly');
    // Without a domain it belongs to the project's host.
    assert.equal((await reachApp(site, { kind: 'cookies', cookies: [{ name: 'sid', value: session }] })).title, 'Invoices — Ledgerly');

    const stale = await reachApp(site, { kind: 'cookies', cookies: [{ name: 'sid', value: 'expired-session' }] }).then(() => null, (error: unknown) => error);
    assert.ok(stale instanceof PermanentJobError);
    assert.match(stale.message, /cookies did not sign in/);
    assert.ok(!stale.message.includes('expired-session'));
  });
});
