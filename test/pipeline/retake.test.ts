import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import path from 'node:path';
import { describe, it } from 'node:test';
import { analysePage } from '../../src/pipeline/analyse/index.js';
import { pageWorkBudgetMs, produceRecording, recordingCaptureSize, type Produced } from '../../src/pipeline/produce-recording.js';
import { heuristicPlanner, recordingRig } from '../helpers/recording-rig.js';

/**
 * The service checks its own take and takes it again when the page moved under it. The saas fixture is analysed,
 * then a script inserts a tall promotion above what its customers say and renders that part again under new ids
 * and class names (as a page does when late content settles or a framework renders on the client), so neither the
 * plan's scroll offsets nor its selectors find the part the prompt asks for. The first take misses it; the service
 * measures where the headings are now, plans once more on that layout, records again, and keeps the take that
 * reads, saying so in the recording log.
 */
describe('a take that misses its section because the page moved after it was analysed', () => {
  const rig = recordingRig('showreel-retake-');
  const planner = heuristicPlanner();

  const record = (name: string, moveLayout: boolean): Promise<Produced> => {
    const workDir = path.join(rig.work, name);
    const pageOptions = { viewport: 'desktop', resolution: '720p', allowPrivate: true, captureSize: recordingCaptureSize(null, '720p', 'desktop'), timeoutMs: pageWorkBudgetMs('10s') } as const;
    return rig.browsers.withPage(pageOptions, async (page, ctx) => {
      await fs.mkdir(workDir, { recursive: true });
      await ctx.goto(rig.sites.url('saas'), { waitUntil: 'load' });
      const analysis = await analysePage(page);
      if (moveLayout) {
        await page.evaluate(() => {
          const section = document.querySelector('#testimonials')!;
          const band = document.createElement('section');
          band.style.cssText = 'height: 1400px; background: #dfe7f2';
          section.before(band);
          // Rendered again by the page's script: the same words under new ids and class names.
          for (const [i, el] of [section, ...Array.from(section.querySelectorAll('*'))].entries()) {
            el.removeAttribute('id');
            el.setAttribute('class', `r${i}`);
          }
        });
      }
      return produceRecording(
        page,
        {
          url: rig.sites.url('saas'), prompt: 'Show what the customers say about it', viewport: 'desktop', format: 'mp4', resolution: '720p',
          durationTarget: '10s', mode: 'script', template: { id: 'auto' }, outFile: path.join(workDir, 'demo.mp4'), workDir, analysis,
        },
        planner,
        () => undefined,
      );
    });
  };

  it('on a page that stays put, passes its own check on the first take and records once', async () => {
    const produced = await record('steady', false);
    assert.equal(produced.check?.passed, true, JSON.stringify(produced.check));
    assert.ok(!produced.recording.log.some((entry) => entry.action === 'retake'), 'no retake');
    assert.equal(produced.recording.log.at(-1)?.action, 'check');
  });

  it('takes it again on the layout measured after the first take, keeps the take that reads, and says so', async () => {
    const produced = await record('moved', true);
    const log = produced.recording.log;
    const checks = log.filter((entry) => entry.action === 'check');
    assert.equal(checks.length, 2, 'the first take and the kept take are both scored in the log');
    assert.equal(checks[0]!.ok, false, `the first take missed: ${checks[0]!.target}`);
    const retake = log.find((entry) => entry.action === 'retake');
    assert.ok(retake, 'the log says the take was planned again');
    assert.match(retake.target ?? '', /"Teams ship faster with Flowboard" moved down \d+ px; kept the second take/);
    assert.equal(produced.check?.passed, true, `the kept take reads: ${checks[1]!.target}`);
    const asked = produced.check!.targets.find((target) => target.section === 'Teams ship faster with Flowboard')!;
    assert.ok(asked.longestS >= produced.check!.barS, `readable ${asked.longestS} s of the ${produced.check!.barS} s it needs`);
    // The plan kept is the one that was recorded: a restyle replays the script that reads, on the layout it read.
    const features = produced.outline!.sections.find((section) => section.heading === 'Teams ship faster with Flowboard')!;
    const scrolled = produced.script.steps.filter((step) => step.kind === 'scroll').map((step) => step.toY);
    assert.ok(scrolled.some((y) => Math.abs(y + produced.outline!.stickyHeaderHeight - features.rect.y) < 120), `scrolls to the section where it is now (${scrolled} for ${features.rect.y})`);
    assert.ok(produced.composed, 'the kept take is composed into the video');
    await assert.rejects(fs.stat(path.join(rig.work, 'moved', 'clean.mkv')), 'the take not kept is removed');
  });
});
