/**
 * A project-scoped key does what concerns its project (its demos, embeds and uploads) and nothing of its user's
 * other powers: admin, billing, key management and account-wide reads need an unscoped key or a session. The admin
 * event reader hands out no password hash or other secret, whoever asks (issue 15, finding 4).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { TRPCClientError } from '@trpc/client';
import { createAdminClient } from '../../scripts/admin-client.js';
import { startTestApp, type TestApp, type TestUser } from '../helpers/app.js';

describe('project-scoped keys', () => {
  let app: TestApp;
  let alice: TestUser;
  let admin: TestUser;
  let projectId: string;
  let scoped: string;
  let adminScoped: string;

  const scopedKeyFor = async (user: TestUser, project: string) => {
    const created = await app.api('/api/v1/api-keys', { key: user.key, body: { name: 'CI', project_id: project } });
    assert.equal(created.status, 201, created.text);
    return created.body.key as string;
  };

  before(async () => {
    app = await startTestApp();
    alice = await app.createUser({ credits: 3 });
    admin = await app.createUser({ admin: true });
    projectId = (await app.api('/api/v1/projects', { key: alice.key, body: { name: 'A', url: 'https://a.example' } })).body.id;
    scoped = await scopedKeyFor(alice, projectId);
    const adminProject = (await app.api('/api/v1/projects', { key: admin.key, body: { name: 'Ops', url: 'https://ops.example' } })).body.id;
    adminScoped = await scopedKeyFor(admin, adminProject);
  });
  after(() => app?.stop());

  const assertRefusedForScope = (response: { status: number; body: { error?: string } }, what: string) => {
    assert.equal(response.status, 403, `${what}: ${response.status} ${JSON.stringify(response.body)}`);
    assert.deepEqual(Object.keys(response.body), ['error']);
    assert.match(response.body.error!, /project-scoped/i, `${what}: the error says why`);
    assert.match(response.body.error!, /unscoped|sign in/i, `${what}: and what would work`);
  };

  it('still works on its own project and its demos', async () => {
    assert.equal((await app.api(`/api/v1/projects/${projectId}`, { key: scoped })).status, 200);
    assert.equal((await app.api('/api/v1/projects', { key: scoped })).status, 200);
    assert.equal((await app.api(`/api/v1/demos?project_id=${projectId}`, { key: scoped })).status, 200);
  });

  it('cannot buy credits, turn on auto top-off or read the account balance', async () => {
    assertRefusedForScope(await app.api('/api/v1/credits/purchase', { key: scoped, body: { packId: '5' } }), 'purchase');
    assertRefusedForScope(await app.api('/api/v1/credits/auto-topoff', { key: scoped, method: 'PUT', body: { enabled: true, packId: '5' } }), 'auto top-off');
    assertRefusedForScope(await app.api('/api/v1/credits', { key: scoped }), 'credits');
    assertRefusedForScope(await app.api('/api/v1/credits/auto-topoff', { key: scoped }), 'auto top-off setting');

    const account = await app.api('/api/v1/credits', { key: alice.key });
    assert.equal(account.body.balance, 3, 'nothing was bought');
    assert.equal(account.body.autoTopoff.enabled, false);
  });

  it('cannot list or create API keys', async () => {
    assertRefusedForScope(await app.api('/api/v1/api-keys', { key: scoped }), 'list keys');
    assertRefusedForScope(await app.api('/api/v1/api-keys', { key: scoped, body: { project_id: projectId } }), 'create key');
  });

  it("cannot read or add to the account's backgrounds", async () => {
    assertRefusedForScope(await app.api('/api/v1/backgrounds', { key: scoped }), 'list backgrounds');
    const upload = await app.api('/api/v1/backgrounds/upload', {
      key: scoped,
      rawBody: '--x\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\n\r\nnot an image\r\n--x--\r\n',
      headers: { 'content-type': 'multipart/form-data; boundary=x' },
    });
    assertRefusedForScope(upload, 'upload background');
  });

  it("an admin's project-scoped key cannot use the admin procedures", async () => {
    const client = createAdminClient({ url: app.url, apiKey: adminScoped });
    await assert.rejects(client.readStream.query({ streamId: `user-${alice.userId}` }), (error: unknown) => {
      assert.ok(error instanceof TRPCClientError);
      assert.equal(error.data?.httpStatus, 403);
      assert.match(error.message, /project-scoped/i);
      return true;
    });
    await assert.rejects(client.readAll.query({}), /project-scoped/i);
    await assert.rejects(client.rebuildReadModels.mutate(), /project-scoped/i);

    // The same admin unscoped, or signed in, still can.
    assert.ok((await createAdminClient({ url: app.url, apiKey: admin.key }).readAll.query({ limit: 1 })).events);
  });

  it('the admin event reader shows no password hash, key hash or sealed secret, even to an admin', async () => {
    const reader = createAdminClient({ url: app.url, apiKey: admin.key });
    const user = await reader.readStream.query({ streamId: `user-${alice.userId}` });
    const registered = user.events[0]!.data as Record<string, unknown>;
    assert.equal(registered.email, alice.email, 'what is not secret is still there');
    assert.equal('passwordHash' in registered && registered.passwordHash !== '[redacted]', false);

    const [stored] = await app.sql<{ password_hash: string }[]>`select password_hash from users where id = ${alice.userId}`;
    const [keyRow] = await app.sql<{ key_hash: string }[]>`select key_hash from api_keys where user_id = ${alice.userId} limit 1`;
    const [project] = await app.sql<{ data: { sealedSigningSecret: string } }[]>`
      select data from events where type = 'ProjectCreated' and stream_id = ${`project-${projectId}`}`;

    const everything: unknown[] = [];
    let after = null as { transactionId: string; globalPosition: string } | null;
    for (let pages = 0; pages < 50; pages++) {
      const page = await reader.readAll.query({ after, limit: 100 });
      if (page.events.length === 0) break;
      everything.push(...page.events);
      after = page.checkpoint;
    }
    const text = JSON.stringify([everything, user]);
    assert.ok(text.includes(alice.email));
    for (const [name, secret] of [
      ['password hash', stored!.password_hash],
      ['key hash', keyRow!.key_hash],
      ['sealed signing secret', project!.data.sealedSigningSecret],
    ]) {
      assert.ok(secret && secret.length > 20, `${name} exists in the database`);
      assert.equal(text.includes(secret), false, `the reader returned a ${name}`);
    }
    assert.doesNotMatch(text, /scrypt\$/);
  });
});
