import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp, type TestUser } from '../helpers/app.js';
import { normaliseCookies } from '../../src/projects/site-access.js';

/**
 * Issue 56: a project holds how the recorder reaches its app behind a sign-in: cookies or a sign-in recipe. The
 * owner sets, replaces and clears it through the API, and sees only a summary: never the password or a cookie's
 * value, in no answer and in no stored event.
 */
describe('a project’s way into its app, over REST', () => {
  let app: TestApp;
  let alice: TestUser;
  const password = 'pa55-Wörd-never-shown';
  const cookieValue = 'session-value-never-shown';

  before(async () => {
    app = await startTestApp();
    alice = await app.createUser();
  });
  after(() => app.stop());

  const create = (body: unknown) => app.api('/api/v1/projects', { key: alice.key, body });
  const patch = (id: string, body: unknown) => app.api(`/api/v1/projects/${id}`, { key: alice.key, method: 'PATCH', body });
  const storedEvents = async (id: string) => app.sql<Array<{ type: string; data: unknown }>>`select type, data from events where stream_id = ${`project-${id}`} order by stream_version`;

  it('starts with no access and forms never submitted', async () => {
    const created = await create({ name: 'Plain', url: 'https://plain.example' });
    assert.equal(created.status, 201);
    assert.deepEqual(created.body.access, { kind: 'none' });
    assert.deepEqual(created.body.recording, { allow_submit: false });
  });

  it('keeps a sign-in recipe write-only: a summary in answers, the password nowhere in clear', async () => {
    const created = await create({ name: 'App', url: 'https://app.example/dashboard' });
    const id = created.body.id;
    const set = await patch(id, {
      access: { sign_in: { url: 'https://app.example/login', username: 'demo@app.example', password, password_selector: '#pw' } },
      recording: { allow_submit: true },
    });
    assert.equal(set.status, 200, set.text);
    assert.deepEqual(set.body.access, { kind: 'sign_in', sign_in_url: 'https://app.example/login', username: 'demo@app.example' });
    assert.deepEqual(set.body.recording, { allow_submit: true });

    const detail = await app.api(`/api/v1/projects/${id}`, { key: alice.key });
    const listed = await app.api('/api/v1/projects', { key: alice.key });
    assert.equal(detail.body.access.kind, 'sign_in');
    for (const answer of [set, detail, listed]) assert.ok(!answer.text.includes(password), 'the password is in no answer');

    const events = await storedEvents(id);
    assert.deepEqual(events.map((e) => e.type), ['ProjectCreated', 'ProjectUpdated', 'ProjectSiteAccessSet']);
    assert.ok(!JSON.stringify(events).includes(password), 'no stored event holds the password in clear');
    assert.ok(!JSON.stringify(events).includes('#pw'), 'nor the selectors: the whole recipe is sealed');
    const [row] = await app.sql<Array<{ site_access_enc: string }>>`select site_access_enc from projects where id = ${id}`;
    assert.match(row!.site_access_enc, /^v1\./);
    assert.ok(!row!.site_access_enc.includes(password));

    // A recipe sent again without a password keeps the stored one; one for a project without a password is refused.
    const renamed = await patch(id, { access: { sign_in: { url: 'https://app.example/login', username: 'other@app.example' } } });
    assert.equal(renamed.status, 200, renamed.text);
    assert.equal(renamed.body.access.username, 'other@app.example');
    const fresh = await create({ name: 'Fresh', url: 'https://fresh.example' });
    const refused = await patch(fresh.body.id, { access: { sign_in: { url: 'https://fresh.example/login', username: 'u' } } });
    assert.equal(refused.status, 400);
    assert.match(refused.body.error, /password/);

    // Cleared with null: the sealed recipe is gone from the read model too.
    const cleared = await patch(id, { access: null });
    assert.equal(cleared.status, 200, cleared.text);
    assert.deepEqual(cleared.body.access, { kind: 'none' });
    assert.equal(cleared.body.recording.allow_submit, true, 'clearing the access leaves the rest as it was');
    const [after] = await app.sql<Array<{ site_access_enc: string | null }>>`select site_access_enc from projects where id = ${id}`;
    assert.equal(after!.site_access_enc, null);
    assert.equal((await storedEvents(id)).at(-1)!.type, 'ProjectSiteAccessCleared');
  });

  it('takes cookies as browsers export them, at creation, and shows only how many', async () => {
    const created = await create({
      name: 'Cookies',
      url: 'https://cookies.example',
      access: {
        cookies: [
          { name: 'session', value: cookieValue, domain: 'cookies.example', path: '/', expirationDate: 4102444800, hostOnly: true, sameSite: 'no_restriction', secure: true, httpOnly: true, storeId: '0' },
          { name: 'theme', value: 'dark', domain: '.cookies.example', expires: -1, sameSite: 'Lax' },
        ],
      },
    });
    assert.equal(created.status, 201, created.text);
    assert.deepEqual(created.body.access, { kind: 'cookies', cookie_count: 2 });
    assert.ok(!created.text.includes(cookieValue));
    assert.ok(!JSON.stringify(await storedEvents(created.body.id)).includes(cookieValue), 'no stored event holds a cookie value');

    // Playwright's storage state is taken too; a list whose every cookie has expired is refused with a reason.
    const state = await patch(created.body.id, { access: { cookies: { cookies: [{ name: 'a', value: 'b', domain: 'cookies.example', expires: 4102444800 }], origins: [] } } });
    assert.equal(state.status, 200, state.text);
    assert.equal(state.body.access.cookie_count, 1);
    const expired = await patch(created.body.id, { access: { cookies: [{ name: 'a', value: 'b', expires: 1000 }] } });
    assert.equal(expired.status, 400);
    assert.match(expired.body.error, /expired/);
    const neither = await patch(created.body.id, { access: { cookies: [], sign_in: null } });
    assert.equal(neither.status, 400);
  });

  it('refuses a sign-in URL that carries credentials in it', async () => {
    const created = await create({ name: 'Userinfo', url: 'https://u.example' });
    const refused = await patch(created.body.id, { access: { sign_in: { url: 'https://me:secret@u.example/login', username: 'me', password: 'secret' } } });
    assert.equal(refused.status, 400);
    assert.ok(!refused.text.includes('secret@'), 'the refusal does not echo the URL');
  });

  it('shows access and recording in the OpenAPI document', async () => {
    const document = (await app.api('/api/v1/openapi.json')).body;
    const text = JSON.stringify(document.paths['/api/v1/projects/{id}'].patch);
    for (const name of ['access', 'sign_in', 'cookies', 'password_selector', 'allow_submit', 'cookie_count']) assert.ok(text.includes(`"${name}"`), `PATCH shows ${name}`);
  });
});

describe('normaliseCookies', () => {
  it('maps the common export shapes to what the browser takes', () => {
    const [extension, devtools, playwright] = normaliseCookies([
      { name: 'a', value: '1', domain: '.x.example', path: '/', expirationDate: 4102444800.5, sameSite: 'no_restriction', secure: true },
      { name: 'b', value: '2', expires: -1, sameSite: 'unspecified', httpOnly: true },
      { name: 'c', value: '3', expires: 4102444800, sameSite: 'Strict' },
    ]);
    assert.deepEqual(extension, { name: 'a', value: '1', domain: '.x.example', path: '/', expires: 4102444800.5, secure: true, sameSite: 'None' });
    assert.deepEqual(devtools, { name: 'b', value: '2', httpOnly: true });
    assert.deepEqual(playwright, { name: 'c', value: '3', expires: 4102444800, sameSite: 'Strict' });
  });
});
