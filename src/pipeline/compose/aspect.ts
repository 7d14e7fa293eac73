import { type AspectRatio, aspectFrameSize, aspectRatios } from '../../demos/presentation.js';
import { OUTPUT_SIZES } from '../encode/video-encoder.js';
import type { Resolution } from '../types.js';
import type { Layout } from './layout.js';

/**
 * Aspect variants (issue 59): the same capture composed for a 16:9, a 9:16 or a 1:1 frame. 16:9 is the compositor as
 * it always was (its layout is computeLayout's, untouched). A variant is composed on a *stage*: a canvas of the
 * variant's shape on which the window keeps exactly the size it has in the 16:9 video (so the capture is placed
 * without rescaling and the 16:9 layer drawings fit it as they are), with room around it so that the window, with
 * the style's padding, spans the frame's width. The camera crops the stage in the frame's shape and scales the crop
 * to the frame: at rest it shows the whole stage (the whole window across the frame, background above and below);
 * on a shot it pushes in on the shot's focus as in 16:9. A crop of the stage at a given magnification is as wide, in
 * page pixels, as the 16:9 crop at that magnification and taller, so what a 16:9 shot shows across, the variant shows
 * too: the beat's heading stays inside the frame.
 */
export const ASPECTS = aspectRatios;
export type Aspect = AspectRatio;

/** How an aspect is written in a URL (`?aspect=9x16`) and in file names: a colon is awkward in both. */
export function aspectSlug(aspect: Aspect): string {
  return aspect.replace(':', 'x');
}

/** `9x16`, `9:16`, `9/16` → the aspect; anything else null. */
export function parseAspect(value: string): Aspect | null {
  const normal = value.trim().replace(/[x/]/i, ':');
  return (ASPECTS as readonly string[]).includes(normal) ? (normal as Aspect) : null;
}

/** The video's frame: 16:9 at the resolution's size; the others as wide as the 16:9 frame is tall (1080 or 720). */
export function frameSize(aspect: Aspect, resolution: Resolution): { width: number; height: number } {
  if (aspect === '16:9') return { ...OUTPUT_SIZES[resolution] };
  return aspectFrameSize(aspect, resolution);
}

/**
 * The GIF preview's width: 640 for 16:9 (as jobs publish it), and about as many pixels for the others (360×640 for
 * 9:16, 480×480 for 1:1), so a variant's GIF costs and weighs about what the 16:9 one does.
 */
export function gifWidthFor(aspect: Aspect, width16x9: number): number {
  if (aspect === '16:9') return width16x9;
  if (aspect === '1:1') return even((width16x9 * 3) / 4);
  return even((width16x9 * 9) / 16);
}

/**
 * The stage layout of a variant, from the 16:9 layout of the same capture and style: the window, its layer and the
 * recording keep their sizes, the stage is the frame's shape scaled so that the window spans the frame's width less
 * the padding on each side (the whole frame's width with no padding), and the window sits in its middle.
 */
export function stageLayout(base: Layout, frame: { width: number; height: number }, padding: number): Layout {
  const across = Math.max(0.4, 1 - 2 * padding);
  const scale = base.window.width / (frame.width * across);
  let width = even(frame.width * scale);
  let height = even(frame.height * scale);
  // Never smaller than the window with its shadow, whatever the padding.
  if (width < base.layer.width || height < base.layer.height) {
    const grow = Math.max(base.layer.width / width, base.layer.height / height);
    width = even(width * grow);
    height = even(height * grow);
  }
  const dx = even((width - base.window.width) / 2) - base.window.x;
  const dy = even((height - base.window.height) / 2) - base.window.y;
  const move = <R extends { x: number; y: number }>(r: R): R => ({ ...r, x: r.x + dx, y: r.y + dy });
  return {
    ...base,
    output: { width, height },
    window: move(base.window),
    content: move(base.content),
    layer: move(base.layer),
    frame: { ...frame },
    unit: base.output.height / 1080,
  };
}

/** Where a variant of `outFile` goes: beside it, its aspect in the name (demo-9x16.mp4, demo-9x16.gif, demo-9x16.png). */
export function variantFiles(outFile: string, aspect: Aspect, gifWidth16x9: number): {
  outFile: string;
  gif: { file: string; width: number };
  thumbnail: { file: string };
} {
  const base = outFile.replace(/\.[^./]+$/, '');
  const extension = /\.[^./]+$/.exec(outFile)?.[0] ?? '.mp4';
  const named = `${base}-${aspectSlug(aspect)}`;
  return { outFile: named + extension, gif: { file: `${named}.gif`, width: gifWidthFor(aspect, gifWidth16x9) }, thumbnail: { file: `${named}.png` } };
}

function even(value: number): number {
  return Math.round(value / 2) * 2;
}
