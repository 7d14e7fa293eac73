import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { completeDemoJob, startDemoJob } from '../../../src/demos/index.js';
import { inTransaction } from '../../../src/platform/command.js';
import type { StoryText } from '../../../src/pipeline/story-text/types.js';
import { startTestApp, type TestApp, type TestUser } from '../../helpers/app.js';

const story: StoryText = {
  language: 'en',
  captionsOff: null,
  beats: [
    { kind: 'opening', stepLabel: null, sectionId: 'hero', title: 'Flowboard', caption: ['Plan, track and ship work'], captionBy: 'rules' },
    { kind: 'section', stepLabel: 'Show "Pricing"', sectionId: 'pricing', title: 'Simple pricing', caption: ['Simple pricing: $0 to $29'], captionBy: 'rules' },
    { kind: 'section', stepLabel: 'Show "FAQ"', sectionId: 'faq', title: 'Frequently asked questions', caption: null },
  ],
};

/**
 * Issue 59: the narration script is stored with the demo, shown and edited through the API; the next recording says
 * it (the pipeline reads the stored edits: test/pipeline/narration/script.test.ts has the writer's side).
 */
describe('a demo’s narration script over the API', () => {
  let app: TestApp;
  let user: TestUser;
  let projectId: string;

  before(async () => {
    app = await startTestApp();
    user = await app.createUser({ credits: 20 });
    projectId = (await app.api('/api/v1/projects', { key: user.key, body: { name: 'Voice', url: 'https://voice.example/' } })).body.id;
  });
  after(() => app.stop());

  /** A demo whose first recording finished with this plan's story (what the worker stores). */
  const readyDemo = async (): Promise<string> => {
    const id = (await app.api('/api/v1/demos', { key: user.key, body: { project_id: projectId, prompt: 'Tour', duration_target: '5s' } })).body.id as string;
    const [demo] = await app.sql<{ latest_job_id: string }[]>`select latest_job_id from demos where id = ${id}`;
    await inTransaction(app.sql, async (tx) => {
      await startDemoJob(tx, id, demo!.latest_job_id, 1, { actor: 'pipeline' });
      await completeDemoJob(
        tx,
        { demoId: id, jobId: demo!.latest_job_id, videoKey: `${id}/v1.mp4`, thumbnailKey: null, gifKey: null, durationMs: 5000, actionScript: '{"steps":[]}', aiPlan: JSON.stringify({ steps: [], story }) },
        { actor: 'pipeline' },
      );
    });
    return id;
  };

  it('shows the lines the next recording says, edits some, keeps the rest the rules’, and goes back on an empty list', async () => {
    const id = await readyDemo();
    const shown = await app.api(`/api/v1/demos/${id}/narration`, { key: user.key });
    assert.equal(shown.status, 200, JSON.stringify(shown.body));
    assert.deepEqual(shown.body, {
      edited: false,
      lines: [
        { chapter: 'Flowboard', text: 'Plan, track and ship work.', by: 'rules' },
        { chapter: 'Simple pricing', text: 'Simple pricing: $0 to $29.', by: 'rules' },
        { chapter: 'Frequently asked questions', text: 'Frequently asked questions.', by: 'rules' },
      ],
    });

    // The whole script sent back with one line changed and one emptied: only those two are kept as the user's.
    const edited = await app.api(`/api/v1/demos/${id}/narration`, {
      key: user.key,
      method: 'PUT',
      body: {
        lines: [
          { chapter: 'Flowboard', text: 'Plan, track and ship work.' },
          { chapter: 'Simple pricing', text: '  Three plans, from free ' },
          { chapter: 'Frequently asked questions', text: '' },
        ],
      },
    });
    assert.equal(edited.status, 200, JSON.stringify(edited.body));
    assert.deepEqual(edited.body.lines, [
      { chapter: 'Flowboard', text: 'Plan, track and ship work.', by: 'rules' },
      { chapter: 'Simple pricing', text: 'Three plans, from free.', by: 'user' },
      { chapter: 'Frequently asked questions', text: '', by: 'user' },
    ]);
    const [row] = await app.sql<{ narration_script: string }[]>`select narration_script from demos where id = ${id}`;
    assert.deepEqual(JSON.parse(row!.narration_script), [{ chapter: 'Simple pricing', text: 'Three plans, from free' }, { chapter: 'Frequently asked questions', text: '' }]);
    assert.deepEqual((await app.api(`/api/v1/demos/${id}/narration`, { key: user.key })).body, edited.body, 'stored: read back the same');

    const reset = await app.api(`/api/v1/demos/${id}/narration`, { key: user.key, method: 'PUT', body: { lines: [] } });
    assert.equal(reset.body.edited, false);
    assert.equal(reset.body.lines[1].text, 'Simple pricing: $0 to $29.');
  });

  it('refuses a line for a chapter the demo does not have, or too long to say, naming it', async () => {
    const id = await readyDemo();
    const unknown = await app.api(`/api/v1/demos/${id}/narration`, { key: user.key, method: 'PUT', body: { lines: [{ chapter: 'Roadmap', text: 'Our roadmap.' }] } });
    assert.equal(unknown.status, 400);
    assert.match(unknown.body.error, /"Roadmap" is not a chapter of this demo/);
    const long = await app.api(`/api/v1/demos/${id}/narration`, { key: user.key, method: 'PUT', body: { lines: [{ chapter: 'Flowboard', text: 'x'.repeat(85) }] } });
    assert.equal(long.status, 400);
  });

  it('has no script before the first recording, and is another user’s business only to them', async () => {
    const pending = (await app.api('/api/v1/demos', { key: user.key, body: { project_id: projectId, prompt: 'Tour', duration_target: '5s' } })).body.id;
    assert.equal((await app.api(`/api/v1/demos/${pending}/narration`, { key: user.key })).status, 409);
    const other = await app.createUser({ credits: 1 });
    assert.equal((await app.api(`/api/v1/demos/${await readyDemo()}/narration`, { key: other.key })).status, 404);
  });

  it('refuses narration at once on a server with no speech engine, rather than failing the recording later', async () => {
    const created = await app.api('/api/v1/demos', { key: user.key, body: { project_id: projectId, prompt: 'Tour', presentation: { narration: { enabled: true } } } });
    assert.equal(created.status, 400);
    assert.match(created.body.error, /no speech engine/);
    const restyled = await app.api(`/api/v1/demos/${await readyDemo()}/restyle`, { key: user.key, body: { presentation: { narration: { enabled: true, voice: 'alloy' } } } });
    assert.equal(restyled.status, 400);
    const off = await app.api('/api/v1/demos', { key: user.key, body: { project_id: projectId, prompt: 'Tour', presentation: { narration: { enabled: false } } } });
    assert.equal(off.status, 202, 'narration off needs no engine');
  });
});
