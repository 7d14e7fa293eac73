import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { resolveFfmpegBinaries } from '../../src/pipeline/encode/ffmpeg-binaries.js';

const run = promisify(execFile);

/** Real media files, made with the same ffmpeg the service uses, in a temp folder per test file. */
export interface MediaFixtures {
  dir: string;
  /** 320x240, 30 fps, 2 s, H.264 */
  mp4: string;
  /** 320x240, 30 fps, 2 s, VP9 */
  webm: string;
  /** 1600x900, 1 s, H.264: wider than the 1280 thumbnail limit */
  wideMp4: string;
  /** AAC audio in an MP4 container, no video stream */
  audioOnly: string;
  /** 320x240 */
  png: string;
  /** 160x120, 5 frames */
  animatedGif: string;
  /** 160x120, 1 frame */
  stillGif: string;
  /** 4 KB of random bytes, starting with 0x00 so no signature can match by chance */
  garbage: string;
  cleanup(): Promise<void>;
}

export async function makeMediaFixtures(): Promise<MediaFixtures> {
  const { ffmpeg } = await resolveFfmpegBinaries();
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'showreel-media-'));
  const at = (name: string) => path.join(dir, name);
  const make = (args: string[]) => run(ffmpeg, ['-v', 'error', '-nostdin', '-y', ...args]);
  const testsrc = (size: string, rate: number) => ['-f', 'lavfi', '-i', `testsrc=size=${size}:rate=${rate}`];
  await Promise.all([
    make([...testsrc('320x240', 30), '-t', '2', '-pix_fmt', 'yuv420p', '-c:v', 'libx264', '-preset', 'ultrafast', at('video.mp4')]),
    make([...testsrc('320x240', 30), '-t', '2', '-pix_fmt', 'yuv420p', '-c:v', 'libvpx-vp9', '-deadline', 'realtime', '-cpu-used', '8', '-b:v', '300k', at('video.webm')]),
    make([...testsrc('1600x900', 30), '-t', '1', '-pix_fmt', 'yuv420p', '-c:v', 'libx264', '-preset', 'ultrafast', at('wide.mp4')]),
    make(['-f', 'lavfi', '-i', 'sine=frequency=440:duration=1', '-c:a', 'aac', at('audio.m4a')]),
    make([...testsrc('320x240', 30), '-frames:v', '1', at('image.png')]),
    make([...testsrc('160x120', 5), '-frames:v', '5', '-loop', '0', at('animated.gif')]),
    make([...testsrc('160x120', 5), '-frames:v', '1', at('still.gif')]),
    fs.writeFile(at('garbage.bin'), Buffer.concat([Buffer.alloc(1), randomBytes(4095)])),
  ]);
  return {
    dir,
    mp4: at('video.mp4'),
    webm: at('video.webm'),
    wideMp4: at('wide.mp4'),
    audioOnly: at('audio.m4a'),
    png: at('image.png'),
    animatedGif: at('animated.gif'),
    stillGif: at('still.gif'),
    garbage: at('garbage.bin'),
    cleanup: () => fs.rm(dir, { recursive: true, force: true }),
  };
}
