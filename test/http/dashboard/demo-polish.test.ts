import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp, type TestUser } from '../../helpers/app.js';
import { finishJob } from '../../helpers/pipeline.js';

/**
 * Issue 35's dashboard polish, over HTTP as a browser without script uses it: demo cards that can be told apart, a
 * title its owner can change, and the smaller items of finding 7.
 */
describe('the dashboard, told apart and polished (issue 35)', () => {
  let app: TestApp;
  let ada: TestUser;
  let bob: TestUser;
  let origin: string;
  let cookie: string;
  let csrf: string;

  before(async () => {
    app = await startTestApp();
    [ada, bob] = await Promise.all([app.createUser({ email: 'ada@example.com', credits: 10 }), app.createUser({ email: 'bob@example.com', credits: 5 })]);
    origin = new URL((await app.api('/api/v1/device/code', { body: { client_name: 'probe', scope: 'write' } })).body.verification_uri).origin;
    cookie = await signIn(ada);
    csrf = csrfOf(await (await get('/app/')).text());
  });
  after(() => app.stop());

  async function signIn(user: TestUser) {
    const signedIn = await post('/app/sign-in', { email: user.email, password: user.password }, '');
    return (signedIn.headers.get('set-cookie') ?? '').split(';')[0]!;
  }
  const csrfOf = (page: string) => /name="csrf" value="([^"]+)"/.exec(page)![1]!;
  function post(path: string, fields: Record<string, string>, withCookie = cookie) {
    return fetch(`${app.url}${path}`, {
      method: 'POST', redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin, cookie: withCookie },
      body: new URLSearchParams(fields).toString(),
    });
  }
  const get = (path: string, withCookie = cookie) => fetch(`${app.url}${path}`, { redirect: 'manual', headers: { cookie: withCookie } });
  const text = async (path: string, withCookie = cookie) => {
    const response = await get(path, withCookie);
    assert.equal(response.status, 200, path);
    return response.text();
  };
  async function readyDemo(prompt: string) {
    const project = (await app.api('/api/v1/projects', { key: ada.key, body: { name: 'Flowboard', url: 'https://flow.example/' } })).body;
    const demo = (await app.api('/api/v1/demos', { key: ada.key, body: { project_id: project.id, prompt, duration_target: '10s' } })).body;
    await finishJob(app.sql, demo.id, demo.jobId);
    return { demo, project };
  }

  it('shows each demo card with its prompt, its length and its date, escaped and shortened', async () => {
    const long = `Show the <b>pricing</b> plans ${'and every feature of every tier '.repeat(6)}`;
    const { demo } = await readyDemo(long);
    const home = await text('/app/');
    const card = home.slice(home.indexOf(`href="/app/demos/${demo.id}"`), home.indexOf('</li>', home.indexOf(`href="/app/demos/${demo.id}"`)));
    assert.match(card, /<span class="tile-title">A demo<\/span>/);
    assert.match(card, /data-prompt>Show the &lt;b&gt;pricing&lt;\/b&gt; plans and every [^<]*…<\/span>/, 'the prompt, escaped and shortened');
    assert.doesNotMatch(card, /<b>pricing/);
    assert.match(card, /<span data-length>0:10<\/span>/);
    assert.match(card, new RegExp(`<time datetime="[^"]+">${new Date().toISOString().slice(0, 10)}</time>`));
  });

  it('renames a demo from its page and through PATCH /demos/{id}; a blank title is refused; another account cannot', async () => {
    const { demo } = await readyDemo('Show the pricing plans');
    const renamed = await post(`/app/demos/${demo.id}/rename`, { csrf, title: 'Pricing <for> teams' });
    assert.equal(renamed.status, 303);
    const page = await text(renamed.headers.get('location')!);
    assert.match(page, /Title saved\./);
    assert.match(page, /<h1>Pricing &lt;for&gt; teams<\/h1>/);
    assert.match(page, /<input id="demo-title" name="title" required maxlength="120" value="Pricing &lt;for&gt; teams">/);
    const blank = await post(`/app/demos/${demo.id}/rename`, { csrf, title: '   ' });
    assert.equal(blank.status, 400);
    assert.match(await blank.text(), /The title cannot be blank\./, 'the page says it in words, not "at least 1 character"');
    assert.equal((await post(`/app/demos/${demo.id}/rename`, { title: 'No token' })).status, 403);

    const patched = await app.api(`/api/v1/demos/${demo.id}`, { key: ada.key, method: 'PATCH', body: { title: '  Pricing, annual  ' } });
    assert.equal(patched.status, 200);
    assert.equal(patched.body.title, 'Pricing, annual');
    const tooLong = await app.api(`/api/v1/demos/${demo.id}`, { key: ada.key, method: 'PATCH', body: { title: 'x'.repeat(121) } });
    assert.equal(tooLong.status, 400);
    assert.ok(typeof tooLong.body.error === 'string');
    const bobs = await app.api(`/api/v1/demos/${demo.id}`, { key: bob.key, method: 'PATCH', body: { title: 'Mine now' } });
    assert.equal(bobs.status, 404);
    assert.equal((await app.api(`/api/v1/demos/${demo.id}`, { key: ada.key })).body.title, 'Pricing, annual');
  });

  it('shows a new key on the page the form redirects to, once: a reload neither shows it again nor makes a second key', async () => {
    const before = (await app.api('/api/v1/api-keys', { key: ada.key })).body.keys.length;
    const created = await post('/app/keys', { csrf, name: 'Deploy <bot>', type: 'live', project_id: '', allowed_domains: '' });
    assert.equal(created.status, 303);
    assert.equal(created.headers.get('location'), '/app/keys?created=1', 'no secret in the address');
    const shown = await get('/app/keys?created=1');
    assert.equal(shown.status, 200);
    assert.equal(shown.headers.get('cache-control'), 'no-store');
    const page = await shown.text();
    const key = /id="new-key" readonly value="([^"]+)"/.exec(page)![1]!;
    assert.ok(page.includes('Deploy &lt;bot&gt;'));
    assert.equal((await app.api('/api/v1/usage', { key })).status, 200, 'the key works');
    const reloaded = await text('/app/keys?created=1');
    assert.ok(!reloaded.includes(key), 'shown once');
    assert.doesNotMatch(reloaded, /id="new-key"/);
    assert.match(reloaded, /The new key was shown once and is not shown again/);
    assert.equal((await app.api('/api/v1/api-keys', { key: ada.key })).body.keys.length, before + 1, 'one key, not two');
    // Another session of the same account does not see it either: the key waits for the session that made it.
    const again = await post('/app/keys', { csrf, name: 'Second', type: 'live', project_id: '', allowed_domains: '' });
    assert.equal(again.status, 303);
    const otherSession = await signIn(ada);
    assert.doesNotMatch(await text('/app/keys?created=1', otherSession), /id="new-key"/);
    assert.match(await text('/app/keys?created=1'), /id="new-key"/);
  });

  it('links the demos in the credit history to their pages, only the owner’s, by their titles', async () => {
    const { demo } = await readyDemo('Show the <i>team</i> page');
    await app.api(`/api/v1/demos/${demo.id}`, { key: ada.key, method: 'PATCH', body: { title: 'Team <page>' } });
    const gone = (await readyDemo('Soon deleted')).demo;
    assert.equal((await app.api(`/api/v1/demos/${gone.id}`, { key: ada.key, method: 'DELETE' })).status, 200);
    const credits = await text('/app/credits');
    assert.ok(credits.includes(`<a href="/app/demos/${demo.id}" title="${demo.id}">Team &lt;page&gt;</a>`), 'a link named by the title');
    assert.ok(credits.includes(gone.id) && !credits.includes(`href="/app/demos/${gone.id}"`), 'a deleted demo stays plain text');
    const bobCookie = await signIn(bob);
    const bobsCredits = await text('/app/credits', bobCookie);
    assert.ok(!bobsCredits.includes(demo.id));
  });

  it('names the tour styles, explains Planning, and shows the cost and the balance on the new-demo form', async () => {
    const form = await text('/app/demos/new');
    assert.match(form, /<option value="proof-scroll">Social proof: testimonials and customer logos<\/option>/);
    assert.match(form, /<option value="auto" selected>Automatic: chosen from your prompt and the page<\/option>/);
    assert.doesNotMatch(form, />proof-scroll</, 'no raw slugs');
    assert.match(form, /id="d-mode-hint">Scripted: the whole tour is planned from the page before recording starts[^<]*Agent: the page is looked at again after each step/);
    assert.match(form, /<option value="30s">30 s · 3 credits<\/option>/);
    const balance = (await app.api('/api/v1/credits', { key: ada.key })).body.balance as number;
    assert.match(form, new RegExp(`This demo costs 1 credit \\(1 credit for each 10 s started\\)\\. Your balance: <strong data-balance>${balance} credits?</strong>`));
  });

  it('links the share page back to the product, escaped and nofollow', async () => {
    const project = (await app.api('/api/v1/projects', { key: ada.key, body: { name: 'Flow <board>', url: 'https://flow.example/pricing?a=1&b=2' } })).body;
    const demo = (await app.api('/api/v1/demos', { key: ada.key, body: { project_id: project.id, prompt: 'Tour' } })).body;
    await finishJob(app.sql, demo.id, demo.jobId);
    const share = await (await fetch(`${app.url}/share/${demo.id}`)).text();
    assert.match(share, /<a href="https:\/\/flow\.example\/pricing\?a=1&amp;b=2" rel="noopener nofollow" data-product>Visit Flow &lt;board&gt; →<\/a> <span class="muted">flow\.example<\/span>/);
    const embed = await (await fetch(`${app.url}/embed/${demo.id}`)).text();
    assert.doesNotMatch(embed, /data-product/, 'the embed, on the product’s own page, does not link to it');
  });
});
