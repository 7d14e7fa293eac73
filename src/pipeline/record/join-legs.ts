import fs from 'node:fs/promises';
import path from 'node:path';
import { ffmpegBinaries } from '../encode/ffmpeg-binaries.js';
import { fileArg, runTool } from '../encode/run-tool.js';
import type { InteractionTimeline, RecordingLogEntry, ScriptStep } from '../types.js';
import type { RecordResult } from './recorder.js';

/**
 * Issue 56: a flow is recorded in legs, one per page (the link between two is followed off camera,
 * follow-link.ts). The legs are joined into the one recording the compositor knows: the clean captures end to end
 * (Matroska of JPEG frames, copied, not re-encoded), their 160×90 grey frames likewise, and the timelines, logs and
 * steps with each leg's times moved by the legs before it. The compositor finds the page change as a cut and
 * dissolves it (cuts.ts); the frame clock stays exact: frame i of the joined video is frame i − (frames before) of
 * its leg.
 */
export async function joinLegs(legs: RecordResult[], outFile: string): Promise<RecordResult> {
  if (legs.length === 0) throw new Error('A flow has at least one leg.');
  if (legs.length === 1) return legs[0]!;
  const first = legs[0]!;
  await concatCaptures(legs.map((leg) => leg.encode.outFile), outFile);
  const smallFrames = first.smallFrames && legs.every((leg) => leg.smallFrames) ? `${outFile}.small.gray` : null;
  if (smallFrames) await concatFiles(legs.map((leg) => leg.smallFrames!), smallFrames);

  const timeline: InteractionTimeline = { ...structuredClone(first.timeline), durationMs: 0, cursor: [], clicks: [], keystrokes: [], scrolls: [], focus: [], steps: [] };
  const log: RecordingLogEntry[] = [];
  const steps: ScriptStep[] = [];
  const frameTimesMs: number[] = [];
  let offset = 0;
  let frames = 0;
  for (const leg of legs) {
    const at = (t: number) => Math.round(t + offset);
    const t = leg.timeline;
    timeline.cursor.push(...t.cursor.map((p) => ({ ...p, t: at(p.t) })));
    timeline.clicks.push(...t.clicks.map((p) => ({ ...p, t: at(p.t) })));
    timeline.keystrokes.push(...t.keystrokes.map((p) => ({ ...p, t: at(p.t) })));
    timeline.scrolls.push(...t.scrolls.map((p) => ({ ...p, t: at(p.t) })));
    timeline.focus.push(...t.focus.map((p) => ({ ...p, t: at(p.t) })));
    const indexBase = timeline.steps.length;
    timeline.steps.push(...t.steps.map((s) => ({ ...s, index: s.index + indexBase, startMs: at(s.startMs), endMs: at(s.endMs) })));
    const logBase = log.length;
    log.push(...leg.log.map((entry) => ({ ...entry, index: entry.index + logBase, startMs: at(entry.startMs), endMs: at(entry.endMs) })));
    steps.push(...leg.steps.map((s) => ({ ...s, startMs: at(s.startMs) })));
    frameTimesMs.push(...(leg.frameCapture?.frameTimesMs ?? leg.screencast.frameTimesMs ?? []).map(at));
    offset += leg.durationMs;
    frames += leg.frames;
  }
  timeline.durationMs = Math.round(offset);
  const sum = (pick: (leg: RecordResult) => number) => legs.reduce((total, leg) => total + pick(leg), 0);
  const frameCapture = first.frameCapture
    ? {
        ...first.frameCapture,
        framesWritten: frames,
        screenshots: sum((leg) => leg.frameCapture?.screenshots ?? 0),
        probes: sum((leg) => leg.frameCapture?.probes ?? 0),
        damagedProbes: sum((leg) => leg.frameCapture?.damagedProbes ?? 0),
        missedPictures: sum((leg) => leg.frameCapture?.missedPictures ?? 0),
        strayPictures: sum((leg) => leg.frameCapture?.strayPictures ?? 0),
        screencastRestarts: sum((leg) => leg.frameCapture?.screencastRestarts ?? 0),
        framesBehindWallClock: sum((leg) => leg.frameCapture?.framesBehindWallClock ?? 0),
        frameTimesMs,
      }
    : null;
  return {
    ...first,
    timeline,
    log,
    steps,
    durationMs: offset,
    frames,
    captureFps: frames > 0 ? (frameTimesMs.length * 1000) / offset : first.captureFps,
    screencast: { frameSize: first.screencast.frameSize, frameTimesMs },
    frameCapture,
    encode: { ...first.encode, outFile, framesWritten: frames, durationMs: offset, encodeWallMs: sum((leg) => leg.encode.encodeWallMs), drainMs: sum((leg) => leg.encode.drainMs) },
    smallFrames,
    timings: {
      setupMs: sum((leg) => leg.timings.setupMs),
      captureMs: sum((leg) => leg.timings.captureMs),
      finishMs: sum((leg) => leg.timings.finishMs),
    },
  };
}

/** The captures end to end, copied (the concat demuxer; every leg has the same codec and size). */
async function concatCaptures(files: string[], outFile: string): Promise<void> {
  const { ffmpeg } = await ffmpegBinaries();
  const list = `${outFile}.legs.txt`;
  await fs.writeFile(list, files.map((file) => `file '${path.resolve(file).replace(/'/g, "'\\''")}'`).join('\n') + '\n');
  try {
    const result = await runTool(
      ffmpeg,
      ['-hide_banner', '-v', 'error', '-nostdin', '-y', '-f', 'concat', '-safe', '0', '-i', fileArg(list), '-c', 'copy', '-f', 'matroska', fileArg(outFile)],
      120_000,
    );
    if (result.exitCode !== 0) throw new Error(`Could not join the flow's recordings: ${result.stderr.slice(-500)}`);
  } finally {
    await fs.rm(list, { force: true });
  }
}

async function concatFiles(files: string[], outFile: string): Promise<void> {
  await fs.writeFile(outFile, Buffer.concat(await Promise.all(files.map((file) => fs.readFile(file)))));
}
