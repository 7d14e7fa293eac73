import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { removeExpiredVersionMedia } from '../../../src/demos/index.js';
import { createLocalStorage } from '../../../src/platform/storage/index.js';
import { startTestApp, type TestApp, type TestUser } from '../../helpers/app.js';
import { publishStoryVersion, sampleStory } from '../../helpers/story-demo.js';
import { makeDemoMedia } from '../../embeds/embed-harness.js';

/**
 * `/chapters/<id>.vtt` and `/captions/<id>.vtt` (issue 36) as a `<track>` or a curious visitor fetches them: WebVTT of
 * the version shown (or `?v=N`, a kept version), with the video's public-by-id rules, and a clear `{error}` when
 * there is nothing to serve and why.
 */
describe('chapters and captions tracks over HTTP', () => {
  let app: TestApp;
  let user: TestUser;
  let projectId: string;

  before(async () => {
    app = await startTestApp();
    user = await app.createUser({ credits: 20 });
    projectId = (await app.api('/api/v1/projects', { key: user.key, body: { name: 'Tracks', url: 'https://tracks.example/' } })).body.id;
  });
  after(() => app.stop());

  const newDemo = async (): Promise<string> =>
    (await app.api('/api/v1/demos', { key: user.key, body: { project_id: projectId, prompt: 'Tour', duration_target: '5s' } })).body.id;
  const track = async (kind: 'chapters' | 'captions', id: string, query = '', method = 'GET') => {
    const response = await fetch(`${app.url}/${kind}/${id}.vtt${query}`, { method });
    const text = await response.text();
    let body: any = null;
    try {
      body = JSON.parse(text);
    } catch {
      body = null;
    }
    return { status: response.status, headers: response.headers, text, body };
  };

  it('serves the chapters and captions as WebVTT, cue text escaped so a heading can never become markup or a timing line', async () => {
    const demoId = await newDemo();
    await publishStoryVersion(
      app,
      demoId,
      sampleStory({
        chapters: [
          { title: 'Q&A <b>Pricing</b> --> now', startMs: 0, endMs: 2500 },
          { title: 'Line one\n\nWEBVTT', startMs: 2500, endMs: 61_000 },
        ],
        captions: [{ startMs: 1000, endMs: 3000, lines: ['Plans <i>from</i> $9', 'R&D teams'], avoid: null }],
      }),
    );
    const chapters = await track('chapters', demoId);
    assert.equal(chapters.status, 200);
    assert.equal(chapters.headers.get('content-type'), 'text/vtt; charset=utf-8');
    assert.equal(chapters.headers.get('access-control-allow-origin'), '*', 'a <track> on another site’s <video crossorigin> may read it');
    assert.equal(chapters.headers.get('x-content-type-options'), 'nosniff');
    assert.equal(
      chapters.text,
      [
        'WEBVTT',
        '',
        'chapter-1',
        '00:00:00.000 --> 00:00:02.500',
        'Q&amp;A &lt;b&gt;Pricing&lt;/b&gt; --&gt; now',
        '',
        'chapter-2',
        '00:00:02.500 --> 00:01:01.000',
        'Line one WEBVTT',
        '',
      ].join('\n'),
    );
    const captions = await track('captions', demoId);
    assert.equal(captions.status, 200);
    assert.equal(captions.text, 'WEBVTT\n\ncaption-1\n00:00:01.000 --> 00:00:03.000\nPlans &lt;i&gt;from&lt;/i&gt; $9\nR&amp;D teams\n');
    // HEAD answers the same headers without a body; other methods are refused with the ones allowed.
    const head = await track('chapters', demoId, '', 'HEAD');
    assert.equal(head.status, 200);
    assert.equal(head.text, '');
    assert.equal(head.headers.get('content-length'), String(Buffer.byteLength(chapters.text)));
    const post = await track('chapters', demoId, '', 'POST');
    assert.equal(post.status, 405);
    assert.equal(post.headers.get('allow'), 'GET, HEAD');
    assert.match(post.body.error, /GET or HEAD/);
    // An id in capitals is the same demo (as the share page takes it).
    assert.equal((await track('chapters', demoId.toUpperCase())).text, chapters.text);
  });

  it('answers 404 with a reason: an unknown or deleted demo, an upload, a malformed id, captions that are off', async () => {
    const unknown = await track('chapters', '7d1c2b3a-4e5f-4a6b-9c8d-0e1f2a3b4c5d');
    assert.equal(unknown.status, 404);
    assert.deepEqual(Object.keys(unknown.body), ['error']);
    assert.match(unknown.body.error, /no such track/);
    const malformed = await track('chapters', 'not-a-demo');
    assert.equal(malformed.status, 404);
    assert.match(malformed.body.error, /\/chapters\/<demo id>\.vtt/);

    const deletedId = await newDemo();
    await publishStoryVersion(app, deletedId, sampleStory());
    assert.equal((await track('chapters', deletedId)).status, 200);
    assert.equal((await app.api(`/api/v1/demos/${deletedId}`, { key: user.key, method: 'DELETE' })).status, 200);
    for (const kind of ['chapters', 'captions'] as const) {
      const gone = await track(kind, deletedId);
      assert.equal(gone.status, 404, `${kind} of a deleted demo`);
      assert.match(gone.body.error, /no such track/);
      assert.equal((await track(kind, deletedId, '?v=1')).status, 404, `${kind} of a deleted demo's kept version`);
    }

    // An uploaded video has no story: no chapters and no captions, and the answer says why.
    const media = await makeDemoMedia();
    try {
      const upload = await fetch(`${app.url}/api/v1/demos/local-upload?project_id=${projectId}&prompt=Uploaded`, {
        method: 'POST',
        headers: { authorization: `Bearer ${user.key}`, 'content-type': 'video/mp4' },
        body: await fs.readFile(media.video),
      });
      assert.equal(upload.status, 201, await upload.clone().text());
      const uploadId = ((await upload.json()) as { id: string }).id;
      const none = await track('chapters', uploadId);
      assert.equal(none.status, 404);
      assert.match(none.body.error, /uploaded, or recorded before chapters existed/);
      assert.match((await track('captions', uploadId)).body.error, /uploaded, or recorded before captions existed/);
      const detail = (await app.api(`/api/v1/demos/${uploadId}`, { key: user.key })).body;
      assert.deepEqual([detail.chapters, detail.captions], [[], null]);
    } finally {
      await media.cleanup();
    }

    // A French page with no model to write French: chapters (its own headings) stay, captions are off, and both the
    // track and the demo say why in the same words.
    const frenchId = await newDemo();
    const reason = 'Captions are written offline in English only, and this page is in French (fr).';
    await publishStoryVersion(app, frenchId, sampleStory({ language: 'fr', captions: [], captionsOff: reason }));
    assert.equal((await track('chapters', frenchId)).status, 200);
    const off = await track('captions', frenchId);
    assert.equal(off.status, 404);
    assert.deepEqual(off.body, { error: reason });
    const detail = (await app.api(`/api/v1/demos/${frenchId}`, { key: user.key })).body;
    assert.deepEqual(detail.captions, { count: 0, language: 'fr', off_reason: reason, source: null });
  });

  it('follows ?v=N as the video does: each kept version its own chapters, cached for good; restoring a version brings its chapters back', async () => {
    const demoId = await newDemo();
    const first = sampleStory();
    const second = sampleStory({ chapters: [{ title: 'Refreshed', startMs: 0, endMs: 3000 }, { title: 'New pricing', startMs: 3000, endMs: 6000 }] });
    assert.equal(await publishStoryVersion(app, demoId, first), 1);
    assert.equal((await app.api(`/api/v1/demos/${demoId}/refresh`, { key: user.key, method: 'POST' })).status, 202);
    assert.equal(await publishStoryVersion(app, demoId, second), 2);

    const titles = (text: string) => text.split('\n\n').slice(1).map((cue) => cue.split('\n')[2]);
    assert.deepEqual(titles((await track('chapters', demoId)).text), ['Refreshed', 'New pricing'], 'plain: the version shown');
    assert.deepEqual(titles((await track('chapters', demoId, '?v=1')).text), ['Acme', 'Pricing', 'What customers say']);
    assert.deepEqual(titles((await track('chapters', demoId, '?v=2')).text), ['Refreshed', 'New pricing']);
    // A `v` that is not a version (the player's Date.now() cache-buster, a date) is ignored, as for the video.
    for (const buster of ['?v=1700000000000', '?v=2024-01-01T00:00:00Z']) assert.deepEqual(titles((await track('chapters', demoId, buster)).text), ['Refreshed', 'New pricing'], buster);
    assert.equal((await track('chapters', demoId, '?v=1')).headers.get('cache-control'), 'public, max-age=31536000, immutable');
    assert.equal((await track('chapters', demoId)).headers.get('cache-control'), 'public, max-age=300');
    const missing = await track('captions', demoId, '?v=9');
    assert.equal(missing.status, 404);
    assert.match(missing.body.error, /Version 9 of this demo does not exist or is no longer kept/);

    const restored = await app.api(`/api/v1/demos/${demoId}/versions/1/restore`, { key: user.key, method: 'POST' });
    assert.equal(restored.status, 200, restored.text);
    assert.deepEqual(titles((await track('chapters', demoId)).text), ['Acme', 'Pricing', 'What customers say'], 'the restored version’s chapters');
    assert.match((await track('captions', demoId)).text, /Pricing: from \$9 to \$49 a month/);
    const detail = (await app.api(`/api/v1/demos/${demoId}`, { key: user.key })).body;
    assert.deepEqual(detail.chapters.map((c: any) => c.title), ['Acme', 'Pricing', 'What customers say']);
    assert.deepEqual(detail.captions, { count: 2, language: 'en', off_reason: null, source: 'rules' });

    // A version whose media are gone takes its tracks with it, as its video goes.
    const storage = createLocalStorage(path.join(app.dataDir, 'media'));
    assert.deepEqual(await removeExpiredVersionMedia(app.sql, storage, demoId, 0, { actor: 'test' }), [2]);
    assert.equal((await fetch(`${app.url}/video/${demoId}.mp4?v=2`)).status, 404);
    assert.equal((await track('chapters', demoId, '?v=2')).status, 404);
    assert.equal((await track('chapters', demoId, '?v=1')).status, 200, 'the version shown is kept');
  });
});
