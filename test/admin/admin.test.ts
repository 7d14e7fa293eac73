import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { TRPCClientError } from '@trpc/client';
import { createAdminClient, type AdminClient } from '../../scripts/admin-client.js';
import { startTestApp, type TestApp, type TestUser } from '../helpers/app.js';

const root = path.resolve(import.meta.dirname, '../..');

/** `npm run admin-client -- <args>`, as an operator types it (minus npm). */
function adminClientCommand(args: string[], env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  const { TEST_DATABASE_URL: _t, DATABASE_URL: _d, NODE_TEST_CONTEXT: _c, ...inherited } = process.env;
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', path.join(root, 'scripts', 'admin-client.ts'), ...args],
      { cwd: root, env: { ...inherited, ...env }, timeout: 30_000 },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

type Page = Awaited<ReturnType<AdminClient['readAll']['query']>>;
type Checkpoint = NonNullable<Page['checkpoint']>;

/** Rejects with a TRPCClientError whose data.code is `code` (and the matching HTTP status). */
async function rejectsWith(promise: Promise<unknown>, code: string, httpStatus: number) {
  await assert.rejects(promise, (error: unknown) => {
    assert.ok(error instanceof TRPCClientError, `expected a TRPCClientError, got ${String(error)}`);
    assert.equal(error.data?.code, code, `expected ${code}, got ${error.data?.code}: ${error.message}`);
    assert.equal(error.data?.httpStatus, httpStatus);
    return true;
  });
}

/**
 * readAll only returns events of transactions older than every one still in flight on the cluster, and the test
 * cluster is shared with other files: what we just wrote may show up a moment later.
 */
async function eventually<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('admin procedures (tRPC only)', () => {
  let app: TestApp;
  let admin: TestUser;
  let alice: TestUser;
  let asAdmin: AdminClient;
  let asAlice: AdminClient;
  let anonymous: AdminClient;
  let projectId: string;

  before(async () => {
    app = await startTestApp();
    admin = await app.createUser({ admin: true });
    alice = await app.createUser();
    asAdmin = createAdminClient({ url: app.url, apiKey: admin.key });
    asAlice = createAdminClient({ url: app.url, apiKey: alice.key });
    anonymous = createAdminClient({ url: app.url });
    const created = await app.api('/api/v1/projects', { key: alice.key, body: { name: 'Acme', url: 'https://acme.example' } });
    assert.equal(created.status, 201);
    projectId = created.body.id;
  });
  after(() => app?.stop());

  it("lets an admin read one stream's events in order", async () => {
    const { events } = await asAdmin.readStream.query({ streamId: `user-${alice.userId}` });
    assert.deepEqual(
      events.map((e) => [e.streamVersion, e.type]),
      [[1, 'UserRegistered']],
    );
    assert.equal((events[0]!.data as { email: string }).email, alice.email);

    const project = await asAdmin.readStream.query({ streamId: `project-${projectId}` });
    assert.ok(project.events.length >= 1);
    assert.equal((project.events[0]!.metadata as { actor: string }).actor, alice.userId);

    const missing = await asAdmin.readStream.query({ streamId: 'user-does-not-exist' });
    assert.deepEqual(missing.events, []);
  });

  it('lets an admin page through the whole log by checkpoint, without gaps or repeats', async () => {
    const ours = [`user-${admin.userId}`, `user-${alice.userId}`, `project-${projectId}`];
    const everything = await eventually(
      () => asAdmin.readAll.query({}),
      (page) => ours.every((stream) => page.events.some((e) => e.streamId === stream)),
    );
    assert.ok(everything.events.length >= 5, `expected at least 5 events, got ${everything.events.length}`);
    for (const stream of ours) assert.ok(everything.events.some((e) => e.streamId === stream), `${stream} is in the log`);

    const paged: string[] = [];
    let after: Checkpoint | null = null;
    for (let pages = 0; ; pages++) {
      assert.ok(pages < 100, 'paging terminates');
      const page: Page = await asAdmin.readAll.query({ after, limit: 2 });
      assert.ok(page.events.length <= 2);
      if (page.events.length === 0) {
        // An empty page keeps the caller's checkpoint: reading again starts from the same place.
        assert.deepEqual(page.checkpoint, after);
        break;
      }
      const last = page.events.at(-1)!;
      assert.deepEqual(page.checkpoint, { transactionId: last.transactionId, globalPosition: last.globalPosition });
      paged.push(...page.events.map((e) => e.globalPosition));
      after = page.checkpoint;
    }
    const all = everything.events.map((e) => e.globalPosition);
    assert.deepEqual(paged.slice(0, all.length), all);
    assert.equal(new Set(paged).size, paged.length, 'no event is read twice');
  });

  it('rejects a malformed checkpoint as a bad request', async () => {
    await rejectsWith(asAdmin.readAll.query({ after: { transactionId: 'x', globalPosition: '1' } }), 'BAD_REQUEST', 400);
  });

  it('lets an admin rebuild the read models from the events, and nothing is lost', async () => {
    const result = await asAdmin.rebuildReadModels.mutate();
    assert.ok(result.events >= 5, `rebuilt from ${result.events} events`);
    assert.ok(result.tables.includes('users'));

    // After the rebuild, keys still authenticate and alice still sees her project.
    const projects = await app.api('/api/v1/projects', { key: alice.key });
    assert.equal(projects.status, 200);
    assert.deepEqual(
      projects.body.projects.map((p: { id: string }) => p.id),
      [projectId],
    );
  });

  it('refuses a normal user with FORBIDDEN', async () => {
    await rejectsWith(asAlice.readStream.query({ streamId: `user-${alice.userId}` }), 'FORBIDDEN', 403);
    await rejectsWith(asAlice.readAll.query({}), 'FORBIDDEN', 403);
    await rejectsWith(asAlice.rebuildReadModels.mutate(), 'FORBIDDEN', 403);
  });

  it('refuses a caller without a key with UNAUTHORIZED', async () => {
    await rejectsWith(anonymous.readStream.query({ streamId: `user-${alice.userId}` }), 'UNAUTHORIZED', 401);
    await rejectsWith(anonymous.readAll.query({}), 'UNAUTHORIZED', 401);
    await rejectsWith(anonymous.rebuildReadModels.mutate(), 'UNAUTHORIZED', 401);
  });

  it('refuses an unknown key with UNAUTHORIZED', async () => {
    const forged = createAdminClient({ url: app.url, apiKey: 'sr_live_not-a-real-key' });
    await rejectsWith(forged.readAll.query({}), 'UNAUTHORIZED', 401);
  });

  it('works from the command line: npm run admin-client -- <command>', async () => {
    const env = { SHOWREEL_URL: app.url, SHOWREEL_API_KEY: admin.key };
    const [stream, page, rebuild, forbidden, usage] = await Promise.all([
      adminClientCommand(['read-stream', `user-${alice.userId}`], env),
      adminClientCommand(['read-all', '--limit', '1'], env),
      adminClientCommand(['rebuild'], env),
      adminClientCommand(['read-all'], { ...env, SHOWREEL_API_KEY: alice.key }),
      adminClientCommand(['read-all', '--after-tx', '5'], env),
    ]);

    assert.equal(stream.code, 0, stream.stderr);
    assert.equal(JSON.parse(stream.stdout).events[0].type, 'UserRegistered');

    assert.equal(page.code, 0, page.stderr);
    const first = JSON.parse(page.stdout) as Page;
    assert.equal(first.events.length, 1);
    const next = await adminClientCommand(
      ['read-all', '--after-tx', first.checkpoint!.transactionId, '--after-pos', first.checkpoint!.globalPosition, '--limit', '1'],
      env,
    );
    assert.equal(next.code, 0, next.stderr);
    const second = JSON.parse(next.stdout) as Page;
    assert.notEqual(second.events[0]?.globalPosition, first.events[0]!.globalPosition, 'the checkpoint moves the reader on');

    assert.equal(rebuild.code, 0, rebuild.stderr);
    assert.ok(JSON.parse(rebuild.stdout).tables.includes('users'));

    assert.equal(forbidden.code, 1);
    assert.equal(forbidden.stdout, '');
    assert.match(forbidden.stderr, /FORBIDDEN: This needs an admin account/);

    assert.equal(usage.code, 2);
    assert.match(usage.stderr, /--after-tx and --after-pos go together/);
  });

  it('does not put the admin procedures on the REST surface', async () => {
    const document = await app.api('/api/v1/openapi.json');
    assert.equal(document.status, 200);
    const paths = Object.keys(document.body.paths);
    assert.ok(paths.some((p) => p.includes('/projects')), 'the document lists the public API');
    assert.deepEqual(
      paths.filter((p) => /admin|rebuild|read-?all|read-?stream/i.test(p)),
      [],
    );
    const operationIds = Object.values(document.body.paths as Record<string, Record<string, { operationId?: string }>>)
      .flatMap((item) => Object.values(item).map((operation) => operation.operationId ?? ''));
    assert.deepEqual(
      operationIds.filter((id) => id.startsWith('admin')),
      [],
    );

    for (const path of ['/api/v1/admin/readAll', '/api/v1/admin/read-all', '/api/v1/admin.readAll']) {
      const response = await app.api(path, { key: admin.key });
      assert.equal(response.status, 404, `${path} is not an endpoint`);
    }
    const rebuild = await app.api('/api/v1/admin/rebuildReadModels', { key: admin.key, method: 'POST', body: {} });
    assert.equal(rebuild.status, 404);
  });
});
