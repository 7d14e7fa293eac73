import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { resolveFfmpegBinaries } from '../../src/pipeline/encode/ffmpeg-binaries.js';

const run = promisify(execFile);

/** Tiny real images (64×36 test pattern) in the three accepted formats, made by the project's ffmpeg. */
export interface TestImages {
  png: Buffer;
  jpeg: Buffer;
  webp: Buffer;
  /** A GIF: an image, but not one backgrounds accept. */
  gif: Buffer;
}

export async function makeTestImages(): Promise<TestImages> {
  const { ffmpeg } = await resolveFfmpegBinaries();
  const encode = async (codec: string, format: string) => {
    const { stdout } = await run(
      ffmpeg,
      ['-v', 'error', '-nostdin', '-f', 'lavfi', '-i', 'testsrc=size=64x36:rate=1', '-frames:v', '1', '-c:v', codec, '-f', format, 'pipe:1'],
      { encoding: 'buffer', maxBuffer: 1024 * 1024 },
    );
    return stdout;
  };
  const [png, jpeg, webp, gif] = await Promise.all([
    encode('png', 'image2pipe'),
    encode('mjpeg', 'image2pipe'),
    encode('libwebp', 'webp'),
    encode('gif', 'gif'),
  ]);
  return { png, jpeg, webp, gif };
}

/** A file part for FormData: Buffer bytes or text, with the type the client claims. */
export function blob(content: Buffer | string, type?: string): Blob {
  return new Blob([typeof content === 'string' ? content : new Uint8Array(content)], type ? { type } : {});
}
