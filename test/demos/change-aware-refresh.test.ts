import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { auditCredits } from '../../src/credits/audit.js';
import { FIXTURE_SITES_DIR } from '../helpers/fixture-server.js';
import { startWebhookReceiver, type WebhookReceiver } from '../helpers/webhook-receiver.js';
import { startWorkerApp, type WorkerApp } from '../helpers/worker-app.js';

interface HistoryEntry {
  id: string;
  result: string;
  changes: string[] | null;
  checked_at: string | null;
  old_version: number | null;
  new_version: number | null;
  before_thumbnail_url: string | null;
  after_thumbnail_url: string | null;
  error: string | null;
}

/**
 * Issue 37, told as a site owner's deploys: a demo of a small invoicing site, refreshed by the deploy webhook after
 * each deploy. The site's files are a copy the test edits between deploys. A deploy that changed nothing the demo
 * shows costs nothing; one that changed a price, renamed a heading or removed a section is re-recorded, and the
 * history says what changed.
 */
describe('change-aware refresh: the deploy webhook re-records only what changed', () => {
  let rig: WorkerApp;
  let siteDir: string;
  let page: string;
  let project: { id: string; webhook_secret: string };
  let demoId: string;
  // The site owner's own system, told of every outcome by the project's outbound webhook.
  let receiver: WebhookReceiver;
  const outcomes = async (count: number) => JSON.parse((await receiver.waitForCall('/showreel', count, 60_000)).body) as { type: string; data: Record<string, unknown> };

  before(async () => {
    receiver = await startWebhookReceiver();
    siteDir = await fs.mkdtemp(path.join(os.tmpdir(), 'showreel-refresh-site-'));
    await fs.cp(path.join(FIXTURE_SITES_DIR, 'refreshable'), path.join(siteDir, 'refreshable'), { recursive: true });
    page = path.join(siteDir, 'refreshable', 'index.html');
    rig = await startWorkerApp({ credits: 40, sitesRoot: siteDir });
    project = (await rig.app.api('/api/v1/projects', { key: rig.user.key, body: { name: 'Tidewater', url: rig.sites.url('refreshable') } })).body;
    const created = await rig.app.api('/api/v1/demos', {
      key: rig.user.key,
      // A guided tour stops at the sections of the menu in its order: integrations, then pricing.
      body: { project_id: project.id, prompt: 'A tour of the site', duration_target: '10s', presentation: { recordingTemplate: { id: 'guided-tour' } } },
    });
    assert.equal(created.status, 202, JSON.stringify(created.body));
    demoId = created.body.id;
    const { progress } = await rig.waitForOutcome(demoId);
    assert.equal(progress.status, 'ready', String(progress.error));
    const hook = await rig.app.api(`/api/v1/projects/${project.id}/webhooks`, { key: rig.user.key, body: { url: receiver.url('/showreel'), events: ['demo.changed', 'demo.unchanged'] } });
    assert.equal(hook.status, 201, JSON.stringify(hook.body));
  });
  after(async () => {
    await rig?.stop();
    await receiver?.close();
    if (siteDir) await fs.rm(siteDir, { recursive: true, force: true });
  });

  const balance = async () => (await rig.app.api('/api/v1/credits', { key: rig.user.key })).body.balance as number;
  const edit = async (from: string | RegExp, to: string) => {
    const html = await fs.readFile(page, 'utf8');
    const edited = html.replace(from, to);
    assert.notEqual(edited, html, `the fixture has ${String(from)}`);
    await fs.writeFile(page, edited);
  };
  const shownHeadings = async (version: number) => {
    const [row] = await rig.app.sql<{ fingerprint: string | null }[]>`select fingerprint from demo_versions where demo_id = ${demoId} and version = ${version}`;
    return (JSON.parse(row!.fingerprint!) as { shots: Array<{ heading: string | null }> }).shots.map((shot) => shot.heading);
  };

  type PlanSteps = Array<{ action: string; label: string; sectionId?: string | null }>;
  const planSteps = async () => {
    const [row] = await rig.app.sql<{ ai_plan: string }[]>`select ai_plan from demos where id = ${demoId}`;
    return (JSON.parse(row!.ai_plan) as { steps: PlanSteps }).steps;
  };
  const labels = (steps: PlanSteps) => steps.map((step) => step.label);
  // The plan of the version shown before each deploy: what a changed page's refresh keeps.
  let approved: PlanSteps = [];

  /** Calls the deploy webhook as a CI job would, and waits for this demo's refresh to end. */
  async function deploy(): Promise<{ entry: HistoryEntry; demo: Record<string, unknown> }> {
    const response = await rig.app.api(`/api/v1/webhooks/projects/${project.id}/refresh`, { method: 'POST', headers: { 'x-webhook-secret': project.webhook_secret } });
    assert.equal(response.status, 200, JSON.stringify(response.body));
    return refreshEnded(response.body.jobs[0].jobId as string);
  }

  /** The owner's own refresh from the API (the dashboard's button, `showreel demos refresh`), waited for. */
  async function refreshByHand(query = ''): Promise<{ entry: HistoryEntry; demo: Record<string, unknown> }> {
    const response = await rig.app.api(`/api/v1/demos/${demoId}/refresh${query}`, { key: rig.user.key, method: 'POST' });
    assert.equal(response.status, 202, JSON.stringify(response.body));
    return refreshEnded(response.body.jobId as string);
  }

  async function refreshEnded(jobId: string): Promise<{ entry: HistoryEntry; demo: Record<string, unknown> }> {
    const deadline = Date.now() + 240_000;
    for (;;) {
      const demo = (await rig.app.api(`/api/v1/demos/${demoId}`, { key: rig.user.key })).body;
      const entry = (demo.refreshHistory as HistoryEntry[]).find((h) => h.id === jobId)!;
      if (!['queued', 'running'].includes(entry.result)) return { entry, demo };
      if (Date.now() > deadline) throw new Error(`refresh ${jobId} still ${entry.result}`);
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  }

  it('a deploy that changed nothing records nothing and charges nothing', async () => {
    const shown = await shownHeadings(1);
    // Else the edits below would change nothing the demo shows, and prove nothing.
    assert.ok(shown.includes('Integrations') && shown.includes('Pricing'), `the demo shows the integrations and the pricing: ${JSON.stringify(shown)}`);
    const credits = await balance();
    const { entry, demo } = await deploy();
    assert.equal(entry.result, 'unchanged', entry.error ?? '');
    assert.deepEqual(entry.changes, []);
    assert.ok(entry.checked_at && Date.parse(entry.checked_at) > 0, 'the history says when the page was checked');
    assert.equal(entry.new_version, null);
    assert.equal(entry.after_thumbnail_url, null);
    assert.match(entry.before_thumbnail_url ?? '', new RegExp(`/thumb/${demoId}\\.png\\?v=1$`));
    assert.equal(demo.version, 1, 'the version shown stays');
    assert.equal(demo.status, 'ready');
    assert.equal(await balance(), credits, 'no charge for a page that did not change');
    const told = await outcomes(1);
    assert.equal(told.type, 'demo.unchanged');
    assert.deepEqual(told.data.changes, []);
  });

  it('a deploy that changed a price is re-recorded, and the history names the old and the new price', async () => {
    await edit('<p class="price">$12 per user</p>', '<p class="price">$15 per user</p>');
    // The demo's plan opens with words of its own, as one the model planner or an earlier planner made would: a plan
    // today's planner would not make, so that keeping it shows (planning the page again would lose them).
    const [row] = await rig.app.sql<{ ai_plan: string }[]>`select ai_plan from demos where id = ${demoId}`;
    const plan = JSON.parse(row!.ai_plan) as { steps: PlanSteps };
    assert.equal(plan.steps[0]?.action, 'pause', JSON.stringify(plan.steps[0]));
    plan.steps[0]!.label = 'Open on Tidewater';
    await rig.app.sql`update demos set ai_plan = ${JSON.stringify(plan)} where id = ${demoId}`;
    approved = plan.steps;
    const credits = await balance();
    const { entry, demo } = await deploy();
    assert.equal(entry.result, 'succeeded', entry.error ?? '');
    assert.ok(entry.changes?.includes('Pricing: Pro $12 → $15 per user'), JSON.stringify(entry.changes));
    assert.equal(entry.new_version, 2);
    assert.match(entry.after_thumbnail_url ?? '', /\?v=2$/);
    assert.equal(demo.version, 2);
    assert.ok(await balance() < credits, 'a re-recording is charged');
    const told = await outcomes(2);
    assert.equal(told.type, 'demo.changed');
    assert.ok((told.data.changes as string[]).includes('Pricing: Pro $12 → $15 per user'), JSON.stringify(told.data));
    assert.match(String(told.data.before_thumbnail_url), /\?v=1$/);
    assert.match(String(told.data.after_thumbnail_url), /\?v=2$/);
    assert.deepEqual(await planSteps(), approved, 'the new recording plays the plan the demo was made with, step for step');
  });

  it('a deploy that renamed a heading: the demo follows the section under its new name, and nothing fails', async () => {
    await edit('<h2>Pricing</h2>', '<h2>Plans and prices</h2>');
    const { entry, demo } = await deploy();
    assert.equal(entry.result, 'succeeded', entry.error ?? '');
    assert.ok(entry.changes?.includes("Heading renamed: 'Pricing' is now 'Plans and prices'"), JSON.stringify(entry.changes));
    const shown = await shownHeadings(entry.new_version!);
    assert.ok(shown.includes('Plans and prices'), `the new recording shows the renamed section: ${JSON.stringify(shown)}`);
    const log = JSON.parse(String(demo.recording_log)) as Array<{ ok: boolean; action: string; error?: string }>;
    assert.deepEqual(log.filter((step) => !step.ok), [], 'every recorded step found its target');
    const steps = await planSteps();
    // The other steps stay as they were; the renamed section's follow it under its new name.
    assert.deepEqual(labels(steps), labels(approved).map((label) => label.replace('to "Pricing"', 'to "Plans and prices"').replace('on "Pricing"', 'on "Plans and prices"')));
    assert.equal(steps[0]?.label, 'Open on Tidewater');
    approved = steps;
  });

  it('a deploy that removed a section: its step is dropped, and the history says so', async () => {
    await edit(/<section id="integrations">[\s\S]*?<\/section>/, '');
    const { entry } = await deploy();
    assert.equal(entry.result, 'succeeded', entry.error ?? '');
    assert.ok(entry.changes?.includes('Section removed: Integrations; its step was dropped'), JSON.stringify(entry.changes));
    assert.ok(!(await shownHeadings(entry.new_version!)).includes('Integrations'));
    // Only the integrations' steps go (the menu item still names them, but leads nowhere now); the rest stays.
    assert.deepEqual(labels(await planSteps()), labels(approved).filter((label) => !label.includes('"Integrations"')));
  });

  it('a refresh asked by hand re-records the page even though nothing changed since the last deploy, and so does ?force=true', async () => {
    for (const query of ['', '?force=true']) {
      const credits = await balance();
      const before = (await rig.app.api(`/api/v1/demos/${demoId}`, { key: rig.user.key })).body.version as number;
      const { entry, demo } = await refreshByHand(query);
      assert.equal(entry.result, 'succeeded', `${query || 'plain'}: ${entry.error ?? ''}`);
      assert.equal(entry.new_version, before + 1, `${query || 'plain'}: a new version was recorded`);
      assert.equal(demo.version, before + 1);
      assert.ok(await balance() < credits, `${query || 'plain'}: a recording asked for by hand is charged`);
    }
  });

  it('a refresh asked with a force that is not true or false is a 400', async () => {
    const response = await rig.app.api(`/api/v1/demos/${demoId}/refresh?force=maybe`, { key: rig.user.key, method: 'POST' });
    assert.equal(response.status, 400);
    assert.deepEqual(response.body, { error: 'force must be true or false.' });
  });

  it('the credits audit is clean after all of it', async () => {
    const report = await auditCredits(rig.app.sql);
    assert.equal(report.summary.ok, true, JSON.stringify(report.summary));
  });
});
