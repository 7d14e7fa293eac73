import assert from 'node:assert/strict';
import path from 'node:path';
import { describe, it } from 'node:test';
import { templateIds, type TemplateId } from '../../src/demos/presentation.js';
import { captureSizeFor } from '../../src/pipeline/compose/compose.js';
import { probeVideo } from '../../src/pipeline/encode/probe.js';
import { pageWorkBudgetMs, produceRecording, recordingCaptureSize } from '../../src/pipeline/produce-recording.js';
import { heuristicPlanner, recordingRig } from '../helpers/recording-rig.js';
import { frameAt, frameDetail, frameDifference } from '../helpers/video-frames.js';

/**
 * Recording templates, really recorded (5 s, 720p) on the fixture site each is made for, through the same stages a
 * job runs: the plan is the template's, the video has the target length, and the page moves. Shared by two test
 * files that split the templates between them, so each file stays well inside the per-file time limit on a loaded
 * machine and the two run in parallel.
 */
const SITE_FOR: Record<TemplateId, { site: string; prompt: string; sectionHint?: string }> = {
  cinematic: { site: 'agency', prompt: 'A cinematic overview of the studio' },
  'guided-tour': { site: 'saas', prompt: 'Give a guided tour of the product' },
  'plain-scroll': { site: 'docs', prompt: 'Scroll through the documentation' },
  'section-focus': { site: 'docs', prompt: 'Focus on one section', sectionHint: 'Authentication' },
  'hero-spotlight': { site: 'saas', prompt: 'Spotlight the headline' },
  'feature-sweep': { site: 'saas', prompt: 'Sweep through the features' },
  'conversion-flow': { site: 'signup-app', prompt: 'Show how to sign up' },
  'pricing-focus': { site: 'saas', prompt: 'Show the pricing plans' },
  'proof-scroll': { site: 'saas', prompt: 'Show what customers say' },
};

/** The two halves, one per test file; together every template (checked in the first file). */
export const TOURING_TEMPLATES: TemplateId[] = ['cinematic', 'guided-tour', 'plain-scroll', 'section-focus'];
export const FOCUSED_TEMPLATES: TemplateId[] = ['hero-spotlight', 'feature-sweep', 'conversion-flow', 'pricing-focus', 'proof-scroll'];
export const everyTemplateCovered = () => [...TOURING_TEMPLATES, ...FOCUSED_TEMPLATES].sort().join() === [...templateIds].sort().join();

export function describeRecordedTemplates(title: string, templates: readonly TemplateId[], options: { withAgent: boolean }): void {
describe(title, () => {
  const rig = recordingRig('showreel-templates-');
  const planner = heuristicPlanner();

  if (options.withAgent) it('agent mode observes the page after the plan and keeps acting until the time is up', async () => {
    const outFile = path.join(rig.work, 'agent.mp4');
    const produced = await rig.browsers.withPage({ viewport: 'desktop', resolution: '720p', allowPrivate: true, captureSize: recordingCaptureSize(null, '720p', 'desktop') }, async (page, ctx) => {
      await ctx.goto(rig.sites.url('saas'), { waitUntil: 'load' });
      return produceRecording(
        page,
        { url: rig.sites.url('saas'), prompt: 'Tour the features', viewport: 'desktop', format: 'mp4', resolution: '720p', durationTarget: '10s', mode: 'agent', template: { id: 'auto' }, outFile },
        planner,
        () => undefined,
      );
    });
    const info = await probeVideo(outFile);
    assert.ok(Math.abs((info.durationMs ?? 0) - 10_000) <= 1000);
    assert.ok(produced.recording.steps.length >= produced.script.steps.length, 'the agent may add steps, never drops planned ones');
    assert.ok(produced.recording.log.length > 0);
  });

  for (const templateId of templates) {
    it(templateId, async () => {
      const { site, prompt, sectionHint } = SITE_FOR[templateId];
      const outFile = path.join(rig.work, `${templateId}.mp4`);
      // The budget a job has: a recording that hangs fails with its reason, not as the whole file timed out.
      const pageOptions = { viewport: 'desktop', resolution: '720p', allowPrivate: true, captureSize: recordingCaptureSize(null, '720p', 'desktop'), timeoutMs: pageWorkBudgetMs('5s') } as const;
      const produced = await rig.browsers.withPage(pageOptions, async (page, ctx) => {
        await ctx.goto(rig.sites.url(site), { waitUntil: 'load' });
        return produceRecording(
          page,
          {
            url: rig.sites.url(site), prompt, viewport: 'desktop', format: 'mp4', resolution: '720p', durationTarget: '5s', mode: 'script',
            template: { id: templateId, ...(sectionHint ? { sectionHint } : {}) }, outFile,
          },
          planner,
          () => undefined,
        );
      });
      assert.equal(produced.plan?.templateId, templateId);
      assert.ok(produced.script.steps.length >= 2, 'a real choreography, not a single wait');
      assert.ok(produced.recording.log.length > 0);
      const info = await probeVideo(outFile);
      assert.equal(info.width, 1280);
      // Captured at the size the recording has in the default window, so compose places frames without rescaling.
      const window = captureSizeFor(null, '720p', { width: 1280, height: 720 });
      const frame = produced.recording.screencast.frameSize!;
      assert.ok(Math.abs(frame.width - window.width) <= 2 && Math.abs(frame.height - window.height) <= 2, `captured at ${JSON.stringify(frame)}`);
      assert.ok(Math.abs((info.durationMs ?? 0) - 5000) <= 500, `duration ${info.durationMs}`);
      const first = await frameAt(outFile, 0.2);
      const last = await frameAt(outFile, 4.8);
      assert.ok(frameDetail(first) > 5 && frameDetail(last) > 5, 'no blank frames');
      if (templateId === 'section-focus') {
        assert.ok(produced.script.steps.some((s) => s.kind === 'scroll' && s.toY > 0), 'scrolls to the hinted section');
      }
      // Every template but the hero spotlight moves the page or the cursor on screen; the frames show it.
      if (templateId !== 'hero-spotlight') {
        const moved = produced.recording.timeline.scrolls.some((s) => s.y > 50) || frameDifference(first, last) > 2;
        assert.ok(moved, 'the page really moves');
      }
    });
  }
});
}
