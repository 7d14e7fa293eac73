import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { after, before, describe, it } from 'node:test';
import { ffmpegBinaries } from '../../src/pipeline/encode/ffmpeg-binaries.js';
import { probeVideo } from '../../src/pipeline/encode/probe.js';
import { mainShotMs } from '../../src/pipeline/compose/main-shot.js';
import type { InteractionTimeline, MainShot } from '../../src/pipeline/types.js';
import type { StoryText } from '../../src/pipeline/story-text/types.js';
import { autoSelectionSchema } from '../../src/demos/presentation.js';
import type { TestApp, TestUser } from '../helpers/app.js';
import type { FixtureServer } from '../helpers/fixture-server.js';
import { startWorkerApp, type WorkerApp } from '../helpers/worker-app.js';
import { ocrLines } from '../helpers/ocr.js';
import { frameAt, frameDetail, frameDifference } from '../helpers/video-frames.js';

/** End to end through the API: a real worker records a real fixture site with a real browser and ffmpeg. */
describe('generating a demo of a landing page', () => {
  let env: WorkerApp;
  let app: TestApp;
  let user: TestUser;
  let sites: FixtureServer;
  let work: string;

  before(async () => {
    env = await startWorkerApp({ credits: 20 });
    ({ app, user, sites } = env);
    work = await fs.mkdtemp(path.join(os.tmpdir(), 'showreel-e2e-'));
  });
  after(async () => {
    await env.stop();
    await fs.rm(work, { recursive: true, force: true });
  });
  const waitForOutcome = (demoId: string) => env.waitForOutcome(demoId);

  it('records the pricing of a SaaS page: a 10 s, 30 fps, 720p H.264 video that really moves', async () => {
    const project = (await app.api('/api/v1/projects', { key: user.key, body: { name: 'SaaS', url: sites.url('saas') } })).body;
    const created = (await app.api('/api/v1/demos', {
      key: user.key,
      body: { project_id: project.id, prompt: 'Show our pricing plans', resolution: '720p', duration_target: '10s' },
    })).body;
    const { progress, steps } = await waitForOutcome(created.id);
    assert.equal(progress.status, 'ready', progress.error ?? '');
    for (const step of ['analyzing', 'planning', 'recording']) assert.ok(steps.has(step) || steps.has('ready'), `saw ${[...steps]}`);

    const demo = (await app.api(`/api/v1/demos/${created.id}`, { key: user.key })).body;
    assert.equal(demo.version, 1);
    assert.ok(demo.title);
    assert.deepEqual(demo.warnings, [], 'the page has the pricing the prompt asks for: no warning');
    const presentation = JSON.parse(demo.presentation);
    assert.equal(presentation.recordingTemplate.id, 'auto');
    assert.equal(presentation.recordingTemplate.effectiveId, 'pricing-focus');
    assert.ok(autoSelectionSchema.safeParse(presentation.recordingTemplate.autoSelection).success);
    const script = JSON.parse(demo.action_script);
    assert.ok(script.steps.length > 2);
    assert.ok(JSON.parse(demo.ai_plan).steps.length > 0);
    assert.ok(JSON.parse(demo.snapshots).length > 0);
    const log = JSON.parse(demo.recording_log) as Array<{ ok: boolean; startMs: number; endMs: number }>;
    assert.ok(log.length > 0 && log.every((entry) => entry.endMs >= entry.startMs));
    // The service checked its own take: the last entry says how long the framed pricing was readable.
    const check = log.at(-1) as unknown as { action: string; ok: boolean; target: string };
    assert.equal(check.action, 'check');
    assert.match(check.target, /readable: ".+" \d+\.\d s \(bar \d\.\d s\)/);

    const file = path.join(work, 'saas.mp4');
    const response = await fetch(`${app.url}/video/${demo.id}.mp4`);
    assert.equal(response.status, 200);
    await fs.writeFile(file, Buffer.from(await response.arrayBuffer()));
    const info = await probeVideo(file);
    assert.equal(info.codec, 'h264');
    assert.equal(info.width, 1280);
    assert.equal(info.height, 720);
    assert.ok(Math.abs((info.fps ?? 0) - 30) < 0.5, `fps ${info.fps}`);
    assert.ok(Math.abs((info.durationMs ?? 0) - 10_000) <= 1000, `duration ${info.durationMs}`);

    const frames = await Promise.all([0.3, 2.5, 5, 7.5, 9.5].map((t) => frameAt(file, t)));
    for (const frame of frames) assert.ok(frameDetail(frame) > 5, 'no blank frames');
    assert.ok(frameDifference(frames[0]!, frames[4]!) > 5, 'the page really moves between the first and last second');

    // The pricing section the prompt names is on screen at some point: the plan scrolls to it, and the recorded
    // timeline (stored beside the video for the compositor) shows the page reaching it.
    const planSteps = JSON.parse(demo.ai_plan).steps as Array<{ action: string; sectionId?: string | null; toY?: number }>;
    // The scroll that arrives there: to the section's top, or (pricing-focus) a little below it so the heading and
    // the tiers' buttons share a screen.
    const framed = planSteps.findIndex((s) => s.action === 'focus' && s.sectionId === 'pricing');
    const toPricing = planSteps.slice(0, Math.max(0, framed)).findLast((s) => s.action === 'scroll');
    assert.ok(toPricing, JSON.stringify(planSteps.map((s) => [s.action, s.sectionId])));
    const timeline = JSON.parse(await fs.readFile(path.join(app.dataDir, 'media', 'demos', demo.id, 'v1', 'timeline.json'), 'utf8')) as { scrolls: Array<{ y: number }> };
    const deepest = Math.max(...timeline.scrolls.map((s) => s.y));
    assert.ok(deepest >= (toPricing.toY ?? 0) - 100, `scrolled to ${deepest}, pricing at ${toPricing.toY}`);
    assert.equal((await fetch(`${app.url}/gif/${demo.id}.gif`)).status, 200);

    // Demos can be told apart (issue 35): the title names the section shown, not the page's <title>; and (issue 55)
    // in the page's words, short, without the prompt. The thumbnail is a frame of the pricing shot, not of the hero
    // every demo of this page opens on.
    const pricingBeat = (JSON.parse(demo.ai_plan) as { story: StoryText }).story.beats.find((beat) => beat.sectionId === 'pricing');
    assert.ok(pricingBeat, 'the pricing section is a beat of the story');
    assert.equal(demo.title, pricingBeat.title);
    assert.ok(demo.title.length <= 60 && !/show our pricing plans/i.test(demo.title), demo.title);
    assert.ok(!demo.title.startsWith('Flowboard'), demo.title);
    const mainShot = JSON.parse(demo.ai_plan).mainShot as MainShot;
    assert.equal(mainShot.sectionId, 'pricing');
    const thumbnail = await fetch(`${app.url}/thumb/${demo.id}.png`);
    assert.equal(thumbnail.status, 200);
    const thumbFile = path.join(work, 'saas-thumb.png');
    await fs.writeFile(thumbFile, Buffer.from(await thumbnail.arrayBuffer()));
    const atMs = mainShotMs(timeline as unknown as InteractionTimeline, mainShot)!;
    const thumbFrame = await frameAt(thumbFile, 0);
    const [shotFrame, heroFrame] = await Promise.all([frameAt(file, atMs / 1000), frameAt(file, 1)]);
    assert.ok(frameDifference(thumbFrame, shotFrame) < 3, `the thumbnail is the frame at ${atMs} ms`);
    assert.ok(frameDifference(thumbFrame, heroFrame) > 5, 'the thumbnail is not the opening frame');
  });

  it('restyles from the stored script without planning again, as version 2', async () => {
    const project = (await app.api('/api/v1/projects', { key: user.key, body: { name: 'Docs', url: sites.url('docs') } })).body;
    const created = (await app.api('/api/v1/demos', {
      key: user.key,
      body: { project_id: project.id, prompt: 'A quick tour of the docs', resolution: '720p', duration_target: '5s' },
    })).body;
    assert.equal((await waitForOutcome(created.id)).progress.status, 'ready');
    const before = (await app.api(`/api/v1/demos/${created.id}`, { key: user.key })).body;

    const download = async (name: string) => {
      const response = await fetch(`${app.url}/video/${created.id}.mp4`);
      assert.equal(response.status, 200);
      const file = path.join(os.tmpdir(), `showreel-restyle-${created.id}-${name}.mp4`);
      await fs.writeFile(file, Buffer.from(await response.arrayBuffer()));
      return file;
    };
    const v1 = await download('v1');
    const red = (rgb: Buffer) => rgb[0]! > 200 && rgb[1]! < 60 && rgb[2]! < 60;
    assert.ok(!red(await frameAt(v1, 2.5, 1, 1)), 'the default background is no red');

    // Captions burned in too: a restyle turns them on without planning again (issue 36).
    const presentation = { mockup: 'macos-dark', background: '#ff0000', padding: 0.2, zoom: { enabled: false }, captions: { burnIn: true, position: 'bottom', style: 'bar' } };
    const restyle = await app.api(`/api/v1/demos/${created.id}/restyle`, { key: user.key, body: { presentation } });
    assert.equal(restyle.status, 202);
    const { progress, steps } = await waitForOutcome(created.id);
    assert.equal(progress.status, 'ready', progress.error ?? '');
    assert.ok(!steps.has('planning') || steps.has('recording'));
    const after = (await app.api(`/api/v1/demos/${created.id}`, { key: user.key })).body;
    assert.equal(after.version, 2);
    assert.equal(after.action_script, before.action_script, 'same script');
    assert.equal(after.ai_plan, before.ai_plan, 'no new plan');
    assert.equal(after.refreshHistory[0].triggered_by, 'restyle');
    assert.equal(after.refreshHistory[0].result, 'succeeded');
    // The new presentation is what the new version looks like: red around a dark window.
    const v2 = await download('v2');
    const corner = await frameAt(v2, 2.5, 64, 36);
    assert.ok(red(corner.subarray(0, 3)), `a red corner, not ${[...corner.subarray(0, 3)]}`);
    assert.equal(JSON.parse(after.presentation).background, '#ff0000');
    assert.deepEqual(JSON.parse(after.presentation).recordingTemplate, JSON.parse(before.presentation).recordingTemplate, 'the planned template stays on record');
    // The captions the first recording wrote are now in the picture: the first cue is read where it shows.
    const vtt = await (await fetch(`${app.url}/captions/${created.id}.vtt?v=2`)).text();
    const cue = /(\d\d):(\d\d):(\d\d\.\d{3}) --> (\d\d):(\d\d):(\d\d\.\d{3})\n([^\n]+)/.exec(vtt);
    assert.ok(cue, `the restyled demo has captions: ${vtt}`);
    const seconds = (h: string, m: string, s: string) => Number(h) * 3600 + Number(m) * 60 + Number(s);
    const midS = (seconds(cue[1]!, cue[2]!, cue[3]!) + seconds(cue[4]!, cue[5]!, cue[6]!)) / 2;
    const png = path.join(work, 'restyled-caption.png');
    await promisify(execFile)((await ffmpegBinaries()).ffmpeg, ['-v', 'error', '-y', '-ss', midS.toFixed(3), '-i', v2, '-frames:v', '1', png]);
    const words = (text: string) => text.toLowerCase().split(/\s+/).map((w) => w.replace(/[^\p{L}\d]/gu, '')).filter(Boolean);
    const want = words(cue[7]!);
    // Below the window (padding 0.2 leaves the frame's lowest fifth to the background), where only the caption bar is.
    const read = (await ocrLines(png)).filter((line) => line.y > 720 * 0.82).map((line) => words(line.text));
    assert.ok(read.some((got) => want.filter((w) => got.includes(w)).length / want.length >= 0.6), `"${cue[7]}" is read at ${midS.toFixed(2)} s in the restyled video: ${JSON.stringify(read)}`);
    await fs.rm(v1, { force: true });
    await fs.rm(v2, { force: true });
  });

  it('names the address that answered 404: the project URL, or the page an embed sits on', async () => {
    const project = (await app.api('/api/v1/projects', { key: user.key, body: { name: 'Gone', url: `${sites.origin}/no-such-site/` } })).body;
    const created = (await app.api('/api/v1/demos', { key: user.key, body: { project_id: project.id, prompt: 'Tour', duration_target: '5s', resolution: '720p' } })).body;
    assert.equal((await waitForOutcome(created.id)).progress.error, 'The page answered HTTP 404; check the project URL.');

    const site = (await app.api('/api/v1/projects', { key: user.key, body: { name: 'Shop', url: sites.url('saas') } })).body;
    const pub = (await app.api('/api/v1/api-keys', { key: user.key, body: { type: 'publishable', allowed_domains: ['127.0.0.1'] } })).body.key;
    const embed = await app.api('/api/v1/embed/generate', {
      headerKey: pub, headers: { origin: sites.origin }, body: { project_id: site.id, prompt: 'Tour', context: { url: `${sites.origin}/saas/moved-away.html` } },
    });
    assert.equal(embed.status, 202, embed.text);
    assert.equal((await waitForOutcome(embed.body.demoId)).progress.error, 'The page answered HTTP 404; check the embedding page.');
  });

  it('fails with an actionable error and refunds when the site is down', async () => {
    const closedPort = await new Promise<number>((resolve) => {
      const probe = net.createServer().listen(0, '127.0.0.1', () => {
        const { port } = probe.address() as net.AddressInfo;
        probe.close(() => resolve(port));
      });
    });
    const project = (await app.api('/api/v1/projects', { key: user.key, body: { name: 'Down', url: `http://127.0.0.1:${closedPort}/` } })).body;
    const balance = (await app.api('/api/v1/credits', { key: user.key })).body.balance;
    const created = (await app.api('/api/v1/demos', { key: user.key, body: { project_id: project.id, prompt: 'Tour', duration_target: '5s', resolution: '720p' } })).body;
    const { progress } = await waitForOutcome(created.id);
    assert.equal(progress.status, 'failed');
    assert.match(progress.error ?? '', /refused the connection|could not be reached|could not be opened|did not load/);
    assert.equal((await app.api('/api/v1/credits', { key: user.key })).body.balance, balance);
  });
});
