import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import path from 'node:path';
import { describe, it } from 'node:test';
import { pageWorkBudgetMs, produceRecording, recordingCaptureSize, type Produced } from '../../../src/pipeline/produce-recording.js';
import type { ActionScript } from '../../../src/pipeline/types.js';
import { heuristicPlanner, recordingRig } from '../../helpers/recording-rig.js';
import { frameAt } from '../../helpers/video-frames.js';

/**
 * A page with a cookie bar at load and a newsletter popup that opens three seconds after load and again three
 * seconds after each close (test/fixtures/sites/nagging). Recorded once from the prompt, then restyled (the stored
 * script replayed on a fresh page, as a restyle job does): neither intruder is ever on screen, and the restyle
 * replays the same timeline on the same page.
 */
describe('a page whose popups open while it is recorded', () => {
  const rig = recordingRig('showreel-popups-');
  const planner = heuristicPlanner();

  const record = (name: string, storedScript?: ActionScript) => {
    const workDir = path.join(rig.work, name);
    const pageOptions = { viewport: 'desktop', resolution: '720p', allowPrivate: true, captureSize: recordingCaptureSize(null, '720p', 'desktop'), timeoutMs: pageWorkBudgetMs('10s') } as const;
    return rig.browsers.withPage(pageOptions, async (page, ctx) => {
      await fs.mkdir(workDir, { recursive: true });
      await ctx.goto(rig.sites.url('nagging'), { waitUntil: 'load' });
      const produced = await produceRecording(
        page,
        {
          url: rig.sites.url('nagging'), prompt: 'Show the plans, then end on what owners tell us', viewport: 'desktop', format: 'mp4', resolution: '720p',
          durationTarget: '10s', mode: 'script', template: { id: 'auto' }, outFile: path.join(workDir, 'demo.mp4'), workDir,
          ...(storedScript ? { storedScript } : {}),
        },
        planner,
        () => undefined,
      );
      return { produced, clean: path.join(workDir, 'clean.mkv') };
    });
  };

  /** Seconds of the recording (every 0.5 s) at which the popup's magenta or the cookie bar's green is on screen. */
  const intrusions = async (file: string): Promise<string[]> => {
    const seen: string[] = [];
    for (let t = 0.25; t < 10; t += 0.5) {
      const frame = await frameAt(file, t, 128, 72);
      let magenta = 0;
      let green = 0;
      for (let i = 0; i + 2 < frame.length; i += 3) {
        const [r, g, b] = [frame[i]!, frame[i + 1]!, frame[i + 2]!];
        if (r > 200 && g < 90 && b > 200) magenta++;
        if (r < 90 && g > 170 && b < 90) green++;
      }
      if (magenta > 20) seen.push(`${t} s: the newsletter popup`);
      if (green > 20) seen.push(`${t} s: the cookie bar`);
    }
    return seen;
  };

  let first: { produced: Produced; clean: string };

  it('keeps the cookie bar and the newsletter popup off the first recording, though the popup opens during it', async () => {
    first = await record('first');
    assert.deepEqual(await intrusions(first.clean), []);
    assert.ok(first.produced.script.steps.some((step) => step.kind === 'scroll'), 'the recording moves down the page');
  });

  it('restyled, replays the same script on the page in the same state: the same timeline, and neither intruder on screen', async () => {
    const again = await record('restyle', first.produced.script);
    assert.deepEqual(await intrusions(again.clean), []);
    const shape = (produced: Produced) => produced.recording.timeline.steps.map((step) => `${step.kind} ${step.label}`);
    assert.deepEqual(shape(again.produced), shape(first.produced), 'the same steps');
    const finalY = (produced: Produced) => produced.recording.timeline.scrolls.at(-1)?.y;
    assert.equal(finalY(again.produced), finalY(first.produced), 'the same scroll targets');
    const starts = (produced: Produced) => produced.recording.timeline.steps.map((step) => step.startMs);
    const drift = starts(again.produced).map((t, i) => Math.abs(t - starts(first.produced)[i]!));
    assert.ok(Math.max(...drift) <= 100, `the steps start when they did (drift ${Math.max(...drift)} ms)`);
  });
});
