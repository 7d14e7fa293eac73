import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createPlanner } from '../../../src/pipeline/plan/planner.js';
import { produceRecording, recordingCaptureSize } from '../../../src/pipeline/produce-recording.js';
import { recordingRig } from '../../helpers/recording-rig.js';

/**
 * Issue 36, end to end: the page's `<html lang>` reaches the model planner, and the captions it writes become the
 * recorded demo's. The page is the saas fixture told it is French (its `<html lang>` set to "fr" before the demo is
 * made): without a model, that page has no captions at all; the stand-in model captions each section with its own
 * heading (the page's words, so every check passes).
 */
describe('a recorded demo whose captions the model wrote', () => {
  const rig = recordingRig('showreel-model-captions-');
  let server: http.Server;
  let baseUrl: string;
  const languages: unknown[] = [];

  before(async () => {
    server = http.createServer((request, response) => {
      let body = '';
      request.setEncoding('utf8');
      request.on('data', (chunk: string) => (body += chunk));
      request.on('end', () => {
        const user = JSON.parse((JSON.parse(body) as { messages: Array<{ content: string }> }).messages[1]!.content) as {
          language: unknown;
          outline: { sections: Array<{ id: string; heading: string | null }> };
        };
        languages.push(user.language);
        const captions = user.outline.sections.filter((s) => s.heading).map((s) => ({ sectionId: s.id, text: s.heading }));
        const content = JSON.stringify({ templateId: 'pricing-focus', reason: 'Pricing is asked for.', confidence: 0.9, captions });
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }] }));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  });
  after(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it('the model is told the page is French and its captions are the video’s, marked as the model’s', async () => {
    const planner = createPlanner({ SHOWREEL_PLANNER: 'openai', OPENAI_API_KEY: undefined, OPENAI_BASE_URL: baseUrl, OPENAI_MODEL: 'stand-in' }, { timeoutMs: 5000 });
    const produced = await rig.browsers.withPage(
      { viewport: 'desktop', resolution: '720p', allowPrivate: true, captureSize: recordingCaptureSize(null, '720p', 'desktop') },
      async (page, ctx) => {
        await ctx.goto(rig.sites.url('saas'), { waitUntil: 'load' });
        await page.evaluate(() => document.documentElement.setAttribute('lang', 'FR'));
        return produceRecording(
          page,
          {
            url: rig.sites.url('saas'), prompt: 'Show the pricing plans', viewport: 'desktop', format: 'mp4', resolution: '720p',
            durationTarget: '5s', mode: 'script', template: { id: 'auto' }, presentation: null, outFile: path.join(rig.work, 'fr.mp4'),
          },
          planner,
          () => undefined,
        );
      },
    );
    assert.deepEqual(languages, ['fr'], 'the model was asked once, told the page’s language');
    assert.equal(produced.plan!.source, 'ai');
    const story = produced.story!;
    assert.equal(story.language, 'fr');
    assert.equal(story.captionsOff, null, 'a French page has captions when a model writes them');
    assert.ok(story.captions.length >= 1, JSON.stringify(story));
    assert.ok(story.captions.every((caption) => caption.by === 'model'), JSON.stringify(story.captions));
  });
});
