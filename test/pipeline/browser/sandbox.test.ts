/**
 * The recorder's browser is sandboxed (issue 34, finding 4): it renders strangers' pages, so it must not run as root
 * beside the master key and the database password, and a renderer bug must meet Chromium's sandbox (namespaces and
 * seccomp) and site isolation. Checked from the OS, on the browser the pool launches for a job.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import fs from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'puppeteer-core';
import { createBrowserPool, type BrowserPool } from '../../../src/pipeline/browser/pool.js';
import { launchBrowser } from '../../../src/pipeline/browser/launch.js';
import { browserSandbox, planSandbox, resetBrowserSandbox } from '../../../src/pipeline/browser/sandbox.js';
import { createLogger } from '../../../src/platform/logger.js';
import { descendantsOf } from '../../helpers/processes.js';


/** A /proc/<pid>/status field: `Uid` gives real, effective, saved and filesystem uid; `Seccomp` 2 is a filter. */
function statusOf(pid: number): { uids: number[]; seccomp: number; environ: string } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const uids = /^Uid:\s+(.*)$/m.exec(status)![1]!.trim().split(/\s+/).map(Number);
  const seccomp = Number(/^Seccomp:\s+(\d+)/m.exec(status)?.[1] ?? 0);
  let environ = '';
  try {
    environ = readFileSync(`/proc/${pid}/environ`, 'utf8');
  } catch {
    // a sandboxed process may hide it
  }
  return { uids, seccomp, environ };
}

async function iframeTargets(browser: Browser): Promise<number> {
  const session = await browser.target().createCDPSession();
  try {
    const { targetInfos } = await session.send('Target.getTargets');
    return targetInfos.filter((info) => info.type === 'iframe').length;
  } finally {
    await session.detach();
  }
}

describe("the recorder's browser", () => {
  let pool: BrowserPool;
  let site: http.Server;
  let port = 0;

  before(async () => {
    // A page on 127.0.0.1 framing a page of another site (localhost): with site isolation, two renderers.
    site = http.createServer((req, res) => {
      res.setHeader('content-type', 'text/html');
      if (req.url === '/framed') res.end('<!doctype html><body style="background:#c00">another site</body>');
      else res.end(`<!doctype html><h1>Showreel</h1><iframe src="http://localhost:${port}/framed"></iframe>`);
    });
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    port = (site.address() as AddressInfo).port;
    pool = createBrowserPool({ size: 1, allowTargets: [`127.0.0.1:${port}`, `localhost:${port}`] });
  });

  after(async () => {
    await pool?.close();
    site?.close();
  });

  it('runs as an unprivileged user with its sandbox and site isolation on, and still loads pages through the egress proxy', async () => {
    process.env.SHOWREEL_TEST_SECRET = 'master-key-stand-in';
    const seen = await pool.withPage({ viewport: 'desktop', resolution: '720p', allowPrivate: true }, async (page, ctx) => {
      await ctx.goto(`http://127.0.0.1:${port}/`, { waitUntil: 'load' });
      const framed = page.frames().find((frame) => frame.url().includes('/framed'));
      const framedText = await framed?.evaluate(() => document.body.textContent);
      const child = ctx.browser.process()!;
      const processes = [child.pid!, ...descendantsOf(child.pid!)];
      return {
        heading: await page.$eval('h1', (h1) => h1.textContent),
        framedText,
        // An out-of-process iframe is a target of its own (type iframe); an in-process one is part of its page's.
        iframeTargets: await iframeTargets(ctx.browser),
        args: child.spawnargs,
        processes: processes.map((pid) => ({ pid, ...statusOf(pid) })),
      };
    });

    assert.equal(seen.heading, 'Showreel', 'the page loaded through the egress proxy');
    assert.equal(seen.framedText, 'another site', 'the framed page of another site loaded');
    assert.ok(!seen.args.includes('--no-sandbox'), `no --no-sandbox in ${seen.args.join(' ')}`);
    assert.ok(!seen.args.includes('--no-zygote'), 'no --no-zygote');
    assert.ok(!seen.args.includes('--disable-site-isolation-trials'), 'no --disable-site-isolation-trials');
    assert.ok(!seen.args.some((arg) => arg.startsWith('--disable-features=') && /\bsite-per-process\b|IsolateOrigins/.test(arg)), 'site isolation not disabled');
    assert.ok(seen.iframeTargets >= 1, 'the framed page of another site renders in a process of its own (site isolation)');

    assert.ok(seen.processes.length > 2, `Chromium has a zygote, renderers and helpers: ${seen.processes.map((p) => p.pid).join(' ')}`);
    const rootOwned = seen.processes.filter((p) => p.uids.includes(0));
    assert.deepEqual(rootOwned, [], 'no Chromium process runs as root');
    if (process.getuid?.() === 0) {
      const { user } = browserSandbox();
      for (const p of seen.processes) assert.deepEqual(p.uids, [user!.uid, user!.uid, user!.uid, user!.uid], `process ${p.pid} runs as ${user!.name}`);
    }
    assert.ok(seen.processes.some((p) => p.seccomp === 2), 'the renderers run under a seccomp-bpf filter (Chromium sandbox on)');
    const browserProcess = seen.processes[0]!;
    assert.ok(!browserProcess.environ.includes('master-key-stand-in'), "Showreel's environment (secrets) is not handed to Chromium");

    // The launch's folder (launcher, HOME, profile) goes with the browser.
    const folder = path.dirname(seen.args[0]!);
    assert.match(path.basename(folder), /^showreel-browser-\d+-/);
    await pool.close();
    const deadline = Date.now() + 10_000;
    while (existsSync(folder) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
    assert.equal(existsSync(folder), false, `${folder} is removed once the browser has exited`);
  });
});

describe('how the browser is to run, worked out at start', () => {
  it('refuses a browser user that does not exist, root, and an unknown mode, naming the setting', { skip: process.getuid?.() !== 0 && 'switching users needs root' }, () => {
    assert.throws(() => planSandbox({ SHOWREEL_BROWSER_USER: 'no-such-user-34' }), /SHOWREEL_BROWSER_USER names no user of this system: no-such-user-34/);
    assert.throws(() => planSandbox({ SHOWREEL_BROWSER_USER: 'root' }), /must not be root/);
    assert.throws(() => planSandbox({ SHOWREEL_BROWSER_SANDBOX: 'maybe' }), /auto, require or off/);
  });

  it('says why when the sandbox is off, and takes a numeric user', () => {
    assert.deepEqual(planSandbox({ SHOWREEL_BROWSER_SANDBOX: 'off' }), { mode: 'off', user: null, setpriv: null, sandbox: false, reason: 'SHOWREEL_BROWSER_SANDBOX=off' });
    if (process.getuid?.() === 0) {
      const plan = planSandbox({ SHOWREEL_BROWSER_USER: '65534:65534', SHOWREEL_BROWSER_SANDBOX: 'require' });
      assert.deepEqual(plan.user, { uid: 65534, gid: 65534, name: '65534:65534' });
      assert.equal(plan.sandbox, true, 'this machine has unprivileged user namespaces (the test above launched sandboxed)');
    }
  });
});

describe('a machine without user namespaces', () => {
  // Stands in for a kernel without unprivileged user namespaces: an `unshare` that fails as the real one would.
  let fakeBin: string;
  const realPath = process.env.PATH;

  before(async () => {
    fakeBin = await fs.mkdtemp(path.join(os.tmpdir(), 'showreel-no-userns-'));
    await fs.chmod(fakeBin, 0o755);
    await fs.writeFile(path.join(fakeBin, 'unshare'), '#!/bin/sh\necho "unshare: unshare failed: Operation not permitted" >&2\nexit 1\n', { mode: 0o755 });
    process.env.PATH = `${fakeBin}:${realPath}`;
    resetBrowserSandbox();
  });
  after(async () => {
    process.env.PATH = realPath;
    resetBrowserSandbox();
    await fs.rm(fakeBin, { recursive: true, force: true });
  });

  it('records without the sandbox, as before, and says so once in the log with the reason; require refuses to start', async () => {
    assert.throws(() => planSandbox({ ...process.env, SHOWREEL_BROWSER_SANDBOX: 'require' }), /SHOWREEL_BROWSER_SANDBOX=require, but the browser cannot be sandboxed: unprivileged user namespaces are not available .*Operation not permitted/);

    const lines: string[] = [];
    const logger = createLogger('info', new Writable({ write: (chunk, _encoding, done) => (lines.push(String(chunk)), done()) }));
    const browsers = [await launchBrowser({ logger }), await launchBrowser({ logger })];
    try {
      const page = await browsers[0]!.newPage();
      await page.goto('data:text/html,<h1>still records</h1>');
      assert.equal(await page.$eval('h1', (h1) => h1.textContent), 'still records');
      assert.ok(browsers[0]!.process()!.spawnargs.includes('--no-sandbox'), 'the old flags, as the kernel leaves no choice');
      if (process.getuid?.() === 0) assert.equal(statusOf(browsers[0]!.process()!.pid!).uids[0], 65534, 'still not root');
    } finally {
      await Promise.all(browsers.map((browser) => browser.close()));
    }
    const warnings = lines.map((line) => JSON.parse(line)).filter((entry) => entry.level === 40);
    assert.equal(warnings.length, 1, 'said once, not per launch');
    assert.match(warnings[0].msg, /WITHOUT Chromium's sandbox: unprivileged user namespaces are not available/);
  });
});
