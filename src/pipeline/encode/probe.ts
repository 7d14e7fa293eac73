import { UnsupportedMediaError } from '../../platform/errors.js';
import { ffmpegBinaries } from './ffmpeg-binaries.js';
import { FfmpegError, fileArg, INPUT_GUARD, runTool } from './run-tool.js';

/**
 * The file is not a video we can use: unreadable, not MP4/WebM-family, or without a video stream. Maps to 415 as
 * the spec asks for a body that "is not a valid video"; `detail` (ffprobe's words) is for the log, not the client.
 */
export class InvalidVideoError extends UnsupportedMediaError {
  constructor(readonly detail: string) {
    super('The file is not a readable MP4 or WebM video.');
  }
}

export interface VideoInfo {
  /** `mp4` for ISO BMFF other than QuickTime, `webm` for Matroska holding VP8, VP9 or AV1; anything else `other`. */
  container: 'mp4' | 'webm' | 'other';
  /** ffprobe's demuxer name, e.g. `mov,mp4,m4a,3gp,3g2,mj2` */
  formatName: string;
  /** ffprobe's codec name of the first video stream: `h264`, `vp9`, ... */
  codec: string;
  /** as displayed, i.e. after a 90° rotation flag */
  width: number;
  height: number;
  /** null when the file does not say (WebM from a browser's MediaRecorder often lacks it) */
  durationMs: number | null;
  fps: number | null;
  hasAudio: boolean;
  /** ffprobe's pixel format of the video stream (`yuvj420p` for the clean capture's JPEGs), null when it does not say */
  pixelFormat: string | null;
}

interface ProbeOutput {
  streams?: ProbeStream[];
  format?: { format_name?: string; duration?: string; tags?: Record<string, string> };
}

interface ProbeStream {
  codec_type?: string;
  codec_name?: string;
  pix_fmt?: string;
  width?: number;
  height?: number;
  duration?: string;
  avg_frame_rate?: string;
  r_frame_rate?: string;
  disposition?: { attached_pic?: number };
  tags?: Record<string, string>;
  side_data_list?: { rotation?: number }[];
}

const WEBM_CODECS = new Set(['vp8', 'vp9', 'av1']);

export async function probeVideo(file: string, options: { timeoutMs?: number } = {}): Promise<VideoInfo> {
  const { ffprobe } = await ffmpegBinaries();
  const args = ['-v', 'error', '-print_format', 'json', '-show_format', '-show_streams', ...INPUT_GUARD, fileArg(file)];
  const result = await runTool(ffprobe, args, options.timeoutMs ?? 30_000);
  if (result.exitCode !== 0) throw new InvalidVideoError(result.stderr || `ffprobe exited with ${result.exitCode}`);
  let output: ProbeOutput;
  try {
    output = JSON.parse(result.stdout.toString('utf8')) as ProbeOutput;
  } catch {
    throw new FfmpegError('ffprobe printed something that is not JSON.', 0, result.stderr);
  }

  // A cover image inside an audio file is a "video" stream too; it is not a video.
  const streams = output.streams ?? [];
  const video = streams.find((s) => s.codec_type === 'video' && s.disposition?.attached_pic !== 1);
  if (!video?.codec_name || !video.width || !video.height) throw new InvalidVideoError('no video stream');

  const formatName = output.format?.format_name ?? '';
  const rotated = Math.abs(rotationOf(video)) % 180 === 90;
  return {
    container: containerOf(formatName, video.codec_name, output.format?.tags?.major_brand),
    formatName,
    codec: video.codec_name,
    width: rotated ? video.height : video.width,
    height: rotated ? video.width : video.height,
    durationMs: secondsToMs(output.format?.duration) ?? secondsToMs(video.duration),
    fps: rate(video.avg_frame_rate) ?? rate(video.r_frame_rate),
    hasAudio: streams.some((s) => s.codec_type === 'audio'),
    pixelFormat: video.pix_fmt ?? null,
  };
}

function containerOf(formatName: string, codec: string, majorBrand: string | undefined): VideoInfo['container'] {
  const names = formatName.split(',');
  if (names.includes('mp4')) return majorBrand?.trim() === 'qt' ? 'other' : 'mp4';
  if (names.includes('webm')) return WEBM_CODECS.has(codec) ? 'webm' : 'other';
  return 'other';
}

function rotationOf(stream: ProbeStream): number {
  const fromSideData = stream.side_data_list?.find((d) => typeof d.rotation === 'number')?.rotation;
  return fromSideData ?? Number(stream.tags?.rotate ?? 0);
}

function secondsToMs(seconds: string | undefined): number | null {
  const value = Number(seconds);
  return seconds !== undefined && Number.isFinite(value) && value >= 0 ? Math.round(value * 1000) : null;
}

/** "30000/1001" → 29.97; "0/0" (unknown) → null. */
function rate(fraction: string | undefined): number | null {
  const [num, den] = (fraction ?? '').split('/').map(Number);
  if (!num || !den || !Number.isFinite(num / den)) return null;
  return Math.round((num / den) * 1000) / 1000;
}
