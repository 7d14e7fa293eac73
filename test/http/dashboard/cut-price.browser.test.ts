import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'puppeteer-core';
import { launchBrowser } from '../../../src/pipeline/browser/launch.js';
import { startTestApp, type TestApp, type TestUser } from '../../helpers/app.js';
import { signInThroughForm } from '../../helpers/browser-sign-in.js';
import { failJob, finishJob } from '../../helpers/pipeline.js';
import { publishVariantVersion } from '../../helpers/variant-demo.js';

/**
 * A cut made from the kept capture, as a new user meets it in Chromium: the restyle button says what the change the
 * form describes costs (a cut alone is free, a new look records again), the History says a cut was made from the same
 * recording rather than "re-recorded", and the demo's page fits a phone (390 px) without scrolling sideways.
 * CUT_SHOTS=<dir> keeps the screenshots to look at.
 */
describe('the price of a cut, and its row in the History', () => {
  let app: TestApp;
  let user: TestUser;
  let browser: Browser;
  let page: Page;
  let base: string;
  let projectId: string;
  const shots = process.env.CUT_SHOTS ?? '';

  before(async () => {
    [app, browser] = await Promise.all([startTestApp(), launchBrowser({ allowPrivate: true })]);
    user = await app.createUser({ credits: 10 });
    base = new URL((await app.api('/api/v1/device/code', { body: { client_name: 'probe', scope: 'write' } })).body.verification_uri).origin;
    projectId = (await app.api('/api/v1/projects', { key: user.key, body: { name: 'Flowboard', url: 'https://flowboard.example/' } })).body.id;
    page = await (await browser.createBrowserContext()).newPage();
    page.on('pageerror', (error) => assert.fail(`page error: ${String(error)}`));
    await page.setViewport({ width: 1280, height: 900 });
    await signInThroughForm(page, base, user);
  });
  after(async () => {
    await browser?.close();
    await app?.stop();
  });

  /** A demo published once, its capture kept (so a cut alone is made from it). */
  const demoWithCapture = async () => {
    const demo = (await app.api('/api/v1/demos', { key: user.key, body: { project_id: projectId, prompt: 'Show the pricing', duration_target: '5s' } })).body as { id: string };
    await publishVariantVersion(app, demo.id, []);
    await app.sql`update demos set capture_key = ${`demos/${demo.id}/v1/capture/`} where id = ${demo.id}`;
    return demo.id;
  };
  const label = () => page.$eval('[data-restyle-submit]', (button) => button.textContent ?? '');
  const waitForLabel = async (pattern: RegExp) => {
    await page.waitForFunction((source: string) => new RegExp(source).test(document.querySelector('[data-restyle-submit]')?.textContent ?? ''), { timeout: 5000 }, pattern.source).catch(() => undefined);
    assert.match(await label(), pattern);
  };
  const shoot = async (name: string) => {
    if (!shots) return;
    await fs.mkdir(shots, { recursive: true });
    await page.screenshot({ path: path.join(shots, `${name}.png`), fullPage: true });
  };

  it('says a cut alone is free and a new look costs a credit, as the form changes', async () => {
    const demoId = await demoWithCapture();
    await page.goto(`${base}/app/demos/${demoId}/restyle`);
    await waitForLabel(/^Restyle for 1 credit$/);
    assert.equal(await page.$eval('[data-restyle-submit]', (button) => (button as HTMLButtonElement).disabled), true, 'nothing changed yet');

    await page.click('input[name=aspect_9x16]');
    await waitForLabel(/^Make the 9:16 cut — free$/);
    await page.click('input[name=aspect_1x1]');
    await waitForLabel(/^Make the 9:16 and 1:1 cuts — free$/);
    await shoot('restyle-cut-free');

    // A new look with the cuts: recorded again, so it costs the demo's price.
    await page.click('input[name=debug_hud]');
    await waitForLabel(/^Restyle for 1 credit$/);
    await page.click('input[name=debug_hud]');
    await waitForLabel(/^Make the 9:16 and 1:1 cuts — free$/);

    // The server charges what the button said: nothing for the cuts alone.
    const balance = async () => (await app.api('/api/v1/credits', { key: user.key })).body.balance as number;
    const before = await balance();
    await Promise.all([page.waitForNavigation(), page.click('[data-restyle-submit]')]);
    assert.equal(await balance(), before);
  });

  it('says a cut the kept capture cannot make records again, at its price', async () => {
    const demoId = await demoWithCapture();
    await app.sql`update demos set capture_key = null where id = ${demoId}`;
    await page.goto(`${base}/app/demos/${demoId}/restyle`);
    await page.click('input[name=aspect_9x16]');
    await waitForLabel(/^Record again with the 9:16 cut for 1 credit$/);
  });

  it('names a cut in the History, and fits a 390 px phone', async () => {
    const demoId = await demoWithCapture();
    const cut = await app.api(`/api/v1/demos/${demoId}/restyle`, { key: user.key, body: { presentation: { aspect: ['16:9', '9:16'] } } });
    assert.equal(cut.status, 202, cut.text);
    await publishVariantVersion(app, demoId, ['9:16']);
    const refresh = async () => (await app.api(`/api/v1/demos/${demoId}/refresh`, { method: 'POST', key: user.key })).body.jobId as string;
    await finishJob(app.sql, demoId, await refresh(), { changes: ['Pricing: Pro $12 → $15 per user', 'New section: Integrations and the whole marketplace of partner apps'] });
    await failJob(app.sql, demoId, await refresh());

    await page.setViewport({ width: 390, height: 844 });
    await page.goto(`${base}/app/demos/${demoId}`);
    await shoot('demo-390');
    // Nothing sideways: not the page, and not the History inside its own scroller (issue 59's walk: it was clipped).
    const widths = await page.evaluate(() => ({
      page: document.documentElement.scrollWidth,
      tables: [...document.querySelectorAll('.table-wrap')].map((wrap) => wrap.scrollWidth - wrap.clientWidth),
    }));
    assert.ok(widths.page <= 390, `the page is ${widths.page} px wide at a 390 px viewport`);
    assert.deepEqual(widths.tables, widths.tables.map(() => 0), 'each table fits its panel');
    const rows = await page.$$eval('tr[data-history]', (trs) => trs.map((tr) => (tr as HTMLElement).innerText.replace(/\s+/g, ' ').trim()));
    const cutRow = rows.find((row) => /Restyle/.test(row));
    assert.ok(cutRow, rows.join('\n'));
    assert.match(cutRow, /New cut \(9:16\) from the same recording · free/);
    assert.doesNotMatch(cutRow, /Re.recorded/);
    await page.setViewport({ width: 1280, height: 900 });
  });
});
