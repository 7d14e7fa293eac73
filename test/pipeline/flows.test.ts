import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { createBrowserPool, type BrowserPool } from '../../src/pipeline/browser/pool.js';
import { demoTitle, shownSections } from '../../src/pipeline/plan/demo-title.js';
import { ffmpegBinaries } from '../../src/pipeline/encode/ffmpeg-binaries.js';
import { measureSmoothness } from '../../src/pipeline/encode/smoothness.js';
import { pageWorkBudgetMs, type Produced, produceRecording, recordingCaptureSize, type RecordingRequest } from '../../src/pipeline/produce-recording.js';
import { startFixtureServer, type FixtureServer } from '../helpers/fixture-server.js';
import { ocrLines } from '../helpers/ocr.js';
import { heuristicPlanner } from '../helpers/recording-rig.js';

const run = promisify(execFile);

/**
 * Issue 56: "Show how a customer signs in as dana@example.com" on a site whose landing page links to its sign-in page.
 * The demo goes there: the click on "Sign in", the sign-in page, the e-mail typed, the password as dots, the cursor on
 * the submit button; the form is never submitted unless the project allows it; a restyle replays the same pages.
 */
describe('a demo that follows the prompt to another page', () => {
  let sites: FixtureServer;
  let browsers: BrowserPool;
  let work: string;
  const requests: Array<{ method: string; url: string }> = [];
  const planner = heuristicPlanner();

  before(async () => {
    sites = await startFixtureServer({ onRequest: (method, url) => requests.push({ method, url }) });
    browsers = createBrowserPool({ size: 1 });
    work = await fs.mkdtemp(path.join(os.tmpdir(), 'showreel-flows-'));
  });
  after(async () => {
    await browsers?.close();
    await sites?.close();
    if (work) await fs.rm(work, { recursive: true, force: true });
  });

  const record = async (name: string, extra: Partial<RecordingRequest>): Promise<{ produced: Produced; outFile: string; endUrl: string }> => {
    const workDir = path.join(work, name);
    await fs.mkdir(workDir, { recursive: true });
    const outFile = path.join(workDir, 'demo.mp4');
    const url = sites.url('flow-studio');
    const pageOptions = { viewport: 'desktop', resolution: '720p', allowPrivate: true, captureSize: recordingCaptureSize(null, '720p', 'desktop'), timeoutMs: pageWorkBudgetMs('10s') } as const;
    return browsers.withPage(pageOptions, async (page, ctx) => {
      await ctx.goto(url, { waitUntil: 'load' });
      const produced = await produceRecording(
        page,
        { url, prompt: 'Show how a customer signs in as dana@example.com', viewport: 'desktop', format: 'mp4', resolution: '720p', durationTarget: '10s', mode: 'script', template: { id: 'auto' }, presentation: null, outFile, workDir, ...extra },
        planner,
        () => undefined,
      );
      return { produced, outFile, endUrl: page.url() };
    });
  };

  const readAt = async (video: string, seconds: number, png: string) => {
    const { ffmpeg } = await ffmpegBinaries();
    await run(ffmpeg, ['-v', 'error', '-y', '-ss', seconds.toFixed(3), '-i', video, '-frames:v', '1', '-vf', 'scale=iw*2:-1:flags=lanczos', png]);
    return (await ocrLines(png)).map((line) => line.text.toLowerCase()).join('\n');
  };

  let first: { produced: Produced; outFile: string; endUrl: string };

  it('goes to the sign-in page, types the e-mail, and ends on the filled form with nothing submitted', async () => {
    requests.length = 0;
    first = await record('signin', {});
    const { produced, outFile, endUrl } = first;
    assert.match(endUrl, /login\.html$/, 'the recording ended on the sign-in page');
    const navigate = produced.script.steps.find((step) => step.kind === 'navigate');
    assert.ok(navigate && navigate.kind === 'navigate', 'the stored script clicks a link to another page');
    assert.equal(navigate.target.label, 'Sign in');
    const typed = produced.script.steps.filter((step) => step.kind === 'type');
    assert.ok(typed.some((step) => step.kind === 'type' && step.text === 'dana@example.com'), 'the named e-mail is typed');
    assert.ok(typed.every((step) => step.url?.endsWith('login.html')), 'the steps on the sign-in page carry its URL');
    assert.ok(produced.recording.log.some((entry) => entry.action === 'page' && entry.target?.includes('login.html')), 'the log names the page it went to');
    assert.deepEqual(requests.filter((r) => r.method !== 'GET' && r.method !== 'HEAD'), [], 'the site saw no request that changes anything');

    // The page it went to is a chapter, and what the demo is called: by the page's name, not the site's.
    const chapters = produced.story?.chapters.map((chapter) => chapter.title) ?? [];
    assert.ok(chapters.includes('Sign in'), `a chapter names the sign-in page: ${JSON.stringify(chapters)}`);
    const title = demoTitle({ shown: shownSections(produced.plan?.story ?? null, produced.story), pageTitle: produced.startOutline?.title ?? null, prompt: null });
    assert.match(title ?? '', /Sign in/, `the demo is named by where it goes: ${title}`);

    // What a viewer sees near the end: the sign-in page's heading and the e-mail typed, before the fade.
    const read = await readAt(outFile, produced.recording.durationMs / 1000 - 1.2, path.join(path.dirname(outFile), 'end.png'));
    assert.match(read, /welcome back/, `the sign-in page is on screen at the end; read: ${read}`);
    assert.match(read, /dana@example\.com/, `the typed e-mail is readable; read: ${read}`);

    // No blank or repeated-while-moving frame at the page change.
    const smooth = await measureSmoothness(outFile);
    assert.ok(smooth.stallRatio <= 0.02, `stall ratio ${smooth.stallRatio}`);
  });

  it("closes a flow's end card on the site's name, not on the page it ended on", async () => {
    const { produced, outFile } = await record('end-card', { presentation: { endCard: { enabled: true } } });
    const read = await readAt(outFile, produced.recording.durationMs / 1000 - 0.9, path.join(path.dirname(outFile), 'card.png'));
    assert.match(read, /northwind studio/, `the card names the studio; read: ${read}`);
  });

  it('replays the stored flow on a restyle, to the same final page', async () => {
    const { produced } = first;
    const workDir = path.join(work, 'restyle');
    await fs.mkdir(workDir, { recursive: true });
    const outFile = path.join(workDir, 'demo.mp4');
    const url = sites.url('flow-studio');
    const pageOptions = { viewport: 'desktop', resolution: '720p', allowPrivate: true, captureSize: recordingCaptureSize(null, '720p', 'desktop'), timeoutMs: pageWorkBudgetMs('10s') } as const;
    const replayed = await browsers.withPage(pageOptions, async (page, ctx) => {
      await ctx.goto(url, { waitUntil: 'load' });
      const again = await produceRecording(
        page,
        { url, prompt: '', viewport: 'desktop', format: 'mp4', resolution: '720p', durationTarget: '10s', mode: 'script', template: { id: 'auto' }, presentation: null, outFile, workDir, storedScript: produced.script, storedPlan: produced.plan },
        planner,
        () => undefined,
      );
      return { again, endUrl: page.url() };
    });
    assert.match(replayed.endUrl, /login\.html$/);
    assert.equal(Math.round(replayed.again.recording.durationMs / 100), Math.round(produced.recording.durationMs / 100), 'as long as the first recording');
    const read = await readAt(outFile, replayed.again.recording.durationMs / 1000 - 1.2, path.join(workDir, 'end.png'));
    assert.match(read, /dana@example\.com/, `the restyle shows the typed e-mail too; read: ${read}`);
  });

  /** A small app (the to-do app unless named) recorded with the prompt, and the rows its list holds at the end. */
  const recordTodo = async (name: string, prompt: string, app = { site: 'flow-todo', rows: '.todo-list li' }) => {
    const workDir = path.join(work, name);
    await fs.mkdir(workDir, { recursive: true });
    const outFile = path.join(workDir, 'demo.mp4');
    const url = sites.url(app.site);
    const pageOptions = { viewport: 'desktop', resolution: '720p', allowPrivate: true, captureSize: recordingCaptureSize(null, '720p', 'desktop'), timeoutMs: pageWorkBudgetMs('10s') } as const;
    const made = await browsers.withPage(pageOptions, async (page, ctx) => {
      await ctx.goto(url, { waitUntil: 'load' });
      const produced = await produceRecording(
        page,
        { url, prompt, viewport: 'desktop', format: 'mp4', resolution: '720p', durationTarget: '10s', mode: 'script', template: { id: 'auto' }, presentation: null, outFile, workDir },
        planner,
        () => undefined,
      );
      return { produced, rows: await page.evaluate((rows: string) => [...document.querySelectorAll(rows)].map((li) => li.textContent?.trim()), app.rows) };
    });
    return { ...made, outFile, workDir };
  };

  it("does an app's own actions in order: adds three tasks, ticks one off, clears the finished ones", async () => {
    const { produced, rows, outFile, workDir } = await recordTodo('todo', 'Add three tasks: buy milk, walk the dog and call mum, tick off the first one, then clear the finished ones');
    assert.deepEqual(rows, ['walk the dog', 'call mum'], 'the first task was ticked off and cleared; the others stay');
    assert.ok(produced.recording.log.every((entry) => entry.ok), JSON.stringify(produced.recording.log.filter((entry) => !entry.ok)));
    const read = await readAt(outFile, 5.5, path.join(workDir, 'middle.png'));
    assert.match(read, /buy milk/, `the first task is on screen once typed; read: ${read}`);
  });

  it('edits a task in place: its words double-clicked, typed over, and kept', async () => {
    const { produced, rows, outFile, workDir } = await recordTodo('todo-edit', 'Add a task "send the invoice", then edit it to read "send the March invoice"');
    assert.deepEqual(rows, ['send the March invoice'], 'the one task now reads as asked');
    assert.ok(produced.recording.log.every((entry) => entry.ok), JSON.stringify(produced.recording.log.filter((entry) => !entry.ok)));
    // A moment after the edit, while the list is held.
    const edited = produced.recording.timeline.steps.find((step) => step.label.startsWith('Edit'));
    assert.ok(edited, JSON.stringify(produced.recording.timeline.steps.map((step) => step.label)));
    const read = await readAt(outFile, (edited.endMs + 1200) / 1000, path.join(workDir, 'end.png'));
    assert.match(read, /march/, `the edited task is on screen at the end; read: ${read}`);
  });

  it("sets a reminder's time and date: types the hour and minute, picks the day and month from their lists, presses Add", async () => {
    const { produced, rows } = await recordTodo('reminder', 'Remind me to call the plumber at 6:15 pm on 3 March', { site: 'flow-reminders', rows: '#reminders li' });
    assert.deepEqual(rows, ['call the plumber — 18:15, 3 Mar 2026'], 'the reminder was added with its time and date (the year left as the form had it)');
    assert.ok(produced.recording.log.every((entry) => entry.ok), JSON.stringify(produced.recording.log.filter((entry) => !entry.ok)));
    // (Opening the browser's own list stalled the frame clock for good and failed the recording: the log above.)
  });

  /** A site's page recorded with the prompt: what was made, and the address the page ended on. */
  const recordOn = async (name: string, url: string, prompt: string) => {
    const workDir = path.join(work, name);
    await fs.mkdir(workDir, { recursive: true });
    const outFile = path.join(workDir, 'demo.mp4');
    const pageOptions = { viewport: 'desktop', resolution: '720p', allowPrivate: true, captureSize: recordingCaptureSize(null, '720p', 'desktop'), timeoutMs: pageWorkBudgetMs('10s') } as const;
    const { produced, endUrl } = await browsers.withPage(pageOptions, async (page, ctx) => {
      await ctx.goto(url, { waitUntil: 'load' });
      const made = await produceRecording(
        page,
        { url, prompt, viewport: 'desktop', format: 'mp4', resolution: '720p', durationTarget: '10s', mode: 'script', template: { id: 'auto' }, presentation: null, outFile, workDir },
        planner,
        () => undefined,
      );
      return { produced: made, endUrl: page.url() };
    });
    return { produced, endUrl, outFile, workDir };
  };

  it('sends a GET sign-in form when the prompt goes on past it, and shows the page it answers', async () => {
    requests.length = 0;
    const { produced, endUrl, outFile, workDir } = await recordOn('console', sites.url('flow-console'), 'Log in with dana@example.com and land on the quarterly revenue report');
    assert.match(endUrl, /dashboard\.html\?email=dana%40example\.com/, 'the form was sent as the page writes it: a GET, which changes nothing');
    assert.deepEqual(requests.filter((r) => r.method !== 'GET'), []);
    assert.deepEqual(produced.warnings, [], 'the report the prompt lands on is found');
    const read = await readAt(outFile, produced.recording.durationMs / 1000 - 1.6, path.join(workDir, 'end.png'));
    assert.match(read, /quarterly revenue report/, `the flow ends on the page the form answers; read: ${read}`);
  });

  it('opens a closed menu on camera to reach a link inside it', async () => {
    const { produced, endUrl } = await recordOn('menu', sites.url('flow-menu'), 'Show how a customer logs in as dana@example.com');
    const kinds = produced.script.steps.map((step) => `${step.kind}:${step.label}`);
    const opened = kinds.findIndex((k) => k === 'click:Open the menu "Account ▾"');
    const followed = kinds.findIndex((k) => k.startsWith('navigate:Open "Log in"'));
    assert.ok(opened >= 0 && followed > opened, `the menu is opened, then its link followed: ${kinds.join(' | ')}`);
    assert.match(endUrl, /flow-menu\/login\.html$/);
  });

  it("opens a CSS dropdown by resting the pointer on its link, which a click would follow, to reach a link inside it", async () => {
    const { produced, endUrl } = await recordOn('hovermenu', `${sites.url('flow-hovermenu')}index.html`, 'Show how a member logs in as dana@example.com');
    const kinds = produced.script.steps.map((step) => `${step.kind}:${step.label}`);
    const opened = kinds.findIndex((k) => k === 'hover:Open the menu "Categories ▾"');
    const followed = kinds.findIndex((k) => k.startsWith('navigate:Open "Log in"'));
    assert.ok(opened >= 0 && followed > opened, `the dropdown is hovered open, then its link followed: ${kinds.join(' | ')}`);
    assert.match(endUrl, /flow-hovermenu\/login\.html$/);
  });

  it('submits the form when the project allows it', async () => {
    requests.length = 0;
    await record('allowed', { allowSubmit: true });
    assert.ok(requests.some((r) => r.method === 'POST' && r.url.startsWith('/flow-studio/session')), `the sign-in was posted: ${JSON.stringify(requests.filter((r) => r.method !== 'GET'))}`);
  });
});
