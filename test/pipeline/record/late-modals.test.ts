import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import path from 'node:path';
import { describe, it } from 'node:test';
import type { Page } from 'puppeteer-core';
import { analysePage, type PageAnalysis } from '../../../src/pipeline/analyse/index.js';
import { pageWorkBudgetMs, produceRecording, recordingCaptureSize } from '../../../src/pipeline/produce-recording.js';
import { heuristicPlanner, recordingRig } from '../../helpers/recording-rig.js';
import { frameAt } from '../../helpers/video-frames.js';

/**
 * The plainest modals there are, opening when the recording does not expect them (test/fixtures/sites/latemodal):
 * a fixed full-screen dimmed backdrop with a white box and a "Close" button, shown by its display; Bootstrap's way,
 * faded in by a class with an opacity transition over a backdrop that fades too; and a layer that is always laid out
 * at opacity 0, made visible by a class. Each box has a band of a colour nothing else on the page wears.
 *
 * On a real page they open a few seconds after load: on a busy machine that is during the analysis, after its last
 * look for popups; on a quiet one, while the recording runs. The test opens them at each of those moments itself
 * (the page's `?manual` mode), so neither depends on how fast the machine is.
 */
describe('a page whose plain modals open after it was analysed', () => {
  const rig = recordingRig('showreel-late-modals-');
  const planner = heuristicPlanner();
  const url = () => `${rig.sites.url('latemodal')}?manual`;

  const record = (name: string, opening: 'after the analysis' | 'during the recording') => {
    const workDir = path.join(rig.work, name);
    const pageOptions = { viewport: 'desktop', resolution: '720p', allowPrivate: true, captureSize: recordingCaptureSize(null, '720p', 'desktop'), timeoutMs: pageWorkBudgetMs('10s') } as const;
    return rig.browsers.withPage(pageOptions, async (page, ctx) => {
      await fs.mkdir(workDir, { recursive: true });
      await ctx.goto(url(), { waitUntil: 'load' });
      let analysis: PageAnalysis | undefined;
      let sent = false;
      if (opening === 'after the analysis') {
        analysis = await analysePage(page);
        await openIntruders(page, [0, 0, 0]);
        // until every fade has ended: the recording starts with all three on screen
        await new Promise((resolve) => setTimeout(resolve, 700));
      }
      await produceRecording(
        page,
        {
          url: url(), prompt: 'Show the plans, then end on the crew behind the charts', viewport: 'desktop', format: 'mp4', resolution: '720p',
          durationTarget: '10s', mode: 'script', template: { id: 'auto' }, outFile: path.join(workDir, 'demo.mp4'), workDir,
          ...(analysis ? { analysis } : {}),
        },
        planner,
        (step, fraction) => {
          // once: a retake reports its own start too
          if (opening === 'during the recording' && step === 'recording' && fraction === 0 && !sent) {
            sent = true;
            void openIntruders(page, [50, 150, 300]);
          }
        },
      );
      const opened = await page.evaluate(() => (window as unknown as { intrudersOpened?: number }).intrudersOpened ?? 0);
      return { opened, clean: path.join(workDir, 'clean.mkv') };
    });
  };

  it('shows no frame of them when they opened between the analysis and the recording', async () => {
    const { opened, clean } = await record('after-analysis', 'after the analysis');
    assert.equal(opened, 3, 'all three modals opened');
    assert.deepEqual(await intrusions(clean), []);
  });

  it('shows no frame of them when they open while the recording is under way, faded in or not', async () => {
    const { opened, clean } = await record('during-recording', 'during the recording');
    assert.equal(opened, 3, 'all three modals opened during the recording');
    assert.deepEqual(await intrusions(clean), []);
  });
});

function openIntruders(page: Page, delaysMs: number[]): Promise<void> {
  return page.evaluate((delays) => (window as unknown as { openIntruders: (d: number[]) => void }).openIntruders(delays), delaysMs);
}

/** The moments of the recording (every 0.25 s) at which a modal's band is on screen, with which one it is. */
async function intrusions(file: string): Promise<string[]> {
  const seen: string[] = [];
  for (let t = 0.125; t < 10; t += 0.25) {
    const frame = await frameAt(file, t, 128, 72);
    const counts = { plain: 0, faded: 0, veiled: 0 };
    for (let i = 0; i + 2 < frame.length; i += 3) {
      const [r, g, b] = [frame[i]!, frame[i + 1]!, frame[i + 2]!];
      if (r > 200 && g > 60 && g < 150 && b < 60) counts.plain++;
      if (r < 80 && g > 150 && b > 200) counts.faded++;
      if (r < 120 && g > 180 && b < 80) counts.veiled++;
    }
    for (const [which, count] of Object.entries(counts)) if (count > 12) seen.push(`${t} s: the ${which} modal`);
  }
  return seen;
}
