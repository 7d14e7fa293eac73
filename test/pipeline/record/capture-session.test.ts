import assert from 'node:assert/strict';
import path from 'node:path';
import { describe, it } from 'node:test';
import { recordingCaptureSize } from '../../../src/pipeline/produce-recording.js';
import { recordScript } from '../../../src/pipeline/record/recorder.js';
import type { ActionScript } from '../../../src/pipeline/types.js';
import { recordingRig } from '../../helpers/recording-rig.js';

describe('the capture session', () => {
  // A fresh pool: the fault showed only in a browser's first page, as every one-shot CLI demo has.
  const rig = recordingRig('showreel-capture-session-');

  it('keeps the screencast from the first frame of a browser\'s first recording, and every frame gets its picture', async () => {
    const url = rig.sites.url('docs');
    const script: ActionScript = {
      version: 1, url, viewport: 'desktop', durationMs: 1500, templateId: 'guided-tour',
      steps: [
        { kind: 'wait', label: 'Opening', startMs: 0, durationMs: 500 },
        { kind: 'scroll', label: 'Down the page', toY: 500, startMs: 500, durationMs: 800 },
      ],
    };
    const captured = await rig.browsers.withPage(
      { viewport: 'desktop', resolution: '720p', allowPrivate: true, captureSize: recordingCaptureSize(null, '720p', 'desktop'), timeoutMs: 120_000 },
      async (page, ctx) => {
        await ctx.goto(url, { waitUntil: 'load', timeout: 30_000 });
        return recordScript(page, script, { format: 'capture', resolution: '720p', outFile: path.join(rig.work, 'first.mkv') });
      },
    );
    // Before: the cursor's first move, made once capture had started, left frame 0 with damage and no picture, and
    // the recording gave the screencast up for screenshots after waiting a second for it.
    const stats = captured.frameCapture;
    assert.ok(stats, 'recorded frame by frame');
    assert.equal(stats.missedPictures, 0);
    assert.equal(stats.pictures, 'screencast');
    assert.equal(captured.frames, 45);
    assert.ok(stats.screenshots >= 20, `${stats.screenshots} pictures for a 0.8 s scroll and the opening`);
  });
});
