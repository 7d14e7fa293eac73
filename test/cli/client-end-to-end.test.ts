import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { probeVideo } from '../../src/pipeline/encode/probe.js';
import { cliLauncher } from '../helpers/cli.js';
import { startWorkerApp, type WorkerApp } from '../helpers/worker-app.js';
import { makeMediaFixtures, type MediaFixtures } from '../pipeline/media-fixtures.js';


/**
 * A developer's first session with the CLI against a real service with its worker: the demo is really recorded
 * (Chromium on a loopback fixture site, ffmpeg), followed live and downloaded. test/cli/client.test.ts covers each
 * command's edges against a service without a worker; this is the one slow story through all of them.
 */
describe('the showreel CLI against a running service, end to end', () => {
  let env: WorkerApp;
  let media: MediaFixtures;
  let configHome: string;
  let work: string;
  let front: net.Server;
  let frontUrl: string;
  /** WebSocket upgrade requests that went through the front, by path. */
  const upgrades: string[] = [];
  const sockets = new Set<net.Socket>();
  const { launch, finished, kill } = cliLauncher({ cwd: () => work, configHome: () => configHome, serviceUrl: () => frontUrl });

  before(async () => {
    [env, media] = await Promise.all([startWorkerApp({ credits: 5 }), makeMediaFixtures()]);
    configHome = await fs.mkdtemp(path.join(os.tmpdir(), 'showreel-e2e-config-'));
    work = await fs.mkdtemp(path.join(os.tmpdir(), 'showreel-e2e-work-'));
    // The CLI talks to the service through a plain TCP front that notes each WebSocket upgrade it carries, to tell
    // the live socket from the polling fallback.
    const target = new URL(env.app.url);
    front = net.createServer((client) => {
      const upstream = net.connect(Number(target.port), target.hostname);
      for (const socket of [client, upstream]) {
        sockets.add(socket);
        socket.once('close', () => sockets.delete(socket));
      }
      client.once('data', (head) => {
        const request = head.toString('latin1');
        if (/^upgrade:\s*websocket/im.test(request)) upgrades.push(request.split(' ')[1]!);
        upstream.write(head);
        client.pipe(upstream).pipe(client);
      });
      client.on('error', () => upstream.destroy());
      upstream.on('error', () => client.destroy());
    });
    await new Promise<void>((resolve) => front.listen(0, '127.0.0.1', resolve));
    frontUrl = `http://127.0.0.1:${(front.address() as net.AddressInfo).port}`;
  });
  after(async () => {
    kill();
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => front.close(resolve));
    await env.stop();
    await media.cleanup();
    await fs.rm(configHome, { recursive: true, force: true });
    await fs.rm(work, { recursive: true, force: true });
  });

  const json = async (args: string[], extraEnv: Record<string, string> = {}) => {
    const result = await finished(launch([...args, '--json'], extraEnv));
    assert.equal(result.code, 0, `showreel ${args.join(' ')}: exit ${result.code}: ${result.stderr}`);
    return JSON.parse(result.stdout);
  };
  async function until<T>(what: string, check: () => T | undefined, withinMs = 30_000): Promise<T> {
    const deadline = Date.now() + withinMs;
    for (;;) {
      const value = check();
      if (value !== undefined) return value;
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  it('logs in, records a demo with live progress, downloads a playable MP4, uploads one, revokes a key, logs out', async () => {
    const { app, user, sites } = env;

    // login: the person approves the code shown in the terminal, signed in to the dashboard.
    const signedIn = await app.api('/api/v1/auth/sign-in', { body: { email: user.email, password: user.password } });
    const cookie = (signedIn.headers.get('set-cookie') ?? '').split(';')[0]!;
    const login = launch(['login']);
    const userCode = await until('the user code', () => /one-time code: ([A-Z]{4}-[A-Z]{4})/.exec(login.output.stderr)?.[1]);
    assert.equal((await app.api('/api/v1/device/authorize', { cookie, body: { user_code: userCode } })).status, 200);
    const loggedIn = await finished(login);
    assert.equal(loggedIn.code, 0, loggedIn.stderr);
    const stored = JSON.parse(await fs.readFile(path.join(configHome, 'showreel', 'config.json'), 'utf8'));

    // From here on the CLI uses the key login stored: nothing in the environment.
    const project = await json(['projects', 'create', '--name', 'SaaS', '--url', sites.url('saas')]);
    assert.equal(project.url, sites.url('saas'));

    const create = launch(['demos', 'create', '--project', project.id, '--prompt', 'Show the pricing plans', '--duration', '5s', '--resolution', '720p', '--wait', '--json']);
    const created = await finished(create);
    assert.equal(created.code, 0, created.stderr);
    const waited = JSON.parse(created.stdout);
    assert.equal(waited.status, 'ready');
    assert.equal(waited.shareUrl, `${frontUrl}/share/${waited.id}`);
    assert.deepEqual(upgrades, [`/api/v1/demos/${waited.id}/ws`], 'the progress came over the WebSocket');
    // The bar on stderr (a line per step off a terminal) named the demo's phases as they happened, in order, in the
    // dashboard's words (issue 35).
    const lines = created.stderr.split('\n').filter((l) => /^\s*\d+% /.test(l));
    const steps = lines.map((l) => l.replace(/^\s*\d+% /, ''));
    const recording = steps.findIndex((s) => /recording/.test(s));
    assert.ok(recording >= 0, created.stderr);
    assert.ok(steps.findIndex((s) => /composing/.test(s)) > recording, created.stderr);
    assert.match(lines.at(-1)!, /100% ready/);
    const percents = lines.map((l) => Number(/(\d+)%/.exec(l)![1]));
    assert.deepEqual(percents, [...percents].sort((a, b) => a - b), 'the bar never goes back');

    const out = path.join(work, 'pricing.mp4');
    const downloaded = await json(['demos', 'download', waited.id, '--out', out]);
    assert.equal(downloaded.file, out);
    const video = await probeVideo(out);
    assert.equal(video.codec, 'h264');
    assert.ok((video.durationMs ?? 0) > 1000, `a real recording, ${video.durationMs} ms`);

    const uploaded = await json(['upload', media.mp4, '--project', project.id, '--prompt', 'Recorded on my laptop', '--thumbnail', media.png]);
    assert.equal(uploaded.status, 'ready');
    assert.equal(uploaded.assets.thumbnail.type, 'thumbnail');
    const listed = await json(['demos', 'list', '--project', project.id]);
    assert.deepEqual(new Set(listed.demos.map((d: { id: string }) => d.id)), new Set([waited.id, uploaded.id]));

    // A key made for CI works until `keys revoke`, then it is a 401 at once.
    const ci = await json(['keys', 'create', '--name', 'CI']);
    assert.equal((await app.api('/api/v1/projects', { key: ci.key })).status, 200);
    await json(['keys', 'revoke', ci.id]);
    assert.equal((await app.api('/api/v1/projects', { key: ci.key })).status, 401);

    const logout = await finished(launch(['logout']));
    assert.equal(logout.code, 0, logout.stderr);
    assert.equal((await app.api('/api/v1/projects', { key: stored.key })).status, 401);
    const after = await finished(launch(['whoami']));
    assert.equal(after.code, 1);
    assert.match(after.stderr, /Not logged in/);
  });
});
