import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp, type TestUser } from '../helpers/app.js';

/**
 * Issue 34, finding 2: a publishable key sits in every visitor's browser, and anyone can copy it and call
 * POST /embed/generate from a script with any Origin. What it may spend its owner's credits on is therefore decided
 * by the page that would be recorded and by daily caps, never by the Origin header alone.
 */
describe('embed spend controls: what a publishable key may generate', () => {
  let app: TestApp;
  let user: TestUser;
  let acme: string;
  let other: string;
  let acmeKey: string;

  before(async () => {
    app = await startTestApp();
    user = await app.createUser({ credits: 50 });
    acme = (await app.api('/api/v1/projects', { key: user.key, body: { name: 'Acme', url: 'https://www.acme.example' } })).body.id;
    other = (await app.api('/api/v1/projects', { key: user.key, body: { name: 'Other', url: 'https://other.example' } })).body.id;
    // Made without project_id: it reaches every project of its owner, but only its own domains.
    acmeKey = (await app.api('/api/v1/api-keys', { key: user.key, body: { type: 'publishable', allowed_domains: ['acme.example', 'www.acme.example'] } })).body.key;
  });
  after(() => app.stop());

  const generate = (key: string, body: unknown, origin = 'https://acme.example') =>
    app.api('/api/v1/embed/generate', { headerKey: key, headers: { origin }, body });
  const demoCount = async () => (await app.sql<{ n: number }[]>`select count(*)::int as n from demos where user_id = ${user.userId}`)[0]!.n;

  it('refuses a page off the key’s domains with 403, however allowed the Origin it sends', async () => {
    const before = await demoCount();
    // A script sends an allowed Origin and asks for a page of the owner's other site, with a prompt of its own.
    const forged = await generate(acmeKey, { project_id: other, prompt: 'Anything I like', context: { url: 'https://other.example/pricing' } });
    assert.equal(forged.status, 403, forged.text);
    assert.deepEqual(Object.keys(forged.body), ['error']);
    assert.match(forged.body.error, /other\.example/);
    assert.match(forged.body.error, /allowed domains/);
    assert.equal(await demoCount(), before, 'nothing was made, nothing charged');
  });

  it('refuses a project whose own site is off the key’s domains even when the request names no page', async () => {
    // No context.url: the project's own URL would be recorded, and other.example is not on the key.
    const answer = await generate(acmeKey, { project_id: other, prompt: 'A tour of the other site' });
    assert.equal(answer.status, 403, answer.text);
    assert.match(answer.body.error, /other\.example/);
    // The same key on its own site generates.
    const own = await generate(acmeKey, { project_id: acme, prompt: 'A tour', context: { url: 'https://acme.example/features' } });
    assert.equal(own.status, 202, own.text);
  });

  it('generates only for the project’s own site (its host or a subdomain), not for a neighbour on a shared domain', async () => {
    const project = (await app.api('/api/v1/projects', { key: user.key, body: { name: 'Pages', url: 'https://team.pages.example' } })).body.id;
    const key = (await app.api('/api/v1/api-keys', { key: user.key, body: { type: 'publishable', allowed_domains: ['*.pages.example'] } })).body.key;
    const neighbour = await generate(key, { project_id: project, prompt: 'Tour', context: { url: 'https://stranger.pages.example/' } }, 'https://team.pages.example');
    assert.equal(neighbour.status, 403, neighbour.text);
    assert.match(neighbour.body.error, /stranger\.pages\.example is not the project's site \(team\.pages\.example\)/);
    const own = await generate(key, { project_id: project, prompt: 'Tour', context: { url: 'https://docs.team.pages.example/start' } }, 'https://docs.team.pages.example');
    assert.equal(own.status, 202, own.text);
  });

  it('lets a key without allowed domains reuse demos from any page, and start new ones for its project’s own site only (issue 57)', async () => {
    const open = (await app.api('/api/v1/api-keys', { key: user.key, body: { type: 'publishable' } })).body.key;
    const body = { project_id: acme, prompt: 'Made by the server', context: { url: 'https://acme.example/start' } };
    const made = await app.api('/api/v1/embed/generate', { key: user.key, body });
    assert.equal(made.status, 202, made.text);
    const reused = await generate(open, body, 'https://anywhere.example');
    assert.equal(reused.status, 200, reused.text);
    assert.equal(reused.body.demoId, made.body.demoId);

    const before = await demoCount();
    const fresh = await generate(open, { ...body, prompt: 'Something new' });
    assert.equal(fresh.status, 202, fresh.text);
    assert.equal(await demoCount(), before + 1, 'a new demo of the project’s own page');

    // Whatever Origin it sends, the page recorded must be on the project's own site: a neighbour on a shared domain is not.
    const pages = (await app.api('/api/v1/projects', { key: user.key, body: { name: 'Team', url: 'https://team.pages.example' } })).body.id;
    const neighbour = await generate(open, { project_id: pages, prompt: 'A neighbour', context: { url: 'https://stranger.pages.example/' } });
    assert.equal(neighbour.status, 403, neighbour.text);
    assert.match(neighbour.body.error, /stranger\.pages\.example is not the project's site \(team\.pages\.example\)/);
    assert.equal(neighbour.headers.get('access-control-allow-origin'), 'https://acme.example', 'the page can read why');
    assert.equal(await demoCount(), before + 1, 'nothing made for the neighbour');
  });

  it('leaves live keys as they were: a trusted server generates for any page of the project’s site', async () => {
    const server = await app.api('/api/v1/embed/generate', { key: user.key, body: { project_id: other, prompt: 'Server side', context: { url: 'https://blog.other.example/post' } } });
    assert.equal(server.status, 202, server.text);
  });
});

describe('embed spend controls: daily caps on new generations', () => {
  let app: TestApp;
  let user: TestUser;

  before(async () => {
    app = await startTestApp({ SHOWREEL_EMBED_DAILY_GENERATIONS_PER_KEY: '3', SHOWREEL_EMBED_DAILY_GENERATIONS_PER_PROJECT: '5' });
    user = await app.createUser({ credits: 100 });
  });
  after(() => app.stop());

  const project = async (host: string) => (await app.api('/api/v1/projects', { key: user.key, body: { name: host, url: `https://${host}` } })).body.id as string;
  const key = async (host: string) => (await app.api('/api/v1/api-keys', { key: user.key, body: { type: 'publishable', allowed_domains: [host] } })).body;
  const generate = (keyText: string, projectId: string, host: string, prompt: string) =>
    app.api('/api/v1/embed/generate', { headerKey: keyText, headers: { origin: `https://${host}` }, body: { project_id: projectId, prompt, context: { url: `https://${host}/` } } });

  it('caps new generations per key a day with 429 and Retry-After, counts reuses never, and shows the counts in GET /usage', async () => {
    const projectId = await project('capped.example');
    const first = await key('capped.example');
    for (const prompt of ['One', 'Two', 'Three']) assert.equal((await generate(first.key, projectId, 'capped.example', prompt)).status, 202, prompt);
    const capped = await generate(first.key, projectId, 'capped.example', 'Four');
    assert.equal(capped.status, 429, capped.text);
    assert.deepEqual(Object.keys(capped.body), ['error']);
    assert.match(capped.body.error, /at most 3 new demos a day/);
    const retryAfter = Number(capped.headers.get('retry-after'));
    assert.ok(retryAfter >= 1 && retryAfter <= 86_400, `Retry-After ${retryAfter} is the time to the next UTC day`);
    assert.equal((await generate(first.key, projectId, 'capped.example', 'One')).status, 200, 'a reuse is never capped');

    // A second key on the same project: its own 3 a day, but the project's 5 a day hold across keys.
    const second = await key('capped.example');
    assert.equal((await generate(second.key, projectId, 'capped.example', 'Five')).status, 202);
    assert.equal((await generate(second.key, projectId, 'capped.example', 'Six')).status, 202);
    const projectCapped = await generate(second.key, projectId, 'capped.example', 'Seven');
    assert.equal(projectCapped.status, 429, projectCapped.text);
    assert.match(projectCapped.body.error, /This project may start at most 5 new demos a day/);

    const usage = (await app.api('/api/v1/usage', { key: user.key })).body;
    assert.equal(usage.embeds.limits.daily_generations_per_key, 3);
    assert.equal(usage.embeds.limits.daily_generations_per_project, 5);
    assert.equal(usage.embeds.today.day, new Date().toISOString().slice(0, 10));
    assert.deepEqual(usage.embeds.today.by_key.sort((a: any, b: any) => b.generations - a.generations), [
      { key_id: first.id, generations: 3 },
      { key_id: second.id, generations: 2 },
    ]);
    assert.deepEqual(usage.embeds.today.by_project, [{ project_id: projectId, generations: 5 }]);
  });

  it('holds the cap exactly when a page asks for many new demos at once', async () => {
    const projectId = await project('burst.example');
    const burst = await key('burst.example');
    const answers = await Promise.all(Array.from({ length: 10 }, (_, i) => generate(burst.key, projectId, 'burst.example', `Burst ${i}`)));
    assert.deepEqual(answers.map((a) => a.status).sort(), [202, 202, 202, ...Array(7).fill(429)]);
    const made = await app.sql<{ n: number }[]>`select count(*)::int as n from demos where project_id = ${projectId}`;
    assert.equal(made[0]!.n, 3);
  });
});
