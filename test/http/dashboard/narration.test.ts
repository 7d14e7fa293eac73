import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { completeDemoJob, startDemoJob } from '../../../src/demos/index.js';
import { inTransaction } from '../../../src/platform/command.js';
import type { StoryText } from '../../../src/pipeline/story-text/types.js';
import { startTestApp, type TestApp, type TestUser } from '../../helpers/app.js';
import { startSpeechServer, type SpeechServer } from '../../helpers/speech-server.js';

const story: StoryText = {
  language: 'en',
  captionsOff: null,
  beats: [
    { kind: 'opening', stepLabel: null, sectionId: 'hero', title: 'Flowboard', caption: ['Plan, track and ship work'], captionBy: 'rules' },
    { kind: 'section', stepLabel: 'Show "Pricing"', sectionId: 'pricing', title: 'Simple <pricing>', caption: ['Simple pricing: $0 to $29'], captionBy: 'rules' },
  ],
};

/** Issue 59 in the dashboard, as a browser without script uses it: the script on the demo page, narration in restyle. */
describe('narration in the dashboard', () => {
  let app: TestApp;
  let speech: SpeechServer;
  let ada: TestUser;
  let origin: string;
  let cookie: string;
  let csrf: string;

  before(async () => {
    speech = await startSpeechServer();
    app = await startTestApp({ SHOWREEL_SPEECH: 'openai', SHOWREEL_SPEECH_BASE_URL: speech.url });
    ada = await app.createUser({ email: 'ada@example.com', credits: 10 });
    origin = new URL((await app.api('/api/v1/device/code', { body: { client_name: 'probe', scope: 'write' } })).body.verification_uri).origin;
    const signedIn = await post('/app/sign-in', [['email', ada.email], ['password', ada.password]], '');
    cookie = (signedIn.headers.get('set-cookie') ?? '').split(';')[0]!;
    csrf = /name="csrf" value="([^"]+)"/.exec(await (await get('/app/')).text())![1]!;
  });
  after(async () => {
    await app?.stop();
    await speech?.close();
  });

  function post(path: string, fields: Array<[string, string]>, withCookie = cookie) {
    return fetch(`${app.url}${path}`, {
      method: 'POST', redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin, cookie: withCookie },
      body: new URLSearchParams(fields).toString(),
    });
  }
  const get = (path: string) => fetch(`${app.url}${path}`, { redirect: 'manual', headers: { cookie } });
  const page = async (path: string) => {
    const response = await get(path);
    assert.equal(response.status, 200, path);
    return response.text();
  };

  async function readyDemo(): Promise<string> {
    const project = (await app.api('/api/v1/projects', { key: ada.key, body: { name: 'Flowboard', url: 'https://flow.example/' } })).body;
    const id = (await app.api('/api/v1/demos', { key: ada.key, body: { project_id: project.id, prompt: 'Show the pricing', duration_target: '10s' } })).body.id as string;
    const [demo] = await app.sql<{ latest_job_id: string }[]>`select latest_job_id from demos where id = ${id}`;
    await inTransaction(app.sql, async (tx) => {
      await startDemoJob(tx, id, demo!.latest_job_id, 1, { actor: 'pipeline' });
      await completeDemoJob(
        tx,
        { demoId: id, jobId: demo!.latest_job_id, videoKey: `${id}/v1.mp4`, thumbnailKey: null, gifKey: null, durationMs: 10_000, actionScript: '{"version":1,"steps":[]}', aiPlan: JSON.stringify({ steps: [], story }) },
        { actor: 'pipeline' },
      );
    });
    return id;
  }

  it('shows the script on the demo page, one field a chapter, and saves an edit from it', async () => {
    const id = await readyDemo();
    const before = await page(`/app/demos/${id}`);
    assert.match(before, /<h2>Narration script<\/h2>/);
    assert.match(before, /This version is not narrated/);
    assert.match(before, /<label for="n-line-1">Simple &lt;pricing&gt;<\/label>/, 'the chapter’s title, escaped');
    assert.match(before, /name="line" maxlength="84" value="Simple pricing: \$0 to \$29\."/);

    const saved = await post(`/app/demos/${id}/narration`, [['csrf', csrf], ['chapter', 'Flowboard'], ['line', 'Plan, track and ship work.'], ['chapter', 'Simple <pricing>'], ['line', 'Three plans, from free']]);
    assert.equal(saved.status, 303);
    const after = await page(saved.headers.get('location')!);
    assert.match(after, /Narration script saved/);
    assert.match(after, /Simple &lt;pricing&gt; <span class="muted small">\(yours\)<\/span>/);
    assert.match(after, /value="Three plans, from free\."/);
    const script = (await app.api(`/api/v1/demos/${id}/narration`, { key: ada.key })).body;
    assert.deepEqual(script.lines.map((line: { by: string }) => line.by), ['rules', 'user']);
    assert.equal((await post(`/app/demos/${id}/narration`, [['chapter', 'Flowboard'], ['line', 'x']])).status, 403, 'no CSRF token, no edit');
  });

  it('offers narration in the restyle form, with the voices and a line to hear, and restyles with it on', async () => {
    const id = await readyDemo();
    const form = await page(`/app/demos/${id}/restyle`);
    assert.match(form, /<legend>Narration<\/legend>/);
    assert.match(form, /<datalist id="narration-voices">.*<option value="nova">/s);
    assert.match(form, new RegExp(`formaction="/app/demos/${id}/narration/preview.wav" formmethod="get"`));

    const heard = await get(`/app/demos/${id}/narration/preview.wav?narration_voice=nova&narration_speed=1.1&csrf=x`);
    assert.equal(heard.status, 200);
    assert.equal(heard.headers.get('content-type'), 'audio/wav');
    const wav = Buffer.from(await heard.arrayBuffer());
    assert.equal(wav.toString('ascii', 0, 4), 'RIFF');
    assert.deepEqual({ ...speech.requests.at(-1), model: undefined }, { model: undefined, input: 'Plan, track and ship work.', voice: 'nova', speed: 1.1, response_format: 'wav' });

    const restyled = await post(`/app/demos/${id}/restyle`, [['csrf', csrf], ['bg_kind', 'gradient'], ['bg_from', '#4f46e5'], ['bg_to', '#db2777'], ['bg_angle', '135'], ['mockup', 'macos-light'], ['zoom_enabled', 'on'], ['intro', 'on'], ['narration_enabled', 'on'], ['narration_voice', 'nova'], ['narration_speed', '1']]);
    assert.equal(restyled.status, 303, await restyled.text());
    const [job] = await app.sql<{ presentation: string }[]>`select j.presentation from demo_jobs j join demos d on d.latest_job_id = j.id where d.id = ${id}`;
    assert.deepEqual(JSON.parse(job!.presentation).narration, { enabled: true, voice: 'nova', speed: 1 });
  });
});
