import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp, type TestUser } from '../helpers/app.js';
import { failJob, finishJob, queuedJobs } from '../helpers/pipeline.js';
import { clearOfMinuteTurn } from '../helpers/minute-window.js';

/** POST /api/v1/embed/generate, tried from outside as a page (publishable key) and a server (live key) would. */
describe('dynamic embeds: POST /embed/generate', () => {
  let app: TestApp;
  let user: TestUser;
  let projectId: string;
  let pubKey: string;
  let openKey: string;

  before(async () => {
    app = await startTestApp();
    user = await app.createUser({ credits: 40 });
    // A request without context.url records the project URL, which must be on the key's domains (issue 34).
    projectId = (await app.api('/api/v1/projects', { key: user.key, body: { name: 'Acme', url: 'https://acme.example' } })).body.id;
    pubKey = (await app.api('/api/v1/api-keys', { key: user.key, body: { type: 'publishable', allowed_domains: ['acme.example', '*.acme-docs.example'] } })).body.key;
    openKey = (await app.api('/api/v1/api-keys', { key: user.key, body: { type: 'publishable' } })).body.key;
  });
  after(() => app.stop());

  const generate = (body: unknown, options: { key?: string; origin?: string | null; referer?: string; bearer?: string } = {}) => {
    const headers: Record<string, string> = {};
    const origin = options.origin === undefined ? 'https://acme.example' : options.origin;
    if (origin !== null) headers.origin = origin;
    if (options.referer) headers.referer = options.referer;
    return app.api('/api/v1/embed/generate', {
      method: 'POST',
      ...(options.bearer ? { key: options.bearer } : { headerKey: options.key ?? pubKey }),
      headers,
      body,
    });
  };
  const balance = async () => (await app.api('/api/v1/credits', { key: user.key })).body.balance as number;
  const demoCount = async () => (await app.sql<{ n: number }[]>`select count(*)::int as n from demos where project_id = ${projectId}`)[0]!.n;

  it('starts a generation (202, cached: false) and charges it like POST /demos', async () => {
    const before = await balance();
    const answer = await generate({ project_id: projectId, prompt: 'Show the pricing', context: { url: 'https://acme.example/pricing', title: 'Pricing' } });
    assert.equal(answer.status, 202, answer.text);
    assert.deepEqual(Object.keys(answer.body).sort(), ['cached', 'demoId', 'embedUrl', 'status']);
    assert.equal(answer.body.cached, false);
    assert.equal(answer.body.status, 'pending');
    assert.equal(answer.body.embedUrl, `${app.url.replace('127.0.0.1', 'localhost')}/embed/${answer.body.demoId}`);
    assert.equal(answer.headers.get('access-control-allow-origin'), 'https://acme.example');
    assert.equal(await balance(), before - 1);
    const jobs = await queuedJobs(app.sql, 'demo_generate');
    assert.ok(jobs.some((j) => j.payload.demoId === answer.body.demoId));

    const demo = (await app.api(`/api/v1/demos/${answer.body.demoId}`, { key: user.key })).body;
    assert.equal(demo.prompt, 'Show the pricing');
    assert.match(demo.context_hash, /^[\w-]{43}$/);
    assert.deepEqual(JSON.parse(demo.context), { url: 'https://acme.example/pricing', title: 'Pricing', headings: [], description: null, section: null });
  });

  it('reuses the demo (200, cached: true, nothing charged) for the same page whatever its fragment, utm_* and query order', async () => {
    const first = await generate({ project_id: projectId, prompt: 'Tour', context: { url: 'https://acme.example/docs?b=2&a=1' } });
    assert.equal(first.status, 202);
    const before = await balance();
    for (const url of ['https://acme.example/docs?a=1&b=2#intro', 'https://acme.example/docs?utm_source=x&b=2&a=1&utm_campaign=y']) {
      const again = await generate({ project_id: projectId, prompt: 'Tour', context: { url, title: 'Other title is not part of the key' } });
      assert.equal(again.status, 200, again.text);
      assert.deepEqual(again.body, { ...first.body, cached: true });
    }
    assert.equal(await balance(), before);
    // Anything else in the key makes a new demo.
    for (const change of [{ prompt: 'Tour 2' }, { section: 'Pricing' }, { template: 'plain-scroll' }, { context: { url: 'https://acme.example/docs?a=1' } }]) {
      const other = await generate({ project_id: projectId, prompt: 'Tour', context: { url: 'https://acme.example/docs?b=2&a=1' }, ...change });
      assert.equal(other.status, 202, JSON.stringify(change));
      assert.notEqual(other.body.demoId, first.body.demoId);
    }
  });

  it('reports the reused demo’s status while it is in progress and when ready, and generates again after a failure', async () => {
    const body = { project_id: projectId, prompt: 'Lifecycle' };
    const created = await generate(body);
    const [job] = await app.sql<{ latest_job_id: string }[]>`select latest_job_id from demos where id = ${created.body.demoId}`;
    await finishJob(app.sql, created.body.demoId, job!.latest_job_id);
    const ready = await generate(body);
    assert.equal(ready.status, 200);
    assert.equal(ready.body.status, 'ready');

    const failing = await generate({ ...body, prompt: 'Will fail' });
    const [failingJob] = await app.sql<{ latest_job_id: string }[]>`select latest_job_id from demos where id = ${failing.body.demoId}`;
    await failJob(app.sql, failing.body.demoId, failingJob!.latest_job_id);
    const retried = await generate({ ...body, prompt: 'Will fail' });
    assert.equal(retried.status, 202);
    assert.equal(retried.body.cached, false);
    assert.notEqual(retried.body.demoId, failing.body.demoId);
  });

  it('keeps a reuse current: a new status, a deletion and a project moved to another site reach the next call within moments', async () => {
    // Reuse answers are kept for a few seconds per process; every change of their demo or project forgets them.
    const soon = async (check: () => Promise<boolean>) => {
      const started = Date.now();
      while (!(await check())) {
        assert.ok(Date.now() - started < 2_000, 'the change did not reach embed/generate within 2 s');
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    };
    const moving = (await app.api('/api/v1/projects', { key: user.key, body: { name: 'Moving', url: 'https://www.acme.example' } })).body.id;
    const body = { project_id: moving, prompt: 'Kept current', context: { url: 'https://acme.example/features' } };
    const created = await generate(body);
    assert.equal(created.status, 202);
    const pending = await generate(body);
    assert.deepEqual([pending.status, pending.body.status, pending.body.cached], [200, 'pending', true]);

    const [job] = await app.sql<{ latest_job_id: string }[]>`select latest_job_id from demos where id = ${created.body.demoId}`;
    await finishJob(app.sql, created.body.demoId, job!.latest_job_id);
    await soon(async () => (await generate(body)).body.status === 'ready');

    const deleted = await app.api(`/api/v1/demos/${created.body.demoId}`, { key: user.key, method: 'DELETE' });
    assert.equal(deleted.status, 200, deleted.text);
    let regenerated: Awaited<ReturnType<typeof generate>> | null = null;
    await soon(async () => {
      regenerated = await generate(body);
      return regenerated.status === 202;
    });
    assert.notEqual(regenerated!.body.demoId, created.body.demoId);
    assert.equal((await generate(body)).status, 200);

    const moved = await app.api(`/api/v1/projects/${moving}`, { key: user.key, method: 'PATCH', body: { url: 'https://www.elsewhere.example' } });
    assert.equal(moved.status, 200, moved.text);
    await soon(async () => (await generate(body)).status === 400);
  });

  it('makes exactly one demo and one charge for twenty identical calls at once', async () => {
    const before = await balance();
    const demosBefore = await demoCount();
    const body = { project_id: projectId, prompt: 'Twenty at once', context: { url: 'https://acme.example/burst' } };
    const answers = await Promise.all(Array.from({ length: 20 }, () => generate(body)));
    assert.deepEqual(answers.map((a) => a.status).sort(), [...Array(19).fill(200), 202].sort());
    assert.equal(new Set(answers.map((a) => a.body.demoId)).size, 1);
    assert.equal(await demoCount(), demosBefore + 1);
    assert.equal(await balance(), before - 1);
  });

  it('accepts a live key as bearer or X-API-Key, from servers without an Origin', async () => {
    const bearer = await generate({ project_id: projectId, prompt: 'Server side' }, { bearer: user.key, origin: null });
    assert.equal(bearer.status, 202, bearer.text);
    const header = await generate({ project_id: projectId, prompt: 'Server side' }, { key: user.key, origin: null });
    assert.equal(header.status, 200);
    assert.equal(header.body.demoId, bearer.body.demoId);
  });

  it('answers 401 without a key, with a wrong key, and for a session alone', async () => {
    const none = await app.api('/api/v1/embed/generate', { body: { project_id: projectId } });
    assert.equal(none.status, 401);
    assert.match(none.body.error, /API key required/);
    const wrong = await generate({ project_id: projectId }, { key: 'sr_pub_nope' });
    assert.equal(wrong.status, 401);
    assert.deepEqual(Object.keys(wrong.body), ['error']);
    const signIn = await app.api('/api/v1/auth/sign-in', { body: { email: user.email, password: user.password } });
    const cookie = (signIn.headers.get('set-cookie') ?? '').split(';')[0]!;
    const session = await app.api('/api/v1/embed/generate', { cookie, body: { project_id: projectId } });
    assert.equal(session.status, 401);
  });

  it('serves a publishable key only on its allowed domains (Origin, else Referer), and creates nothing elsewhere', async () => {
    const demosBefore = await demoCount();
    const body = { project_id: projectId, prompt: 'Allowlist' };
    const elsewhere = await generate(body, { origin: 'https://evil.example' });
    assert.equal(elsewhere.status, 403);
    assert.match(elsewhere.body.error, /not allowed on evil\.example/);
    const lookalike = await generate(body, { origin: 'https://notacme.example' });
    assert.equal(lookalike.status, 403);
    const sub = await generate(body, { origin: 'https://www.acme.example' });
    assert.equal(sub.status, 403, 'acme.example does not cover www.acme.example');
    const apex = await generate(body, { origin: 'https://acme-docs.example' });
    assert.equal(apex.status, 403, '*.acme-docs.example covers subdomains only');
    const none = await generate(body, { origin: null });
    assert.equal(none.status, 403);
    assert.match(none.body.error, /no Origin or Referer/);
    assert.equal(await demoCount(), demosBefore);

    const wildcard = await generate(body, { origin: 'https://eu.docs.acme-docs.example' });
    assert.equal(wildcard.status, 202, wildcard.text);
    assert.equal(wildcard.headers.get('access-control-allow-origin'), 'https://eu.docs.acme-docs.example');
    const referer = await generate(body, { origin: null, referer: 'https://acme.example/page?x=1' });
    assert.equal(referer.status, 200);
    // A key without an allowlist shows existing demos anywhere, and starts new ones of its project's own site
    // (issue 57: the project URL here, as the request names no page).
    const open = await generate(body, { key: openKey, origin: 'https://anywhere.example' });
    assert.equal(open.status, 200);
    assert.equal(open.body.demoId, wildcard.body.demoId);
    const openNew = await generate({ ...body, prompt: 'Open key' }, { key: openKey, origin: 'https://anywhere.example' });
    assert.equal(openNew.status, 202, openNew.text);
  });

  it('answers the CORS preflight for the calling origin, cached', async () => {
    const response = await fetch(`${app.url}/api/v1/embed/generate`, {
      method: 'OPTIONS',
      headers: { origin: 'https://acme.example', 'access-control-request-method': 'POST', 'access-control-request-headers': 'x-api-key, content-type' },
    });
    assert.equal(response.status, 204);
    assert.equal(response.headers.get('access-control-allow-origin'), 'https://acme.example');
    assert.match(response.headers.get('access-control-allow-headers') ?? '', /X-API-Key/i);
    assert.match(response.headers.get('access-control-allow-headers') ?? '', /Content-Type/i);
    assert.match(response.headers.get('access-control-allow-methods') ?? '', /POST/);
    assert.equal(response.headers.get('access-control-max-age'), '86400');
  });

  it('answers 400 naming the field for every limit of the spec', async () => {
    const cases: Array<[unknown, RegExp]> = [
      [{}, /project_id is required/],
      [{ project_id: '' }, /project_id/],
      [{ project_id: projectId, prompt: '' }, /The prompt is required\./],
      [{ project_id: projectId, prompt: 'x'.repeat(501) }, /prompt must be at most 500/],
      [{ project_id: projectId, section: 'x'.repeat(121) }, /section must be at most 120/],
      [{ project_id: projectId, template: 'fancy' }, /template must be one of/],
      [{ project_id: projectId, context: { title: 'x'.repeat(201) } }, /context\.title must be at most 200/],
      [{ project_id: projectId, context: { headings: ['ok', 'x'.repeat(201)] } }, /context\.headings\.1 must be at most 200/],
      [{ project_id: projectId, context: { description: 'x'.repeat(501) } }, /context\.description must be at most 500/],
      [{ project_id: projectId, context: { url: 'not a url' } }, /context\.url/],
      [{ project_id: projectId, context: { url: 'https://elsewhere.example/' } }, /context\.url must be a page of the project's site \(acme\.example\)/],
      [{ project_id: projectId, presentation: { mockup: 'tv' } }, /presentation\.mockup/],
      [[1, 2], /JSON object/],
    ];
    for (const [body, message] of cases) {
      const answer = await generate(body);
      assert.equal(answer.status, 400, JSON.stringify(body));
      assert.match(answer.body.error, message);
      assert.equal(answer.headers.get('access-control-allow-origin'), 'https://acme.example', 'errors are readable by the page');
    }
  });

  it('answers 404 for an unknown project, another user’s, and outside a scoped key’s project', async () => {
    assert.equal((await generate({ project_id: 'nope' })).status, 404);
    const other = await app.createUser();
    const foreign = (await app.api('/api/v1/projects', { key: other.key, body: { name: 'Other', url: 'https://other.example' } })).body.id;
    const answer = await generate({ project_id: foreign });
    assert.equal(answer.status, 404);
    assert.deepEqual(answer.body, { error: 'Project not found.' });

    const second = (await app.api('/api/v1/projects', { key: user.key, body: { name: 'Second', url: 'https://acme.example' } })).body.id;
    const scoped = (await app.api('/api/v1/api-keys', { key: user.key, body: { type: 'publishable', project_id: projectId, allowed_domains: ['acme.example'] } })).body.key;
    assert.equal((await generate({ project_id: second, prompt: 'x' }, { key: scoped })).status, 404);
    assert.equal((await generate({ project_id: projectId, prompt: 'Scoped' }, { key: scoped })).status, 202);
  });

  it('answers 429 when the account cannot pay, and charges nothing for a reuse even then', async () => {
    const poor = await app.createUser({ credits: 1 });
    const project = (await app.api('/api/v1/projects', { key: poor.key, body: { name: 'Poor', url: 'https://poor.example' } })).body.id;
    const first = await generate({ project_id: project, prompt: 'One' }, { key: poor.key, origin: null });
    assert.equal(first.status, 202);
    const broke = await generate({ project_id: project, prompt: 'Two' }, { key: poor.key, origin: null });
    assert.equal(broke.status, 429);
    assert.deepEqual(Object.keys(broke.body), ['error']);
    // The site's visitors can read this answer: it names no balance.
    assert.equal(broke.body.error, "This demo cannot be made right now: the site's Showreel account has no credits left for a new one. Its owner can buy credits or turn on auto top-off.");
    const reuse = await generate({ project_id: project, prompt: 'One' }, { key: poor.key, origin: null });
    assert.equal(reuse.status, 200);
  });

  it('is refused on other methods with 405 and Allow', async () => {
    const answer = await app.api('/api/v1/embed/generate', { method: 'GET', headerKey: pubKey });
    assert.equal(answer.status, 405);
    assert.match(answer.headers.get('allow') ?? '', /POST/);
  });
});

describe('dynamic embeds: request limits', () => {
  let app: TestApp;
  let user: TestUser;
  let projectId: string;
  let pubKey: string;

  before(async () => {
    app = await startTestApp({ SHOWREEL_RATE_LIMIT_PER_KEY: '2' });
    user = await app.createUser({ credits: 20 });
    projectId = (await app.api('/api/v1/projects', { key: user.key, body: { name: 'Acme', url: 'https://acme.example' } })).body.id;
    pubKey = (await app.api('/api/v1/api-keys', { key: user.key, body: { type: 'publishable', allowed_domains: ['acme.example'] } })).body.key;
  });
  after(() => app.stop());

  const generate = (prompt: string) =>
    app.api('/api/v1/embed/generate', { headerKey: pubKey, headers: { origin: 'https://acme.example' }, body: { project_id: projectId, prompt } });

  it('limits new generations per key with 429 and Retry-After, but never a reuse', async () => {
    await clearOfMinuteTurn();
    assert.equal((await generate('One')).status, 202);
    assert.equal((await generate('Two')).status, 202);
    const limited = await generate('Three');
    assert.equal(limited.status, 429);
    assert.match(limited.body.error, /Rate limit exceeded/);
    assert.ok(Number(limited.headers.get('retry-after')) >= 1);
    assert.equal(limited.headers.get('access-control-allow-origin'), 'https://acme.example');
    for (let i = 0; i < 5; i++) assert.equal((await generate('One')).status, 200, 'page views of an existing demo are reads');
  });
});
