import path from 'node:path';
import { ffmpegBinaries } from '../encode/ffmpeg-binaries.js';
import { FfmpegError, fileArg, runTool } from '../encode/run-tool.js';
import type { LayerFiles } from './layers.js';
import type { Layout } from './layout.js';
import type { Style } from './style.js';

/**
 * An aspect variant's still layers, made from the 16:9 video's without a browser (aspect.ts): the window, its mask
 * and the cursor are the same size on the stage and are used as they are; the background is the 16:9 one brought to
 * the stage's shape (a colour or a gradient stretched, which keeps a CSS gradient's corner colours where CSS puts
 * them; an image scaled to cover and cropped, as CSS's `cover` does), and the plate is that background with the
 * window laid on it and the recording's place cut out by the mask, as layers.ts draws it. One ffmpeg run, ~0.2 s.
 */
export async function variantLayers(options: {
  layers: LayerFiles;
  layout: Layout;
  style: Pick<Style, 'background'>;
  dir: string;
  timeoutMs?: number;
}): Promise<LayerFiles> {
  const { layers, layout } = options;
  if (!layers.background || !layers.window || !layers.mask) {
    throw new Error('An aspect variant needs the 16:9 layers of the window animation (background, window, mask).');
  }
  const { width: W, height: H } = layout.output;
  const { layer, content } = layout;
  const stretch = options.style.background.kind === 'image'
    ? `scale=w=${W}:h=${H}:force_original_aspect_ratio=increase:flags=bicubic,crop=${W}:${H}`
    : `scale=${W}:${H}:flags=bicubic`;
  const graph = [
    `[0:v]${stretch},setsar=1,format=rgba,split=2[bg][bg_plate]`,
    `[bg_plate][1:v]overlay=x=${layer.x}:y=${layer.y}:format=rgb[framed]`,
    // Opaque everywhere but the recording's place, where the mask (white where the recording shows) cuts it out.
    `[2:v]format=gray,negate,pad=${W}:${H}:${content.x}:${content.y}:color=white[alpha]`,
    `[framed][alpha]alphamerge[plate]`,
  ].join(';');
  const plate = path.join(options.dir, 'plate.png');
  const background = path.join(options.dir, 'bg.png');
  const { ffmpeg } = await ffmpegBinaries();
  const result = await runTool(ffmpeg, [
    '-hide_banner', '-loglevel', 'error', '-y',
    '-i', fileArg(layers.background), '-i', fileArg(layers.window), '-i', fileArg(layers.mask),
    '-filter_complex', graph,
    '-map', '[plate]', '-frames:v', '1', '-c:v', 'png', '-f', 'image2', fileArg(plate),
    '-map', '[bg]', '-frames:v', '1', '-c:v', 'png', '-f', 'image2', fileArg(background),
  ], options.timeoutMs ?? 60_000);
  if (result.exitCode !== 0) throw new FfmpegError('The aspect variant\'s layers could not be made.', result.exitCode, result.stderr);
  return { ...layers, plate, background };
}
