import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { FIXTURE_SITES_DIR } from '../helpers/fixture-server.js';
import { startWorkerApp, type WorkerApp } from '../helpers/worker-app.js';

interface HistoryEntry {
  id: string;
  result: string;
  changes: string[] | null;
  new_version: number | null;
  error: string | null;
}

/**
 * Issue 56, item 5, told as a studio's deploys: a demo of how a customer signs in goes from the home page to the
 * sign-in page. The deploy webhook's refresh looks at both pages: a deploy that changed neither records nothing; one
 * that changed only the sign-in page is re-recorded, and the history names that page.
 */
describe('change-aware refresh of a flow: every page it goes to is looked at', () => {
  let rig: WorkerApp;
  let siteDir: string;
  let project: { id: string; webhook_secret: string };
  let demoId: string;

  before(async () => {
    siteDir = await fs.mkdtemp(path.join(os.tmpdir(), 'showreel-flow-refresh-'));
    await fs.cp(path.join(FIXTURE_SITES_DIR, 'flow-studio'), path.join(siteDir, 'flow-studio'), { recursive: true });
    rig = await startWorkerApp({ credits: 20, sitesRoot: siteDir });
    project = (await rig.app.api('/api/v1/projects', { key: rig.user.key, body: { name: 'Northwind', url: `${rig.sites.url('flow-studio')}index.html` } })).body;
    const created = await rig.app.api('/api/v1/demos', {
      key: rig.user.key,
      body: { project_id: project.id, prompt: 'Show how a customer signs in as dana@example.com', duration_target: '10s' },
    });
    assert.equal(created.status, 202, JSON.stringify(created.body));
    demoId = created.body.id;
    const { progress } = await rig.waitForOutcome(demoId);
    assert.equal(progress.status, 'ready', String(progress.error));
  });
  after(async () => {
    await rig?.stop();
    if (siteDir) await fs.rm(siteDir, { recursive: true, force: true });
  });

  async function deploy(): Promise<HistoryEntry> {
    const response = await rig.app.api(`/api/v1/webhooks/projects/${project.id}/refresh`, { method: 'POST', headers: { 'x-webhook-secret': project.webhook_secret } });
    assert.equal(response.status, 200, JSON.stringify(response.body));
    const jobId = response.body.jobs[0].jobId as string;
    const deadline = Date.now() + 240_000;
    for (;;) {
      const demo = (await rig.app.api(`/api/v1/demos/${demoId}`, { key: rig.user.key })).body;
      const entry = (demo.refreshHistory as HistoryEntry[]).find((h) => h.id === jobId)!;
      if (!['queued', 'running'].includes(entry.result)) return entry;
      if (Date.now() > deadline) throw new Error(`refresh ${jobId} still ${entry.result}`);
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  }

  it('keeps a print of the sign-in page with the version', async () => {
    const [row] = await rig.app.sql<{ fingerprint: string }[]>`select fingerprint from demo_versions where demo_id = ${demoId} and version = 1`;
    const print = JSON.parse(row!.fingerprint) as { pages?: Array<{ url: string; headings: string[] }> };
    assert.deepEqual(print.pages?.map((page) => new URL(page.url).pathname), ['/flow-studio/login.html'], JSON.stringify(print.pages));
    assert.ok(print.pages![0]!.headings.includes('Welcome back'));
  });

  it('a deploy that changed neither page records nothing', async () => {
    const entry = await deploy();
    assert.equal(entry.result, 'unchanged', entry.error ?? '');
    assert.deepEqual(entry.changes, []);
  });

  it('a deploy that renamed the sign-in page’s field is re-recorded, and the history names the page', async () => {
    const login = path.join(siteDir, 'flow-studio', 'login.html');
    const html = await fs.readFile(login, 'utf8');
    await fs.writeFile(login, html.replace('<label for="email">Email address</label>', '<label for="email">Work email</label>'));
    const entry = await deploy();
    assert.equal(entry.result, 'succeeded', entry.error ?? '');
    assert.ok(entry.changes?.some((change) => /^The login\.html page: 'Email address' is now 'Work email'/.test(change)), JSON.stringify(entry.changes));
    assert.equal(entry.new_version, 2);
    const demo = (await rig.app.api(`/api/v1/demos/${demoId}`, { key: rig.user.key })).body;
    const script = JSON.parse(String(demo.action_script)) as { steps: Array<{ kind: string; text?: string; url?: string }> };
    assert.ok(script.steps.some((step) => step.kind === 'type' && step.text === 'dana@example.com' && /login\.html$/.test(step.url ?? '')), 'the new recording still types the e-mail on the sign-in page');
  });
});
