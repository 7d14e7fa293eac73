/**
 * Narration's extra cost (issue 59), for `npm run bench:render`: on the run's composed video, what a narrated job
 * does after the composition, with a stand-in voice (the engine's synthesis is the provider's time, and a network
 * round trip, not ours): each line's audio decoded and trimmed (one ffmpeg each), the track laid, measured for
 * loudness (loudnorm's first pass) and muxed with the video copied (loudnorm's second pass, AAC or Opus). One line
 * per 3.3 s of video, 2 s of words each (a 10 s demo's three beats). Wall time and CPU seconds (node's own and the
 * ffmpeg runs it reaps). Not counted: the stretch, which makes the video longer where a line needs it (record and
 * compose then cost that much more video: +30% on the saas fixture's 10 s demo, test/pipeline/narration).
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { decodeLine, layTrack, muxNarration, wavBytes, writeWav } from '../src/pipeline/narration/audio.js';

export interface NarrationCost {
  lines: number;
  wallS: number;
  cpuS: number;
}

export async function benchNarration(options: { video: string; format: 'mp4' | 'webm'; durationMs: number; work: string }): Promise<NarrationCost> {
  const dir = path.join(options.work, 'narration');
  await fs.mkdir(dir, { recursive: true });
  // The video copied: the run's own file stays as the pipeline made it (its smoothness is measured after).
  const video = path.join(dir, `narrated.${options.format}`);
  await fs.copyFile(options.video, video);
  const count = Math.max(1, Math.floor(options.durationMs / 3300));
  const started = performance.now();
  const cpuAt = process.cpuUsage();
  const reapedAt = await reapedCpuSeconds();
  const lines: Array<{ startMs: number; samples: Int16Array }> = [];
  for (let i = 0; i < count; i++) {
    const samples = await decodeLine(standInVoice(2000), path.join(dir, `line-${i}.audio`));
    lines.push({ startMs: 800 + i * 3300, samples });
  }
  const trackFile = path.join(dir, 'track.wav');
  await writeWav(trackFile, layTrack(lines, options.durationMs));
  await muxNarration({ videoFile: video, trackFile, format: options.format, durationMs: options.durationMs, outFile: video });
  const node = process.cpuUsage(cpuAt);
  return {
    lines: count,
    wallS: (performance.now() - started) / 1000,
    cpuS: (node.user + node.system) / 1e6 + ((await reapedCpuSeconds()) - reapedAt),
  };
}

/** A voice's answer as an engine sends it: 24 kHz WAV, 0.2 s of silence either side of `ms` of a tone with overtones. */
function standInVoice(ms: number): Buffer {
  const rate = 24_000;
  const pad = Math.round(0.2 * rate);
  const samples = new Int16Array(pad * 2 + Math.round((ms * rate) / 1000));
  for (let i = pad; i < samples.length - pad; i++) {
    const t = i / rate;
    samples[i] = Math.round(3000 * (Math.sin(2 * Math.PI * 180 * t) + 0.5 * Math.sin(2 * Math.PI * 720 * t)) * (0.6 + 0.4 * Math.sin(2 * Math.PI * 4 * t)));
  }
  return wavBytes(samples, rate);
}

async function reapedCpuSeconds(): Promise<number> {
  const stat = await fs.readFile('/proc/self/stat', 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[13]) + Number(fields[14])) / 100;
}
