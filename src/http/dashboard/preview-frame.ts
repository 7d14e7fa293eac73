import { createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { Presentation } from '../../demos/index.js';
import type { Storage } from '../../platform/storage/index.js';
import { viewportFor } from '../../pipeline/browser/viewports.js';
import { captureSizeFor } from '../../pipeline/compose/compose.js';
import { computeLayout } from '../../pipeline/compose/layout.js';
import { resolveStyle } from '../../pipeline/compose/style.js';
import { ffmpegBinaries } from '../../pipeline/encode/ffmpeg-binaries.js';
import { runTool } from '../../pipeline/encode/run-tool.js';
import { OUTPUT_SIZES } from '../../pipeline/encode/video-encoder.js';
import type { ViewportName } from '../../pipeline/types.js';

/**
 * The restyle preview's picture: one frame of the demo's current video, cut down to the recorded page (the window's
 * content, where the current look's layout put it), as a PNG. The restyle page draws the chosen background, window
 * and padding around it. Not a composed frame of the new look: restyle re-records the stored script in a browser,
 * and the clean capture a compositor would need is not kept after a job (decisions, "Restyle, versions and demo
 * states"). One ffmpeg run with an input seek: measured ~0.2 s for a 10 s 1080p video.
 */
export async function pageFrame(
  storage: Storage,
  input: { videoKey: string; presentation: Presentation | null; resolution: '720p' | '1080p'; viewport: ViewportName; durationMs: number | null },
): Promise<Buffer | null> {
  const style = resolveStyle(input.presentation);
  const output = OUTPUT_SIZES[input.resolution];
  const capture = captureSizeFor(input.presentation, input.resolution, viewportFor(input.viewport, input.resolution).frame);
  const { content } = computeLayout(output, capture, style);
  // After the window has risen in and the fade is over, before the first action moves the camera.
  const settledMs = (style.windowAnimation.intro ? style.windowAnimation.introDurationMs : 0) + style.fade.inMs + 300;
  const atMs = Math.max(0, Math.min(settledMs, (input.durationMs ?? settledMs + 1000) - 200));

  const source = await storage.read(input.videoKey);
  if (!source) return null;
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'showreel-frame-'));
  try {
    const file = path.join(dir, 'video');
    await pipeline(source, createWriteStream(file));
    const { ffmpeg } = await ffmpegBinaries();
    // Scaled to the output size first: a video of another size (an old or odd one) still yields the page's region.
    const filter = `scale=${output.width}:${output.height},crop=${content.width}:${content.height}:${content.x}:${content.y},scale=960:-2`;
    const result = await runTool(
      ffmpeg,
      ['-hide_banner', '-loglevel', 'error', '-ss', (atMs / 1000).toFixed(3), '-i', `file:${file}`, '-frames:v', '1', '-vf', filter, '-f', 'image2', '-c:v', 'png', 'pipe:1'],
      10_000,
    );
    return result.exitCode === 0 && result.stdout.length > 0 ? result.stdout : null;
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}
