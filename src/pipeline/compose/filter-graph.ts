import { type Camera, FPS as FPS_GRID } from './camera.js';
import { frameOf, type Layout, unitOf } from './layout.js';
import type { Style } from './style.js';
import { subpixelCropFilter } from './subpixel-crop.js';

/**
 * The ffmpeg filter graph of a composed render, and the per-frame commands that drive it (sendcmd). Filters only
 * present in ffmpeg 4.1. The costly work is per pixel, so the graph does as little full-frame work as it can:
 *
 *   at rest    plate (drawn once, looped) around the recording (stacked: copies, no blend) ← the window's corner pieces
 *   intro      a second decoder reads just the intro's frames: recording cut to the window's shape (alphamerge),
 *   / outro    the window's frame stacked around it, the whole window layer scaled and moved per frame over the background; laid
 *              over the rest-state frames only while it lasts (so the rest of the video pays nothing for it)
 *   cuts       where the page jumps between two stills (cuts.ts), a short dissolve from a decoder of its own, laid
 *              over the recording's frames only while it lasts
 *   then       zoom (crop per frame + scale back; a pass-through at rest; a sub-pixel crop on a move's gentle steps) → cursor and click effects at their
 *              on-screen size → debug HUD → fades → yuv420p
 *
 * Per-frame values (crop, window layer, cursor and effect positions) come from the Camera through sendcmd files,
 * written only where a value changes.
 */
export interface GraphInputs {
  /** input index of each stream the graph reads */
  clean: number;
  plate: number;
  intro: { clean: number; background: number; window: number; mask: number } | null;
  outro: { clean: number; background: number; window: number; mask: number } | null;
  cursor: number | null;
  effects: { input: number; size: number } | null;
  /**
   * Cuts of the capture to dissolve (cuts.ts): each its own decoder of the capture, starting `weights.length` frames
   * before the cut with the capture's own timestamps (as the outro's), so the overlay that lays the dissolve over the
   * live frames never waits for it.
   */
  cuts?: Array<{ input: number; frame: number; weights: number[] }>;
  /** Burned-in captions (caption-layer.ts): each a still laid over the finished frames only while it shows. */
  captions?: Array<{ input: number; x: number; y: number; fromS: number; toS: number }>;
  /** The end card (end-card.ts): a still of the whole frame, faded in from `fromS` to the end. */
  endCard?: { input: number; fromS: number; fadeS: number };
  /**
   * Inputs of the capture fed only their new pictures (held-pictures.ts): the setpts expression that stamps each with
   * its frame; the graph repeats each over the frames that held it.
   */
  restamp?: ReadonlyMap<number, string>;
}

export interface HudText {
  /** text files (drawtext textfile=), each shown between `from` and `to` seconds */
  steps: Array<{ file: string; from: number; to: number }>;
  /** a text file with drawtext expansions: elapsed time and frame number */
  clock: string;
  fontFile: string;
}

export interface GraphFiles {
  zoomCommands: string;
  pointerCommands: string;
  introCommands: string;
  outroCommands: string;
}

export function buildFilterGraph(options: {
  layout: Layout;
  style: Style;
  camera: Camera;
  inputs: GraphInputs;
  files: GraphFiles;
  hud: HudText | null;
  durationMs: number;
  /** the clean capture's frame size, and its pixel format when known (probe.ts) */
  capture: { width: number; height: number; pixelFormat?: string | null };
  /** the first frame drawn (a part of the video, render-range.ts): the looped plate starts on the same clock */
  startFrame?: number;
  /** the frame after the last one drawn (a part of the video), default the whole video */
  endFrame?: number;
}): string {
  const { layout, style, camera, inputs, files, hud } = options;
  const { width: W, height: H } = layout.output;
  const { content } = layout;
  const chains: string[] = [];
  // Frames captured at the window's size are placed as they are (a crop of at most an odd edge pixel is free);
  // any other capture is scaled into the window.
  const { capture } = options;
  const fits = capture.width >= content.width && capture.height >= content.height && capture.width - content.width <= 1 && capture.height - content.height <= 1;
  // Then to the graph's working format, yuv420p in TV range: after a crop, by lookup tables (tvRange); a scale
  // converts as it scales.
  const scaleContent = fits
    ? `crop=${content.width}:${content.height}:0:0,setsar=1,${tvRange(capture.pixelFormat ?? null)}`
    : `scale=${content.width}:${content.height}:flags=bicubic,setsar=1,format=yuv420p`;
  // The capture's frames are on the 30 fps grid, but Matroska stores their times in whole ms (0, 33, 67, 100…):
  // one frame in three lands just after its slot, and overlay, which takes the newest frame at or before each output
  // frame, would show the one before it again (a stall every third frame of a scroll). Counting time in frames
  // (settb rescales each timestamp to the nearest) puts them back on the grid.
  const snap = `settb=1/${FPS_GRID}`;
  // Each stretch of the capture read, exactly: the frames [a, b), counted on the grid. A stretch read from the
  // capture's file starts with a seek, and a seek can hand over the frame before the one asked for (render-range.ts
  // reads one frame more for it); a stretch from a pipe is exact already, and passes through.
  const frames = (a: number, b: number) => `${snap},trim=start_pts=${a}:end_pts=${b}`;
  /**
   * Frames [a, b) of a capture input in the graph's working format. An input fed only its new pictures has each
   * brought to TV range once, then repeated over the frames that held it (fps), before the trim.
   */
  const stretch = (input: number, a: number, b: number) => {
    const restamp = inputs.restamp?.get(input);
    return restamp
      ? `[${input}:v]${snap},setpts='${restamp}',${scaleContent},fps=${FPS_GRID},trim=start_pts=${a}:end_pts=${b}`
      : `[${input}:v]${frames(a, b)},${scaleContent}`;
  };

  // At rest: the recording in its place on the plate, the corner pieces of the plate back over its corners.
  chains.push(`[${inputs.plate}:v]split=2[plate_a][plate_b]`);
  const startFrame = options.startFrame ?? 0;
  const endFrame = options.endFrame ?? camera.frames;
  const cuts = inputs.cuts ?? [];
  chains.push(`${stretch(inputs.clean, startFrame, endFrame)}[${cuts.length > 0 ? 'rec_live' : 'rec'}]`);
  // Each cut: tmix over the 2K frames around it (it outputs from its (K+1)th input on, stamped with the oldest of
  // the K it mixes), moved K-1 frames later so the dissolve starts on the cut and ends on the new picture.
  cuts.forEach((cut, i) => {
    const k = cut.weights.length;
    const into = i === cuts.length - 1 ? 'rec' : `rec_cut${i}`;
    chains.push(
      `${stretch(cut.input, cut.frame - k, cut.frame + k)},` +
        `tmix=frames=${k}:weights='${cut.weights.join(' ')}',setpts=PTS+${k - 1}[cut${i}]`,
    );
    chains.push(`[${i === 0 ? 'rec_live' : `rec_cut${i - 1}`}][cut${i}]overlay=x=0:y=0:eof_action=pass:format=yuv420[${into}]`);
  });
  chains.push(
    ...placedInStill({ still: 'plate_a', format: 'yuv420p', size: layout.output, rect: content, inner: 'rec', out: 'rest0', prefix: 'plate', fromFrame: startFrame }),
  );
  const corners = cornerPieces(layout, style);
  let last = 'rest0';
  if (corners.length === 0) chains.push('[plate_b]nullsink');
  else {
    chains.push(`[plate_b]format=yuva420p,split=${corners.length}${corners.map((_, i) => `[corner${i}]`).join('')}`);
    corners.forEach((c, i) => {
      chains.push(`[corner${i}]crop=${c.size}:${c.size}:${c.x}:${c.y}[cornerc${i}]`);
      chains.push(`[${last}][cornerc${i}]overlay=x=${c.x}:y=${c.y}:format=yuv420[restc${i}]`);
      last = `restc${i}`;
    });
  }

  // The window's entrance and exit, each from its own decoder, over the frames at rest.
  for (const [name, part, commands] of [
    ['intro', inputs.intro, files.introCommands],
    ['outro', inputs.outro, files.outroCommands],
  ] as const) {
    if (!part) continue;
    // The outro's decoder starts at the outro (its timestamps too); its background must start there as well.
    const startS = name === 'outro' ? ((camera.frames - camera.outroFrames) / 30).toFixed(4) : '0';
    const { layer } = layout;
    chains.push(`[${part.mask}:v]format=gray,loop=loop=-1:size=1:start=0[${name}_mask]`);
    const [from, to] = name === 'intro' ? [0, camera.introFrames] : [camera.frames - camera.outroFrames, camera.frames];
    chains.push(`${stretch(part.clean, from, to)},format=yuva420p[${name}_rec]`);
    chains.push(`[${name}_rec][${name}_mask]alphamerge[${name}_cut]`);
    // The window layer: the recording, cut to the window's shape, in the window's frame, with the window over it.
    // The window is drawn around the recording (transparent over it), so it is placed around it (copies) rather
    // than laid over all of it (an alpha blend of every pixel: ~100 M instructions a frame at 1080p); only where the
    // recording's corners are rounded off does its shadow show over the recording, and there it is laid over.
    const inContent = { x: content.x - layer.x, y: content.y - layer.y };
    const pieces = cornerPieces(layout, style);
    chains.push(`[${part.window}:v]format=yuva420p,split=2[${name}_window][${name}_corners]`);
    let cut = `${name}_cut`;
    if (pieces.length === 0) chains.push(`[${name}_corners]nullsink`);
    else {
      chains.push(`[${name}_corners]split=${pieces.length}${pieces.map((_, i) => `[${name}_wc${i}]`).join('')}`);
      pieces.forEach((c, i) => {
        const [x, y] = [c.x - content.x, c.y - content.y];
        // Not looped: overlay keeps laying its last frame.
        chains.push(`[${name}_wc${i}]crop=${c.size}:${c.size}:${x + inContent.x}:${y + inContent.y}[${name}_wcc${i}]`);
        chains.push(`[${cut}][${name}_wcc${i}]overlay=x=${x}:y=${y}:format=yuv420[${name}_cut${i}]`);
        cut = `${name}_cut${i}`;
      });
    }
    chains.push(
      ...placedInStill({
        still: `${name}_window`, format: 'yuva420p', size: layer, rect: { ...inContent, width: content.width, height: content.height }, inner: cut, out: `${name}_win`, prefix: name, fromFrame: from,
      }),
    );
    chains.push(`[${name}_win]sendcmd=f=${commands},scale@${name}=${layer.width}:${layer.height}:flags=bicubic[${name}_scaled]`);
    chains.push(`[${part.background}:v]format=yuv420p,loop=loop=-1:size=1:start=0,setpts=PTS+${startS}/TB[${name}_bg]`);
    chains.push(`[${name}_bg][${name}_scaled]overlay@${name}=x=${layer.x}:y=${layer.y}:shortest=1:format=yuv420:eval=frame[${name}_frame]`);
    chains.push(`[${last}][${name}_frame]overlay=x=0:y=0:eof_action=pass:format=yuv420[with_${name}]`);
    last = `with_${name}`;
  }

  // Zoom: crop per frame, scaled back to the output size (scale passes frames through when the crop is whole).
  // An aspect variant (aspect.ts) always goes through it: its crop of the stage is scaled to the video's frame.
  const frame = frameOf(layout);
  if (camera.actions.length > 0 || frame !== layout.output) {
    // exact=1: a held crop is on whole pixels (zoom-path.ts); without it crop rounds offsets down to even ones on
    // yuv420p. A move's frames between whole pixels are drawn by the sub-pixel crop before it (the crop then whole).
    const subpixel = subpixelCropFilter(camera, layout, startFrame, options.endFrame ?? camera.frames);
    chains.push(`[${last}]${subpixel ? `${subpixel},` : ''}sendcmd=f=${files.zoomCommands},crop@zoom=w=${W}:h=${H}:x=0:y=0:exact=1,null,scale=${frame.width}:${frame.height}:flags=bicubic,setsar=1[zoomed]`);
    last = 'zoomed';
  }

  // Cursor and click effects, at their size on screen whatever the zoom.
  const pointerTargets: string[] = [];
  if (inputs.effects) pointerTargets.push('effects');
  if (inputs.cursor !== null) pointerTargets.push('cursor');
  if (pointerTargets.length > 0) {
    chains.push(`[${last}]sendcmd=f=${files.pointerCommands}[pointer_in]`);
    last = 'pointer_in';
    if (inputs.effects) {
      chains.push(`[${inputs.effects.input}:v]format=yuva420p[effects_sprite]`);
      chains.push(`[${last}][effects_sprite]overlay@effects=x=-10000:y=-10000:format=yuv420:eof_action=pass[with_effects]`);
      last = 'with_effects';
    }
    if (inputs.cursor !== null) {
      chains.push(`[${last}][${inputs.cursor}:v]overlay@cursor=x=-10000:y=-10000:format=yuv420[with_cursor]`);
      last = 'with_cursor';
    }
  }

  (inputs.captions ?? []).forEach((caption, i) => {
    chains.push(`[${last}][${caption.input}:v]overlay=x=${caption.x}:y=${caption.y}:format=yuv420:enable='between(t,${caption.fromS.toFixed(3)},${caption.toS.toFixed(3)})'[with_caption${i}]`);
    last = `with_caption${i}`;
  });
  if (inputs.endCard) {
    const { input, fromS, fadeS } = inputs.endCard;
    // The still looped on the video's clock (frame n at n/30 s), its alpha faded in; laid over only once it shows.
    chains.push(`[${input}:v]format=yuva420p,loop=loop=-1:size=1:start=0,setpts=(N+${startFrame})/(${FPS_GRID}*TB),fade=t=in:st=${fromS.toFixed(3)}:d=${fadeS.toFixed(3)}:alpha=1[end_card]`);
    chains.push(`[${last}][end_card]overlay=x=0:y=0:format=yuv420:shortest=1:enable='gte(t,${fromS.toFixed(3)})'[with_end_card]`);
    last = 'with_end_card';
  }

  const tail: string[] = [];
  if (hud) {
    const unit = unitOf(layout);
    const size = Math.round(22 * unit);
    const pad = Math.round(14 * unit);
    const box = `box=1:boxcolor=black@0.62:boxborderw=${Math.round(8 * unit)}:fontcolor=white:fontsize=${size}:fontfile=${hud.fontFile}`;
    for (const step of hud.steps) {
      tail.push(`drawtext=${box}:expansion=none:textfile=${step.file}:x=${pad}:y=${pad}:enable='between(t,${step.from.toFixed(3)},${step.to.toFixed(3)})'`);
    }
    tail.push(`drawtext=${box}:expansion=normal:textfile=${hud.clock}:x=${pad}:y=${pad + Math.round(size * 1.9)}`);
  }
  tail.push(...fadeFilters(style.fade, options.durationMs / 1000));
  tail.push('format=yuv420p');
  chains.push(`[${last}]${tail.join(',')}[out]`);
  return chains.join(';\n');
}

/**
 * The fades at both ends of the video, for a video `totalS` long. The fade out eases in: before it the picture
 * dims a little each frame, more as the fade comes nearer, so that nowhere does a still frame sit within
 * smoothness.py's window (3 frames) of a change above its MOVE line (2 grey levels). A still picture that jumps
 * straight into a fade would be such a frame, and the judder metric would count it as a stall.
 *
 * Each ramp step is a second, slow fade starting `frames` before the fade and dimming by `step` a frame (ffmpeg
 * 4.1's fade is linear, so the ease is made of several; their product still ends on the colour with the main
 * fade). Two rules set the numbers, for any page from white to near black:
 * - the first three dimming frames change a white page by at most ~0.8 grey levels (0.35 % of 219), leaving room
 *   under the line for the page's own last motion (a click ripple) and the encoder's noise. One step of 0.7 % came
 *   to 1.6–2.0 levels on the bench's white FAQ section, and x264's noise (which differs between a one-pass render
 *   and one composed in parts) put the still frame before it over the line in about one run in three;
 * - any step is at most 13 times the step three frames before it (2.0 / 0.15, the metric's two lines), so a page
 *   dark enough for a step to look still is too dark for the step three frames on to count as moving.
 * ffmpeg's fade works in whole levels, each chained fade rounding on its own, so on a flat picture a step can still
 * round to no change for every pixel at once: that case is not covered, before or after this ease (docs/decisions.md).
 */
export function fadeFilters(fade: Style['fade'], totalS: number): string[] {
  const filters: string[] = [];
  const fadeIn = Math.min(fade.inMs / 1000, totalS / 2);
  const fadeOut = Math.min(fade.outMs / 1000, totalS / 2);
  if (fadeIn > 0) filters.push(`fade=t=in:st=0:d=${fadeIn.toFixed(3)}:color=${fade.color}`);
  if (fadeOut > 0) {
    const start = totalS - fadeOut;
    for (const ramp of FADE_OUT_RAMP) {
      const from = start - ramp.frames / FPS_GRID;
      if (from < 0) continue;
      filters.push(`fade=t=out:st=${from.toFixed(4)}:d=${(1 / ramp.step / FPS_GRID).toFixed(4)}:color=${fade.color}`);
    }
    filters.push(`fade=t=out:st=${start.toFixed(3)}:d=${fadeOut.toFixed(3)}:color=${fade.color}`);
  }
  return filters;
}

/** The fade out's ease: 0.35 % a frame from six frames before it, 0.7 % from three before (see fadeFilters). */
const FADE_OUT_RAMP = [
  { frames: 6, step: 0.0035 },
  { frames: 3, step: 0.0035 },
] as const;

/**
 * From the capture's pixel format to yuv420p in TV range, the graph's working format. The clean capture is JPEG,
 * full range (yuvj420p), and `format=yuv420p` converts it through swscale's general path: ~0.6 s of CPU per 300
 * frames at 1080p, on the one thread that runs the graph. A lookup table per plane does the same arithmetic for a
 * third of that (rounded: luma identical to swscale's, 1 % of chroma samples one level apart), and mergeplanes
 * relabels its planes as yuv420p without touching them (ffmpeg 4.1 has no setrange). Other formats (or an unknown
 * one) convert as before.
 */
export function tvRange(pixelFormat: string | null): string {
  if (pixelFormat !== 'yuvj420p') return 'format=yuv420p';
  const chroma = '128.5+(val-128)*224/255';
  return `lutyuv=y=16.5+val*219/255:u=${chroma}:v=${chroma},mergeplanes=0x000102:yuv420p`;
}

/**
 * Chains that place the stream `inner` (the size of `rect`) into a still frame of `size`: the still's strips around
 * the rectangle, each a looped still, stacked around it (hstack, then vstack). A stack copies each plane once; an
 * overlay of the same opaque picture converts it to a format with alpha and blends every pixel (~1 CPU-s per 300
 * frames at 1080p). The rectangle's edges are even, as yuv420p needs (layout.ts aligns them). The loops start on
 * `fromFrame`, the inner stream's first frame, so the stacks pair their frames by time from the first one on.
 */
export function placedInStill(options: {
  still: string;
  format: 'yuv420p' | 'yuva420p';
  size: { width: number; height: number };
  rect: { x: number; y: number; width: number; height: number };
  inner: string;
  out: string;
  prefix: string;
  fromFrame: number;
}): string[] {
  const { size, rect, prefix } = options;
  const right = size.width - rect.x - rect.width;
  const bottom = size.height - rect.y - rect.height;
  const strips = [
    { name: 'top', w: size.width, h: rect.y, x: 0, y: 0 },
    { name: 'left', w: rect.x, h: rect.height, x: 0, y: rect.y },
    { name: 'right', w: right, h: rect.height, x: rect.x + rect.width, y: rect.y },
    { name: 'bottom', w: size.width, h: bottom, x: 0, y: rect.y + rect.height },
  ].filter((strip) => strip.w > 0 && strip.h > 0);
  if (strips.length === 0) return [`[${options.still}]nullsink`, `[${options.inner}]null[${options.out}]`];
  const label = (name: string) => `${prefix}_${name}`;
  const has = (name: string) => strips.some((strip) => strip.name === name);
  const loop = `loop=loop=-1:size=1:start=0${options.fromFrame > 0 ? `,setpts=PTS+${options.fromFrame}/(${FPS_GRID}*TB)` : ''}`;
  const chains = [`[${options.still}]format=${options.format},split=${strips.length}${strips.map((strip) => `[${label(strip.name)}_in]`).join('')}`];
  for (const strip of strips) chains.push(`[${label(strip.name)}_in]crop=${strip.w}:${strip.h}:${strip.x}:${strip.y},${loop}[${label(strip.name)}]`);
  const row = ['left', 'right'].some(has) ? label('row') : options.inner;
  if (row !== options.inner) {
    const parts = [has('left') ? `[${label('left')}]` : '', `[${options.inner}]`, has('right') ? `[${label('right')}]` : ''].filter(Boolean);
    chains.push(`${parts.join('')}hstack=inputs=${parts.length}:shortest=1[${row}]`);
  }
  if (['top', 'bottom'].some(has)) {
    const parts = [has('top') ? `[${label('top')}]` : '', `[${row}]`, has('bottom') ? `[${label('bottom')}]` : ''].filter(Boolean);
    chains.push(`${parts.join('')}vstack=inputs=${parts.length}:shortest=1[${options.out}]`);
  } else chains.push(`[${row}]null[${options.out}]`);
  return chains;
}

/** The corners of the recording that the window rounds, as square pieces of the plate (even-aligned). */
export function cornerPieces(layout: Layout, style: Style): Array<{ x: number; y: number; size: number }> {
  const r = layout.cornerRadius;
  if (r <= 0) return [];
  const size = Math.ceil((r + 2) / 2) * 2;
  const { content: c } = layout;
  const bottom = [
    { x: c.x, y: c.y + c.height - size, size },
    { x: c.x + c.width - size, y: c.y + c.height - size, size },
  ];
  if (style.mockup !== 'minimal') return bottom;
  return [{ x: c.x, y: c.y, size }, { x: c.x + c.width - size, y: c.y, size }, ...bottom];
}

/** sendcmd lines: at each frame where a value changes, the commands that set it. */
export function commandLines(frames: number, fps: number, at: (frame: number) => Array<[target: string, command: string, value: number]>): string {
  const lines: string[] = [];
  let previous = new Map<string, number>();
  for (let i = 0; i < frames; i++) {
    const changes: string[] = [];
    const current = new Map<string, number>();
    for (const [target, command, value] of at(i)) {
      const key = `${target} ${command}`;
      current.set(key, value);
      if (previous.get(key) !== value) changes.push(`${target} ${command} ${value}`);
    }
    previous = current;
    // Slightly before the frame's timestamp, so rounding never puts a command a frame late.
    if (changes.length > 0) lines.push(`${Math.max(0, i / fps - 0.0005).toFixed(4)} ${changes.join(', ')};`);
  }
  return lines.join('\n') + '\n';
}
