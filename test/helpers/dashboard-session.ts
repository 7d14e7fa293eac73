import assert from 'node:assert/strict';
import type { TestApp, TestUser } from './app.js';

/**
 * A browser without script, signed in to the dashboard through its sign-in form: the session cookie, the CSRF token
 * its forms carry, and the requests it makes (redirects not followed, so a test sees each 303). The dashboard tests
 * each repeated this setup; browser tests sign in through the page itself (browser-sign-in.ts).
 */
export interface DashboardSession {
  /** the dashboard's origin (PUBLIC_URL's), which its forms are posted from */
  origin: string;
  cookie: string;
  csrf: string;
  /** posts a form from the dashboard's origin; `withCookie` '' posts signed out, `from` from another origin */
  post(path: string, fields: Record<string, string> | string[][], withCookie?: string, from?: string): Promise<Response>;
  get(path: string, withCookie?: string): Promise<Response>;
  /** a page's HTML, once it answered 200 */
  text(path: string, withCookie?: string): Promise<string>;
}

export async function signInToDashboard(app: TestApp, user: Pick<TestUser, 'email' | 'password'>): Promise<DashboardSession> {
  // The device flow's verification address is on PUBLIC_URL: the origin a post must come from.
  const origin = new URL((await app.api('/api/v1/device/code', { body: { client_name: 'probe', scope: 'write' } })).body.verification_uri).origin;
  const post = (path: string, fields: Record<string, string> | string[][], withCookie = session.cookie, from = origin) =>
    fetch(`${app.url}${path}`, {
      method: 'POST', redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: from, cookie: withCookie },
      body: new URLSearchParams(fields).toString(),
    });
  const get = (path: string, withCookie = session.cookie) => fetch(`${app.url}${path}`, { redirect: 'manual', headers: { cookie: withCookie } });
  const session: DashboardSession = {
    origin, cookie: '', csrf: '', post, get,
    async text(path, withCookie) {
      const response = await get(path, withCookie);
      assert.equal(response.status, 200, path);
      return response.text();
    },
  };
  const signedIn = await post('/app/sign-in', { email: user.email, password: user.password }, '');
  session.cookie = (signedIn.headers.get('set-cookie') ?? '').split(';')[0]!;
  assert.ok(session.cookie, `signed in (${signedIn.status})`);
  session.csrf = /name="csrf" value="([^"]+)"/.exec(await session.text('/app/'))![1]!;
  return session;
}
