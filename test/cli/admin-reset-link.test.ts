import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { issueResetLink } from '../../src/auth/reset-links.js';
import { startTestApp, type TestApp, type TestUser } from '../helpers/app.js';

const bin = path.resolve(import.meta.dirname, '../../bin/showreel.mjs');

/**
 * A forgotten password, without mail (issue 35): the operator runs `showreel admin reset-link`, hands the printed
 * link over, and the user sets a new password with it once. Run as an operator would, a child process against the
 * server's database; the link then used in the dashboard as a browser without script would.
 */
describe('showreel admin reset-link', () => {
  let app: TestApp;
  let grace: TestUser;
  let origin: string;

  before(async () => {
    app = await startTestApp();
    grace = await app.createUser({ email: 'grace@example.com', password: 'forgotten horse battery' });
    origin = new URL((await app.api('/api/v1/device/code', { body: { client_name: 'probe', scope: 'write' } })).body.verification_uri).origin;
  });
  after(() => app.stop());

  const showreel = (args: string[]) =>
    new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
      const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^(SHOWREEL_|DATABASE_URL|PORT|LOG_LEVEL|PUBLIC_URL)/.test(name)));
      const child = spawn(process.execPath, [bin, 'admin', 'reset-link', ...args], {
        env: { ...env, DATABASE_URL: app.databaseUrl, SHOWREEL_DATA_DIR: app.dataDir, PUBLIC_URL: 'https://showreel.example', LOG_LEVEL: 'warn' },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stdout = '';
      let stderr = '';
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
      child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
      child.once('close', (code) => resolve({ code, stdout, stderr }));
    });
  const page = (pathname: string, cookie = '') => fetch(`${app.url}${pathname}`, { redirect: 'manual', headers: { cookie } });
  const post = (pathname: string, fields: Record<string, string>) =>
    fetch(`${app.url}${pathname}`, {
      method: 'POST', redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin },
      body: new URLSearchParams(fields).toString(),
    });
  const signIn = (password: string) => post('/app/sign-in', { email: grace.email, password, next: '/app/' });

  it('prints a one-time link that sets a new password, signs the user out everywhere, and works only once', async () => {
    const session = ((await signIn('forgotten horse battery')).headers.get('set-cookie') ?? '').split(';')[0]!;
    assert.equal((await page('/app/', session)).status, 200, 'signed in before');

    const issued = await showreel(['--email', 'Grace@Example.com']);
    assert.equal(issued.code, 0, issued.stderr);
    const printed = JSON.parse(issued.stdout) as { user_id: string; email: string; reset_url: string; expires_at: string };
    assert.equal(printed.user_id, grace.userId);
    assert.match(printed.reset_url, /^https:\/\/showreel\.example\/app\/reset-password\/[\w-]{16}\.[\w-]{43}$/);
    const minutes = (Date.parse(printed.expires_at) - Date.now()) / 60_000;
    assert.ok(minutes > 55 && minutes <= 60, `expires in an hour, not ${minutes} min`);
    const link = new URL(printed.reset_url).pathname;
    const secret = link.split('.').pop()!;
    const [stored] = await app.sql<{ secret_hash: string }[]>`select secret_hash from password_reset_links where user_id = ${grace.userId}`;
    assert.ok(stored && !stored.secret_hash.includes(secret), 'only a hash of the secret is stored');

    const form = await page(link);
    assert.equal(form.status, 200);
    assert.equal(form.headers.get('referrer-policy'), 'no-referrer');
    assert.match(await form.text(), /Choose a new password/);
    const differ = await post(link, { password: 'a brand new passphrase', confirm: 'another passphrase' });
    assert.equal(differ.status, 400);
    assert.match(await differ.text(), /The two passwords differ/);
    assert.equal((await post(link, { password: 'short', confirm: 'short' })).status, 400);

    const set = await post(link, { password: 'a brand new passphrase', confirm: 'a brand new passphrase' });
    assert.equal(set.status, 303);
    assert.equal(set.headers.get('location'), '/app/sign-in?reset=1');
    assert.match(await (await page('/app/sign-in?reset=1')).text(), /Your password was changed and you were signed out everywhere/);
    assert.equal((await page('/app/', session)).status, 303, 'the old session was revoked');
    assert.equal((await signIn('forgotten horse battery')).status, 401, 'the old password no longer works');
    assert.equal((await signIn('a brand new passphrase')).status, 303, 'the new one does');

    const again = await post(link, { password: 'a third passphrase!', confirm: 'a third passphrase!' });
    assert.equal(again.status, 404, 'used once');
    assert.match(await again.text(), /It was used already, has expired or is incomplete/);
    assert.equal((await page(link)).status, 404);
    assert.equal((await signIn('a brand new passphrase')).status, 303, 'the second use changed nothing');
  });

  it('refuses an expired link, a tampered one, and one replaced by a newer link', async () => {
    const expired = await issueResetLink(app.sql, grace.userId, 60);
    await app.sql`update password_reset_links set expires_at = now() - interval '1 second' where user_id = ${grace.userId} and used_at is null`;
    assert.equal((await page(`/app/reset-password/${expired.token}`)).status, 404, 'expired');

    const first = await issueResetLink(app.sql, grace.userId, 60);
    const tampered = `${first.token.slice(0, -1)}${first.token.endsWith('A') ? 'B' : 'A'}`;
    assert.equal((await page(`/app/reset-password/${tampered}`)).status, 404, 'a wrong secret with the right id');
    assert.equal((await post(`/app/reset-password/${tampered}`, { password: 'tampered passphrase', confirm: 'tampered passphrase' })).status, 404);
    assert.equal((await page(`/app/reset-password/${first.token}`)).status, 200);
    const second = await issueResetLink(app.sql, grace.userId, 60);
    assert.equal((await page(`/app/reset-password/${first.token}`)).status, 404, 'replaced by the newer link');
    assert.equal((await page(`/app/reset-password/${second.token}`)).status, 200);
    assert.equal((await page('/app/reset-password/nonsense')).status, 404);
  });

  it('says so when there is no such user, and prints no link', async () => {
    const result = await showreel(['--email', 'nobody@example.com']);
    assert.notEqual(result.code, 0);
    assert.equal(result.stdout.includes('reset-password'), false);
    assert.match(result.stderr, /nobody@example\.com/);
  });
});
