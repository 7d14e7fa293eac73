import fs from 'node:fs/promises';
import path from 'node:path';
import { ffmpegBinaries } from '../encode/ffmpeg-binaries.js';
import { fileArg, FfmpegError, runTool } from '../encode/run-tool.js';

/**
 * The narration's sound (issue 59): each line's audio as the engine sent it, made one format (48 kHz mono PCM, its
 * silences at either end trimmed, so a line starts and ends where it is placed); then one track the length of the
 * video with each line at its place, brought to -16 LUFS (EBU R128, two passes of ffmpeg's loudnorm, the second
 * linear: one gain for the whole track, so the voice keeps its dynamics and the silences stay silent), and muxed
 * with the video, copied as it is: AAC in MP4, Opus in WebM.
 */
export const SAMPLE_RATE = 48_000;
export const TARGET_LUFS = -16;
const TRUE_PEAK = -1.5;
const LOUDNESS_RANGE = 11;
const TOOL_TIMEOUT_MS = 120_000;
/** What a speech engine's answer may be read as: audio containers only (never a playlist that fetches). */
const AUDIO_INPUT_GUARD = ['-protocol_whitelist', 'file', '-format_whitelist', 'wav,mp3,ogg,flac,aac,mov,matroska,webm'];
/** Below this level is silence at a line's ends (the breath before and after the words). */
const TRIM_THRESHOLD = '-50dB';

/** One line's audio in PCM (16-bit, mono, 48 kHz), its leading and trailing silence trimmed. */
export async function decodeLine(audio: Buffer, workFile: string): Promise<Int16Array> {
  const { ffmpeg } = await ffmpegBinaries();
  await fs.writeFile(workFile, audio);
  const trim = `silenceremove=start_periods=1:start_threshold=${TRIM_THRESHOLD}`;
  const result = await runTool(
    ffmpeg,
    ['-hide_banner', '-v', 'error', ...AUDIO_INPUT_GUARD, '-i', fileArg(workFile), '-af', `${trim},areverse,${trim},areverse`, '-ac', '1', '-ar', String(SAMPLE_RATE), '-f', 's16le', '-c:a', 'pcm_s16le', 'pipe:1'],
    TOOL_TIMEOUT_MS,
  );
  if (result.exitCode !== 0) throw new FfmpegError(`The speech engine's audio could not be read: ${result.stderr.split('\n').at(-1)}`, result.exitCode, result.stderr);
  const bytes = result.stdout;
  return new Int16Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length - (bytes.length % 2)));
}

export function pcmDurationMs(samples: Int16Array): number {
  return (samples.length * 1000) / SAMPLE_RATE;
}

/** The track: silence the length of the video with each line's samples at its start. */
export function layTrack(lines: Array<{ startMs: number; samples: Int16Array }>, durationMs: number): Int16Array {
  const track = new Int16Array(Math.ceil((durationMs * SAMPLE_RATE) / 1000));
  for (const line of lines) {
    const at = Math.round((line.startMs * SAMPLE_RATE) / 1000);
    track.set(line.samples.subarray(0, Math.max(0, track.length - at)), at);
  }
  return track;
}

/** A PCM track as a WAV file (what ffmpeg reads it from). */
export async function writeWav(file: string, samples: Int16Array): Promise<void> {
  await fs.writeFile(file, wavBytes(samples, SAMPLE_RATE));
}

/** 16-bit mono PCM as the bytes of a WAV file at `rate`. */
export function wavBytes(samples: Int16Array, rate: number): Buffer {
  const header = Buffer.alloc(44);
  const bytes = samples.length * 2;
  header.write('RIFF', 0);
  header.writeUInt32LE(36 + bytes, 4);
  header.write('WAVEfmt ', 8);
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(1, 22);
  header.writeUInt32LE(rate, 24);
  header.writeUInt32LE(rate * 2, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36);
  header.writeUInt32LE(bytes, 40);
  return Buffer.concat([header, Buffer.from(samples.buffer, samples.byteOffset, bytes)]);
}

interface Measured {
  input_i: string;
  input_tp: string;
  input_lra: string;
  input_thresh: string;
  target_offset: string;
}

/** loudnorm's first pass: the track's integrated loudness, true peak, range and gate, as it prints them. */
async function measureLoudness(trackFile: string): Promise<Measured> {
  const { ffmpeg } = await ffmpegBinaries();
  const result = await runTool(
    ffmpeg,
    ['-hide_banner', '-nostats', '-i', fileArg(trackFile), '-af', `loudnorm=I=${TARGET_LUFS}:TP=${TRUE_PEAK}:LRA=${LOUDNESS_RANGE}:print_format=json`, '-f', 'null', '-'],
    TOOL_TIMEOUT_MS,
  );
  const json = /\{[^{}]*"input_i"[^{}]*\}/s.exec(result.stderr)?.[0];
  if (result.exitCode !== 0 || !json) throw new FfmpegError('The narration could not be measured for loudness.', result.exitCode, result.stderr);
  return JSON.parse(json) as Measured;
}

/**
 * The video with the narration track muxed in (written to `outFile`, which may be `videoFile` itself: replaced
 * once the new file is whole). The video stream is copied; the track is normalised on the way in.
 */
export async function muxNarration(options: { videoFile: string; trackFile: string; format: 'mp4' | 'webm'; durationMs: number; outFile: string }): Promise<void> {
  const { ffmpeg } = await ffmpegBinaries();
  const m = await measureLoudness(options.trackFile);
  const loudnorm = `loudnorm=I=${TARGET_LUFS}:TP=${TRUE_PEAK}:LRA=${LOUDNESS_RANGE}:measured_I=${m.input_i}:measured_TP=${m.input_tp}:measured_LRA=${m.input_lra}:measured_thresh=${m.input_thresh}:offset=${m.target_offset}:linear=true`;
  const temporary = path.join(path.dirname(path.resolve(options.outFile)), `.narrated-${path.basename(options.outFile)}`);
  const codec = options.format === 'mp4' ? ['-c:a', 'aac', '-b:a', '128k', '-movflags', '+faststart', '-f', 'mp4'] : ['-c:a', 'libopus', '-b:a', '96k', '-f', 'webm'];
  const result = await runTool(
    ffmpeg,
    [
      '-hide_banner', '-v', 'error', '-y', '-i', fileArg(options.videoFile), '-i', fileArg(options.trackFile),
      '-filter_complex', `[1:a]${loudnorm},aresample=${SAMPLE_RATE}[voice]`,
      '-map', '0:v', '-map', '[voice]', '-c:v', 'copy', '-ac', '1', '-t', (options.durationMs / 1000).toFixed(3), ...codec, fileArg(temporary),
    ],
    TOOL_TIMEOUT_MS,
  );
  if (result.exitCode !== 0) {
    await fs.rm(temporary, { force: true });
    throw new FfmpegError(`The narration could not be mixed into the video: ${result.stderr.split('\n').at(-1)}`, result.exitCode, result.stderr);
  }
  await fs.rename(temporary, options.outFile);
}

/**
 * Issue 59: a cut made later (cut-from-capture.ts) with the sound of the video it was cut from: the same timeline,
 * so the same track, copied as it is (already normalised). `videoFile` is replaced once the new file is whole.
 */
export async function copySoundTrack(options: { fromVideo: string; videoFile: string; format: 'mp4' | 'webm' }): Promise<void> {
  const { ffmpeg } = await ffmpegBinaries();
  const temporary = path.join(path.dirname(path.resolve(options.videoFile)), `.sound-${path.basename(options.videoFile)}`);
  const container = options.format === 'mp4' ? ['-movflags', '+faststart', '-f', 'mp4'] : ['-f', 'webm'];
  const result = await runTool(
    ffmpeg,
    ['-hide_banner', '-v', 'error', '-y', '-i', fileArg(options.videoFile), '-i', fileArg(options.fromVideo), '-map', '0:v', '-map', '1:a', '-c', 'copy', '-shortest', ...container, fileArg(temporary)],
    TOOL_TIMEOUT_MS,
  );
  if (result.exitCode !== 0) {
    await fs.rm(temporary, { force: true });
    throw new FfmpegError(`The cut's sound could not be copied from the video: ${result.stderr.split('\n').at(-1)}`, result.exitCode, result.stderr);
  }
  await fs.rename(temporary, options.videoFile);
}
