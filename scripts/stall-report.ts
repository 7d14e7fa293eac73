/**
 * `npm run stall-report -- <video> <timeline.json> [--clean <clean capture>] [--resolution 720p|1080p]`: which output
 * frames of a composed video count as stalls in smoothness.py's measure (src/pipeline/encode/smoothness.ts), and what
 * the recording and the camera were doing at each: the step, the scroll samples, clicks and keys nearby, the zoom
 * crop and the window layer on the frames around it. A diagnostic for people, not a test.
 *
 * `npm run bench:render` with BENCH_KEEP=<dir> leaves `bench-<res>-frames.mp4`, `-clean.mkv` and `-timeline.json`
 * there. The camera is rebuilt as compose builds it with the default presentation (the layout from the clean
 * capture's frame size, or the size the recorder would capture when no clean capture is given).
 */
import fs from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { createCamera, FPS } from '../src/pipeline/compose/camera.js';
import { captureSizeFor } from '../src/pipeline/compose/compose.js';
import { computeLayout } from '../src/pipeline/compose/layout.js';
import { resolveStyle } from '../src/pipeline/compose/style.js';
import { probeVideo } from '../src/pipeline/encode/probe.js';
import { measureSmoothness } from '../src/pipeline/encode/smoothness.js';
import { OUTPUT_SIZES } from '../src/pipeline/encode/video-encoder.js';
import { recordingCaptureSize } from '../src/pipeline/produce-recording.js';
import type { InteractionTimeline, Resolution } from '../src/pipeline/types.js';

const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: { clean: { type: 'string' }, resolution: { type: 'string' } },
});
const [videoFile, timelineFile] = positionals;
if (!videoFile || !timelineFile) {
  console.error('Usage: npm run stall-report -- <video> <timeline.json> [--clean <clean capture>] [--resolution 720p|1080p]');
  process.exit(2);
}

const timeline = JSON.parse(await fs.readFile(timelineFile, 'utf8')) as InteractionTimeline;
const video = await probeVideo(videoFile);
const resolution = (values.resolution ?? (video.height >= 1000 ? '1080p' : '720p')) as Resolution;
const style = resolveStyle(null);
const capture = values.clean
  ? await probeVideo(values.clean).then((i) => ({ width: i.width, height: i.height }))
  : captureSizeFor(null, resolution, recordingCaptureSize(null, resolution, 'desktop'));
const layout = computeLayout(OUTPUT_SIZES[resolution], capture, style);
const camera = createCamera(layout, timeline, style, timeline.durationMs);

const measure = async (file: string) => {
  const m = await measureSmoothness(file);
  // stalled[k] is about change k: output frame k + 1 shows the same picture as frame k.
  const frames = m.stalled.flatMap((s, k) => (s ? [k + 1] : []));
  return { m, frames };
};
const composed = await measure(videoFile);
const clean = values.clean ? await measure(values.clean) : null;

const ms = (frame: number) => Math.round((frame * 1000) / FPS);
const crop = (frame: number) => {
  const c = camera.at(frame).crop;
  return `${c.width}x${c.height}+${c.x}+${c.y}`;
};
const near = <T extends { t: number }>(list: T[], t: number, within: number) => list.filter((e) => Math.abs(e.t - t) <= within);

console.log(
  `${videoFile}: ${composed.m.frames} frames, ${composed.m.movingFrames} moving, ${composed.m.stalls} stalls (${composed.m.stallsWithinMotion} within motion), stall_ratio ${composed.m.stallRatio}` +
    (clean ? `; clean capture: ${clean.m.stalls} stalls of ${clean.m.movingFrames} (${clean.m.stallsWithinMotion} within motion; frames ${clean.frames.join(' ') || 'none'})` : ''),
);
console.log(`camera: ${camera.actions.length} zoom action(s) at ${camera.actions.map((a) => `${Math.round(a.t)}ms ${a.kind}`).join(', ') || 'none'}`);
for (const frame of composed.frames) {
  const t = ms(frame);
  const step = timeline.steps.find((s) => t >= s.startMs && t <= s.endMs);
  const scrolls = near(timeline.scrolls, t, 100).map((s) => `${s.t}:${Math.round(s.y)}`);
  const clicks = near(timeline.clicks, t, 400).map((c) => `${c.t}`);
  const keys = near(timeline.keystrokes, t, 200).length;
  const d = (k: number) => (k >= 0 && k < composed.m.diffs.length ? composed.m.diffs[k]!.toFixed(2) : '-');
  const cameraMoves = crop(frame - 1) !== crop(frame) || crop(frame) !== crop(frame + 1);
  const cleanToo = clean?.frames.includes(frame) ? ' CLEAN-STALL' : '';
  console.log(
    `frame ${frame} (${t} ms) step ${step ? `${step.index} ${step.kind} "${step.label}"` : 'none'}; d[-2..+2] ${[-2, -1, 0, 1, 2].map((o) => d(frame - 1 + o)).join(' ')}` +
      `; crop ${crop(frame - 1)} → ${crop(frame)} → ${crop(frame + 1)}${cameraMoves ? ' (camera moving)' : ''}` +
      `${camera.at(frame).animating ? ' (window animating)' : ''}; scrolls ${scrolls.join(' ') || 'none'}; clicks ${clicks.join(' ') || 'none'}; keys ${keys}${cleanToo}`,
  );
}
