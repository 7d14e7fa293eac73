import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createSecretBox, parseMasterKey } from '../../../src/platform/secrets.js';
import { openSiteAccess } from '../../../src/projects/index.js';
import { startTestApp, type TestApp, type TestUser } from '../../helpers/app.js';
import { type DashboardSession, signInToDashboard } from '../../helpers/dashboard-session.js';

/**
 * Issue 56 in the dashboard: a project's settings say how the recorder signs in to the app, and whether recordings
 * may submit forms. The password is write-only ("set"), cookies are never shown again, and the forms carry CSRF.
 */
describe('the project page’s sign-in settings', () => {
  let app: TestApp;
  let ada: TestUser;
  let session: DashboardSession;
  let csrf: string;
  let projectId: string;
  const password = 'dashboard-Secret-77';

  before(async () => {
    app = await startTestApp();
    ada = await app.createUser();
    session = await signInToDashboard(app, ada);
    ({ csrf } = session);
    projectId = (await app.api('/api/v1/projects', { key: ada.key, body: { name: 'Ledgerly', url: 'https://app.ledgerly.example/invoices' } })).body.id;
  });
  after(() => app.stop());

  const post: DashboardSession['post'] = (...args) => session.post(...args);
  const projectPage = async () => (await session.get(`/app/projects/${projectId}`)).text();
  const stored = async () => {
    const [row] = await app.sql<Array<{ site_access_enc: string | null }>>`select site_access_enc from projects where id = ${projectId}`;
    return openSiteAccess(createSecretBox(parseMasterKey(app.masterKey)), row!.site_access_enc);
  };
  const signIn = { kind: 'sign_in', sign_in_url: 'https://app.ledgerly.example/login', username: 'dana@example.com' };

  it('starts with none, and refuses a form without its CSRF field', async () => {
    assert.match(await projectPage(), /data-access="none"/);
    const forged = await post(`/app/projects/${projectId}/access`, { ...signIn, password });
    assert.equal(forged.status, 403);
    assert.equal(await stored(), null);
  });

  it('saves a sign-in whose password it then shows only as set, and keeps it when left empty', async () => {
    const saved = await post(`/app/projects/${projectId}/access`, { csrf, ...signIn, password, password_selector: '#pw' });
    assert.equal(saved.status, 303, await saved.text());
    const page = await projectPage();
    assert.match(page, /Signs in at <code>https:\/\/app\.ledgerly\.example\/login<\/code> as <strong>dana@example\.com<\/strong> \(password set\)/);
    assert.match(page, /<input id="a-password" name="password" type="password" maxlength="1024" autocomplete="new-password" placeholder="set \(leave empty to keep it\)">/);
    assert.ok(!page.includes(password), 'the password is never written into the page');

    // A new user name, the password field left empty: the stored password stays.
    assert.equal((await post(`/app/projects/${projectId}/access`, { csrf, ...signIn, username: 'sam@example.com', password: '' })).status, 303);
    const kept = await stored();
    assert.equal(kept?.kind, 'sign_in');
    assert.equal(kept?.kind === 'sign_in' && kept.password, password);
    assert.equal(kept?.kind === 'sign_in' && kept.username, 'sam@example.com');
    assert.match(await projectPage(), /as <strong>sam@example\.com<\/strong>/);
  });

  it('takes pasted cookies, says why a paste is refused without echoing it, and removes the sign-in', async () => {
    const refused = await post(`/app/projects/${projectId}/access`, { csrf, kind: 'cookies', cookies: '[{"name": "sid", "value": "half-pasted-value"' });
    assert.equal(refused.status, 400);
    const refusal = await refused.text();
    assert.match(refusal, /The cookies are not JSON/);
    assert.ok(!refusal.includes('half-pasted-value'));

    const cookies = JSON.stringify([{ name: 'sid', value: 'cookie-value-never-shown', domain: 'app.ledgerly.example', expirationDate: 4102444800 }]);
    assert.equal((await post(`/app/projects/${projectId}/access`, { csrf, kind: 'cookies', cookies })).status, 303);
    const page = await projectPage();
    assert.match(page, /Uses 1 cookie before each recording/);
    assert.ok(!page.includes('cookie-value-never-shown'));

    assert.equal((await post(`/app/projects/${projectId}/access`, { csrf, kind: 'none' })).status, 303);
    assert.match(await projectPage(), /data-access="none"/);
    assert.equal(await stored(), null);
  });

  it('lets the owner allow recordings to submit forms, and take it back', async () => {
    const settings = { csrf, name: 'Ledgerly', url: 'https://app.ledgerly.example/invoices', viewport: 'desktop', refresh_schedule: 'manual' };
    assert.equal((await post(`/app/projects/${projectId}`, { ...settings, allow_submit: 'on' })).status, 303);
    assert.deepEqual((await app.api(`/api/v1/projects/${projectId}`, { key: ada.key })).body.recording, { allow_submit: true });
    assert.match(await projectPage(), /<input type="checkbox" name="allow_submit" checked>/);
    assert.equal((await post(`/app/projects/${projectId}`, settings)).status, 303);
    assert.deepEqual((await app.api(`/api/v1/projects/${projectId}`, { key: ada.key })).body.recording, { allow_submit: false });
  });
});
