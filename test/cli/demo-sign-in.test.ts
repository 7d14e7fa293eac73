import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { after, before, describe, it } from 'node:test';
import { startSignInSite, SITE_USER, type SignInSite } from '../helpers/sign-in-site.js';

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, '..', '..');
type Outcome = { code: number; stdout: string; stderr: string };

/** Issue 56: `showreel demo` of an app behind a sign-in, with exported cookies or a sign-in whose password is in the environment. */
describe('showreel demo behind a sign-in', () => {
  const password = 'cli-secret-Pa55';
  let site: SignInSite;
  let work: string;

  before(async () => {
    site = await startSignInSite({ password });
    work = await fs.mkdtemp(path.join(os.tmpdir(), 'showreel-cli-sign-in-'));
  });
  after(async () => {
    await site.close();
    await fs.rm(work, { recursive: true, force: true });
  });

  const demo = (args: string[], extraEnv: Record<string, string> = {}): Promise<Outcome> => {
    const env: NodeJS.ProcessEnv = { ...process.env, SHOWREEL_ALLOW_PRIVATE_URLS: '1', LOG_LEVEL: 'warn', SHOWREEL_DATA_DIR: work, ...extraEnv };
    delete env.DATABASE_URL;
    delete env.TEST_DATABASE_URL;
    return run(process.execPath, [path.join(root, 'bin', 'showreel.mjs'), 'demo', site.appUrl, 'Show the invoices', ...args], { env, timeout: 180_000 }).then(
      ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
      (error: Outcome) => ({ code: error.code, stdout: error.stdout, stderr: error.stderr }),
    );
  };

  it('records the app with cookies exported from a signed-in browser', async () => {
    const cookies = path.join(work, 'cookies.json');
    const session = site.issueSession();
    // Cookie-Editor's export: expirationDate, hostOnly, storeId…
    await fs.writeFile(cookies, JSON.stringify([{ name: 'sid', value: session, domain: '127.0.0.1', path: '/', expirationDate: 4102444800, hostOnly: true, httpOnly: true, secure: false, session: false, sameSite: 'lax', storeId: '0' }]));
    const out = path.join(work, 'app.mp4');
    const outcome = await demo(['--cookies', cookies, '--out', out, '--resolution', '720p', '--duration', '5s']);
    assert.equal(outcome.code, 0, outcome.stderr);
    assert.match(outcome.stderr, /signing in with 1 cookie/);
    const summary = JSON.parse(outcome.stdout.trim());
    assert.deepEqual(summary.warnings, [], 'the invoices the prompt asks for were on the recorded page (the app, not its sign-in)');
    assert.ok(!outcome.stderr.includes(session) && !outcome.stdout.includes(session));
  });

  it('says why a sign-in failed, and never prints the password', async () => {
    const outcome = await demo(['--sign-in', `${site.origin}/login`, '--user', SITE_USER, '--password-env', 'APP_PASSWORD'], { APP_PASSWORD: 'wrong-one-99' });
    assert.equal(outcome.code, 1);
    assert.match(outcome.stderr, /The sign-in did not work: after submitting, the page still asks for a password/);
    assert.ok(!outcome.stderr.includes('wrong-one-99') && !outcome.stdout.includes('wrong-one-99'));
    assert.deepEqual(site.posts.at(-1), { email: SITE_USER, password: 'wrong-one-99' }, 'the password came from the environment');
  });

  it('refuses a sign-in without the password’s variable, or with cookies too', async () => {
    const missing = await demo(['--sign-in', `${site.origin}/login`, '--user', SITE_USER, '--password-env', 'NOT_SET_ANYWHERE']);
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /NOT_SET_ANYWHERE \(--password-env\) is not set/);
    const both = await demo(['--cookies', 'c.json', '--sign-in', `${site.origin}/login`]);
    assert.equal(both.code, 2);
    assert.match(both.stderr, /either --cookies or --sign-in/);
  });
});
