import { constants } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';

/**
 * Where ffmpeg and ffprobe live, resolved once per process: FFMPEG_PATH / FFPROBE_PATH, else the first on PATH,
 * else the static builds shipped in @ffmpeg-installer/ffmpeg (4.1) and @ffprobe-installer/ffprobe. Nothing is
 * downloaded at run time. Everything we ask of ffmpeg exists in 4.1, so any of the three will do.
 */
export interface FfmpegBinaries {
  ffmpeg: string;
  ffprobe: string;
}

export interface BinaryEnvironment {
  FFMPEG_PATH?: string;
  FFPROBE_PATH?: string;
  PATH?: string;
}

export async function resolveFfmpegBinaries(env: BinaryEnvironment = process.env): Promise<FfmpegBinaries> {
  const [ffmpeg, ffprobe] = await Promise.all([
    resolveBinary('ffmpeg', 'FFMPEG_PATH', env, async () => (await import('@ffmpeg-installer/ffmpeg')).default.path),
    resolveBinary('ffprobe', 'FFPROBE_PATH', env, async () => (await import('@ffprobe-installer/ffprobe')).default.path),
  ]);
  return { ffmpeg, ffprobe };
}

let resolved: Promise<FfmpegBinaries> | undefined;

/** The process-wide binaries from process.env; a failed lookup is retried on the next call, not cached. */
export function ffmpegBinaries(): Promise<FfmpegBinaries> {
  resolved ??= resolveFfmpegBinaries().catch((error: unknown) => {
    resolved = undefined;
    throw error;
  });
  return resolved;
}

async function resolveBinary(
  name: string,
  variable: 'FFMPEG_PATH' | 'FFPROBE_PATH',
  env: BinaryEnvironment,
  installed: () => Promise<string>,
): Promise<string> {
  const explicit = env[variable];
  if (explicit) {
    // An operator's explicit choice never silently falls back to another binary.
    return ensureExecutable(path.resolve(explicit)).catch((error: unknown) => {
      throw new Error(`${variable}=${explicit}: ${(error as Error).message}`);
    });
  }
  const onPath = await findOnPath(name, env.PATH ?? '');
  if (onPath) return onPath;
  let packaged: string;
  try {
    // The installer packages throw on import for platforms they have no build for.
    packaged = await installed();
  } catch (error) {
    throw new Error(`No ${name} found: set ${variable}, put ${name} on PATH, or install the npm package (${(error as Error).message}).`);
  }
  return ensureExecutable(packaged);
}

/** The first executable regular file called `name` in the PATH directories, like `which`. */
export async function findOnPath(name: string, searchPath: string): Promise<string | null> {
  for (const dir of searchPath.split(path.delimiter)) {
    if (!dir || !path.isAbsolute(dir)) continue; // relative PATH entries depend on the cwd; skip them
    const candidate = path.join(dir, name);
    try {
      if ((await fs.stat(candidate)).isFile()) {
        await fs.access(candidate, constants.X_OK);
        return candidate;
      }
    } catch {
      // not here; keep looking
    }
  }
  return null;
}

/**
 * Makes sure `file` can be executed by everyone. The ffprobe npm package ships mode 0744, so a service running
 * as another user than the installer cannot run it; when we own the file (or are root), add the x bits.
 */
export async function ensureExecutable(file: string): Promise<string> {
  const stats = await fs.stat(file).catch(() => null);
  if (!stats?.isFile()) throw new Error(`${file} is not a file.`);
  if ((stats.mode & 0o111) !== 0o111) await fs.chmod(file, stats.mode | 0o111).catch(() => undefined);
  try {
    await fs.access(file, constants.X_OK);
  } catch {
    throw new Error(`${file} is not executable by this user; run chmod a+x on it.`);
  }
  return file;
}
