import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { ffmpegBinaries } from '../../../src/pipeline/encode/ffmpeg-binaries.js';

const run = promisify(execFile);

/** What a listener would measure of a video's sound: its streams, where the voice is, how loud it is. */
export async function streamCodecs(file: string): Promise<string[]> {
  const { ffprobe } = await ffmpegBinaries();
  const { stdout } = await run(ffprobe, ['-v', 'error', '-show_entries', 'stream=codec_name', '-of', 'csv=p=0', file]);
  return stdout.split('\n').map((line) => line.trim()).filter(Boolean);
}

export async function durationMs(file: string): Promise<number> {
  const { ffprobe } = await ffmpegBinaries();
  const { stdout } = await run(ffprobe, ['-v', 'error', '-show_entries', 'format=duration', '-of', 'csv=p=0', file]);
  return Number(stdout.trim()) * 1000;
}

/** The stretches where the sound is not silent (ffmpeg's silencedetect at -45 dB, gaps of at least 0.15 s), in ms. */
export async function voicedStretches(file: string): Promise<Array<{ startMs: number; endMs: number }>> {
  const { ffmpeg } = await ffmpegBinaries();
  const total = await durationMs(file);
  const { stderr } = await run(ffmpeg, ['-hide_banner', '-nostats', '-i', file, '-map', '0:a', '-af', 'silencedetect=n=-45dB:d=0.15', '-f', 'null', '-'], { maxBuffer: 16 << 20 });
  const silences: Array<{ start: number; end: number }> = [];
  for (const line of stderr.split('\n')) {
    const start = /silence_start: (-?[\d.]+)/.exec(line);
    if (start) silences.push({ start: Number(start[1]) * 1000, end: total });
    const end = /silence_end: ([\d.]+)/.exec(line);
    if (end && silences.length > 0) silences.at(-1)!.end = Number(end[1]) * 1000;
  }
  const voiced: Array<{ startMs: number; endMs: number }> = [];
  let from = 0;
  for (const silence of silences) {
    if (silence.start > from + 1) voiced.push({ startMs: from, endMs: silence.start });
    from = silence.end;
  }
  if (total > from + 1) voiced.push({ startMs: from, endMs: total });
  // An Opus stream starts 7 ms before 0 (its encoder's pre-skip), and silencedetect reports its first silence from
  // the first whole frame: a few ms of "sound" that are not there (astats reads digital silence). No word is that short.
  return voiced.filter((stretch) => stretch.endMs - stretch.startMs >= 30);
}

/** Integrated loudness (EBU R128, LUFS) of the sound, as ffmpeg's ebur128 reports it. */
export async function integratedLoudness(file: string): Promise<number> {
  const { ffmpeg } = await ffmpegBinaries();
  const { stderr } = await run(ffmpeg, ['-hide_banner', '-nostats', '-i', file, '-map', '0:a', '-af', 'ebur128', '-f', 'null', '-'], { maxBuffer: 64 << 20 });
  const summary = stderr.slice(stderr.lastIndexOf('Summary:'));
  const value = /I:\s+(-?[\d.]+) LUFS/.exec(summary);
  if (!value) throw new Error(`no loudness in: ${summary}`);
  return Number(value[1]);
}
