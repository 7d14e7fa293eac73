import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startSpeechServer, toneMs, type SpeechServer } from '../../helpers/speech-server.js';
import { startWorkerApp, type WorkerApp } from '../../helpers/worker-app.js';
import { durationMs, integratedLoudness, streamCodecs, voicedStretches } from './audio-measure.js';

interface Narration {
  engine: string;
  voice: string;
  speed: number;
  lines: Array<{ chapter: string; text: string; start_ms: number; end_ms: number }>;
  unsaid: Array<{ chapter: string; text: string; reason: string }>;
}
interface Detail {
  chapters: Array<{ title: string; start_ms: number; end_ms: number }>;
  narration: Narration | null;
  duration_ms: number | null;
}

/** Issue 59, end to end: a demo narrated by a speech engine (a local stand-in answering /audio/speech). */
describe('a narrated demo', () => {
  let env: WorkerApp;
  let speech: SpeechServer;
  let work: string;

  before(async () => {
    speech = await startSpeechServer();
    env = await startWorkerApp({ credits: 20, env: { SHOWREEL_SPEECH: 'openai', SHOWREEL_SPEECH_BASE_URL: speech.url, SHOWREEL_SPEECH_API_KEY: 'sk-speech-test' } });
    work = await fs.mkdtemp(path.join(os.tmpdir(), 'showreel-narrated-'));
  });
  after(async () => {
    await env?.stop();
    await speech?.close();
    await fs.rm(work, { recursive: true, force: true });
  });

  const download = async (url: string, name: string) => {
    const file = path.join(work, name);
    const response = await fetch(url);
    assert.equal(response.status, 200, url);
    await fs.writeFile(file, Buffer.from(await response.arrayBuffer()));
    return file;
  };

  it('speaks one line per shot, each inside its shot and over before the next, at -16 LUFS, captioned with its words', async (t) => {
    const { app, user, sites } = env;
    const project = (await app.api('/api/v1/projects', { key: user.key, body: { name: 'SaaS', url: sites.url('saas') } })).body;
    const presentation = { narration: { enabled: true, voice: 'verse', speed: 1.1 }, aspect: ['16:9', '9:16'] };
    const created = await app.api('/api/v1/demos', {
      key: user.key,
      body: { project_id: project.id, prompt: 'Show our pricing plans', resolution: '720p', duration_target: '10s', presentation },
    });
    assert.equal(created.status, 202, JSON.stringify(created.body));
    const { progress } = await env.waitForOutcome(created.body.id);
    assert.equal(progress.status, 'ready', progress.error ?? '');

    const demo = (await app.api(`/api/v1/demos/${created.body.id}`, { key: user.key })).body as Detail;
    const narration = demo.narration;
    assert.ok(narration, 'the detail says how the demo is narrated');
    assert.equal(narration.engine, 'openai');
    assert.equal(narration.voice, 'verse');
    assert.equal(narration.speed, 1.1);
    assert.deepEqual(narration.unsaid, [], 'every line fits its shot: the shots were stretched for them');
    assert.ok(narration.lines.length >= 2, `a line for the opening and for the pricing at least: ${JSON.stringify(narration.lines)}`);
    // The engine was asked for each line, in the voice and speed asked for, with the server's key.
    for (const line of narration.lines) {
      const asked = speech.requests.find((request) => request.input === line.text);
      assert.ok(asked, `the engine spoke "${line.text}"`);
      assert.equal(asked.voice, 'verse');
      assert.equal(asked.speed, 1.1);
      assert.equal(asked.authorization, 'Bearer sk-speech-test');
    }
    // The page's own words: the pricing line names the prices the page shows, nothing more.
    const page = await (await fetch(sites.url('saas'))).text();
    for (const line of narration.lines) {
      for (const number of line.text.match(/\d[\d.,]*/g) ?? []) assert.ok(page.includes(number.replace(/[.,]+$/, '')), `"${number}" of "${line.text}" is on the page`);
    }

    const video = await download(`${app.url}/video/${created.body.id}.mp4`, 'narrated.mp4');
    assert.deepEqual(await streamCodecs(video), ['h264', 'aac']);
    // Heard: one stretch of voice per line, where the detail says, each starting inside its shot, ending before the next.
    const heard = await voicedStretches(video);
    assert.equal(heard.length, narration.lines.length, `voiced stretches ${JSON.stringify(heard)} vs lines ${JSON.stringify(narration.lines)}`);
    const chapters = demo.chapters;
    narration.lines.forEach((line, i) => {
      const voice = heard[i]!;
      const shot = chapters.findIndex((chapter) => chapter.title === line.chapter);
      assert.ok(shot >= 0, `"${line.chapter}" is a chapter`);
      const { start_ms: shotStart, end_ms: shotEnd } = chapters[shot]!;
      assert.ok(voice.startMs >= shotStart && voice.startMs < shotEnd, `line ${i} is heard from ${voice.startMs} ms, inside its shot ${shotStart}–${shotEnd}`);
      assert.ok(voice.endMs <= shotEnd, `line ${i} is over at ${voice.endMs} ms, before the next shot at ${shotEnd}`);
      assert.ok(Math.abs(voice.startMs - line.start_ms) < 80 && Math.abs(voice.endMs - line.end_ms) < 120, `heard ${voice.startMs}–${voice.endMs}, placed ${line.start_ms}–${line.end_ms}`);
      // Nothing of the line was cut: it lasts as long as the engine's words do (its silences trimmed).
      assert.ok(Math.abs(voice.endMs - voice.startMs - toneMs(line.text) / 1.0) < 120, `line ${i} is whole (${voice.endMs - voice.startMs} ms for ${toneMs(line.text)} ms of words)`);
    });
    const loudness = await integratedLoudness(video);
    t.diagnostic(`narrated ${Math.round(await durationMs(video))} ms, ${loudness} LUFS; shots ${JSON.stringify(chapters)}; lines ${JSON.stringify(narration.lines)}; heard ${JSON.stringify(heard)}`);
    assert.ok(Math.abs(loudness - -16) <= 2, `integrated loudness ${loudness} LUFS, within 2 LU of -16`);
    // The 9:16 cut speaks the same lines at the same times: the same timeline, the same track.
    const tall = await download(`${app.url}/video/${created.body.id}.mp4?aspect=9x16`, 'narrated-9x16.mp4');
    assert.deepEqual(await streamCodecs(tall), ['h264', 'aac']);
    const heardTall = await voicedStretches(tall);
    assert.deepEqual(heardTall.map((voice) => Math.round(voice.startMs / 100)), heard.map((voice) => Math.round(voice.startMs / 100)), JSON.stringify({ heardTall, heard }));

    // The captions are the spoken words, shown while they are said.
    const vtt = await (await fetch(`${app.url}/captions/${created.body.id}.vtt`)).text();
    const cues = [...vtt.matchAll(/(\d\d):(\d\d):(\d\d\.\d{3}) --> [^\n]+\n((?:[^\n]+\n?)+)/g)].map((m) => ({
      startMs: Math.round((Number(m[1]) * 3600 + Number(m[2]) * 60 + Number(m[3])) * 1000),
      text: m[4]!.trim().replace(/\s*\n\s*/g, ' '),
    }));
    assert.deepEqual(cues.map((cue) => cue.text), narration.lines.map((line) => line.text), vtt);
    assert.deepEqual(cues.map((cue) => cue.startMs), narration.lines.map((line) => line.start_ms), vtt);

    // Restyled with narration off: the same script, recorded as planned (no stretch), silent, and no narration.
    const restyled = await app.api(`/api/v1/demos/${created.body.id}/restyle`, { key: user.key, body: { presentation: { narration: { enabled: false } } } });
    assert.equal(restyled.status, 202, JSON.stringify(restyled.body));
    assert.equal((await env.waitForOutcome(created.body.id)).progress.status, 'ready');
    const silent = await download(`${app.url}/video/${created.body.id}.mp4`, 'silent.mp4');
    assert.deepEqual(await streamCodecs(silent), ['h264'], 'no sound track at all, as before narration existed');
    assert.ok(Math.abs((await durationMs(silent)) - 10_000) < 100, `the planned 10 s, not the narrated ${await durationMs(video)} ms`);
    assert.equal(((await app.api(`/api/v1/demos/${created.body.id}`, { key: user.key })).body as Detail).narration, null);
  });

  it('mixes the voice into a WebM as Opus, at -16 LUFS, with the edited line said in place of the written one', async () => {
    const { app, user, sites } = env;
    const project = (await app.api('/api/v1/projects', { key: user.key, body: { name: 'Docs', url: sites.url('docs') } })).body;
    const created = await app.api('/api/v1/demos', {
      key: user.key,
      body: { project_id: project.id, prompt: 'A quick tour of the docs', format: 'webm', resolution: '720p', duration_target: '5s' },
    });
    assert.equal(created.status, 202, JSON.stringify(created.body));
    assert.equal((await env.waitForOutcome(created.body.id)).progress.status, 'ready');
    // Its script, with the opening's line edited, then narration turned on by a restyle (nothing planned again).
    const script = (await app.api(`/api/v1/demos/${created.body.id}/narration`, { key: user.key })).body as { lines: Array<{ chapter: string; text: string }> };
    assert.ok(script.lines.length >= 1);
    const opening = script.lines[0]!.chapter;
    const edit = await app.api(`/api/v1/demos/${created.body.id}/narration`, { key: user.key, method: 'PUT', body: { lines: [{ chapter: opening, text: 'The docs, in one place' }] } });
    assert.equal(edit.status, 200);
    const before = speech.requests.length;
    const restyled = await app.api(`/api/v1/demos/${created.body.id}/restyle`, { key: user.key, body: { presentation: { narration: { enabled: true } } } });
    assert.equal(restyled.status, 202);
    const { progress, steps } = await env.waitForOutcome(created.body.id);
    assert.equal(progress.status, 'ready', progress.error ?? '');
    assert.ok(!steps.has('planning') && !steps.has('analyzing'), `a restyle plans nothing (${[...steps]})`);

    const demo = (await app.api(`/api/v1/demos/${created.body.id}`, { key: user.key })).body as Detail;
    assert.equal(demo.narration?.voice, 'alloy', 'the engine’s own voice when none is named');
    assert.equal(demo.narration?.lines[0]?.text, 'The docs, in one place.');
    assert.ok(speech.requests.slice(before).some((request) => request.input === 'The docs, in one place.'), 'the engine was asked for the edited line');
    const video = await download(`${app.url}/video/${created.body.id}.webm`, 'narrated.webm');
    assert.deepEqual(await streamCodecs(video), ['vp9', 'opus']);
    const heard = await voicedStretches(video);
    assert.equal(heard.length, demo.narration!.lines.length, JSON.stringify({ heard, lines: demo.narration!.lines }));
    const loudness = await integratedLoudness(video);
    assert.ok(Math.abs(loudness - -16) <= 2, `integrated loudness ${loudness} LUFS, within 2 LU of -16`);

    // A voice the engine does not have: the restyle fails at once with the engine's words, refunded, the video kept.
    const balance = (await app.api('/api/v1/credits', { key: user.key })).body.balance;
    const wrong = await app.api(`/api/v1/demos/${created.body.id}/restyle`, { key: user.key, body: { presentation: { narration: { enabled: true, voice: 'nobody' } } } });
    assert.equal(wrong.status, 202);
    await env.waitForOutcome(created.body.id);
    const failed = (await app.api(`/api/v1/demos/${created.body.id}`, { key: user.key })).body as Detail & { latestJob: { status: string; error: string }; version: number };
    assert.equal(failed.latestJob.status, 'failed');
    assert.match(failed.latestJob.error, /Narration failed: The speech engine answered 400: .*Unknown voice: nobody/);
    assert.equal(failed.version, 2, 'the narrated version stays');
    assert.equal((await app.api('/api/v1/credits', { key: user.key })).body.balance, balance, 'refunded');

    // A square cut added later, from the kept capture: it speaks as the video does, and costs nothing.
    const cut = await app.api(`/api/v1/demos/${created.body.id}/restyle`, { key: user.key, body: { presentation: { narration: { enabled: true }, aspect: ['16:9', '1:1'] } } });
    assert.equal(cut.status, 202, JSON.stringify(cut.body));
    const cutOutcome = await env.waitForOutcome(created.body.id);
    assert.equal(cutOutcome.progress.status, 'ready', cutOutcome.progress.error ?? '');
    assert.ok(!cutOutcome.steps.has('recording'), `nothing recorded (${[...cutOutcome.steps]})`);
    const square = await download(`${app.url}/video/${created.body.id}.webm?aspect=1x1`, 'narrated-1x1.webm');
    assert.deepEqual(await streamCodecs(square), ['vp9', 'opus']);
    assert.equal((await voicedStretches(square)).length, heard.length, 'the same lines');
    assert.equal((await app.api('/api/v1/credits', { key: user.key })).body.balance, balance, 'the cut cost nothing');
  });
});
