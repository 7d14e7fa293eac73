import type { InteractionTimeline } from '../types.js';
import { type Camera, createCamera, FPS } from './camera.js';
import { type ClickEffectSprite, clickEffectSprite } from './click-effects.js';
import { asSeenThrough, type Cut, withoutScrolls } from './cuts.js';
import { commandLines } from './filter-graph.js';
import type { LayerFiles } from './layers.js';
import { type Layout, unitOf } from './layout.js';
import { type ClickAt, clickEffects, pointerPath } from './pointer-track.js';
import type { Style } from './style.js';
import { type Crop, isWholeCrop } from './zoom-path.js';

/**
 * What a render decides before ffmpeg runs, frame by frame: the camera (window layer and zoom), the cuts to
 * dissolve, the cursor's and the click effects' places, and the sendcmd lines that carry them. Split from the
 * render itself (compose.ts) so that a part of the video can be composed while the rest is still being recorded
 * (compose-ahead.ts): a part is kept only if the plan made on the whole recording gives its frames the same values
 * (`frameValues`).
 */
export type Command = [target: string, command: string, value: number];

export interface ComposePlan {
  layout: Layout;
  camera: Camera;
  /** the cuts dissolved, clear of the intro and the outro */
  cuts: Cut[];
  /** the click effects alive at each frame */
  clicks: ClickAt[][];
  sprite: ClickEffectSprite | null;
  zoomAt(frame: number): Command[];
  pointerAt(frame: number): Command[];
  /** the window layer's scale and place, for the intro's or outro's commands */
  layerAt(name: 'intro' | 'outro', frame: number): Command[];
  /**
   * Everything that decides how frame i of the video looks beyond the captured picture itself, as text: two plans
   * that agree on it for a range of frames compose those frames alike.
   */
  frameValues(frame: number): string;
}

export function planCompose(input: {
  layout: Layout;
  timeline: InteractionTimeline;
  style: Style;
  durationMs: number;
  layers: Pick<LayerFiles, 'cursor' | 'colors'>;
  /** cuts found in the capture (cuts.ts), before those inside scrolls, the intro or the outro are left out */
  cuts: Cut[];
}): ComposePlan {
  const { layout, timeline, style, layers } = input;
  const camera = createCamera(layout, timeline, style, input.durationMs);
  // Cuts inside the intro or the outro are left alone: those frames come from decoders of their own.
  // Each dissolved for the change it makes on screen: under a zoom, the part of the capture in the crop.
  const cuts = withoutScrolls(input.cuts, timeline.scrolls, FPS, timeline.viewport.height / 2).map((cut) => asSeenThrough(cut, camera.at(cut.frame).crop, layout)).filter(
    (cut) => cut.frame - cut.weights.length > camera.introFrames && cut.frame + cut.weights.length < camera.frames - camera.outroFrames,
  );
  const clicks = clickEffects(timeline, camera.frames);
  const unit = unitOf(layout);
  const sprite =
    style.clickEffect.style !== 'none' && timeline.clicks.length > 0
      ? clickEffectSprite(style.clickEffect.style, layers.colors.clickEffect, style.clickEffect.scale, unit)
      : null;
  const path30 = pointerPath(timeline, camera.frames);
  const offscreen = -10000;

  const wholeStage: Crop = { x: 0, y: 0, width: layout.output.width, height: layout.output.height };
  const zoomAt = (i: number): Command[] => {
    // A crop between whole pixels is the sub-pixel crop's (subpixel-crop.ts): the plain one passes the frame on.
    const crop = isWholeCrop(camera.at(i).crop) ? camera.at(i).crop : wholeStage;
    return [['crop@zoom', 'w', crop.width], ['crop@zoom', 'h', crop.height], ['crop@zoom', 'x', crop.x], ['crop@zoom', 'y', crop.y]];
  };
  const pointerAt = (i: number): Command[] => {
    const commands: Command[] = [];
    if (layers.cursor) {
      const p = camera.project(i, camera.fromViewport(path30[i]!));
      commands.push(['overlay@cursor', 'x', Math.round(p.x - layers.cursor.hotspotX)], ['overlay@cursor', 'y', Math.round(p.y - layers.cursor.hotspotY)]);
    }
    if (sprite) {
      const alive = clicks[i]!.at(-1);
      const p = alive ? camera.project(i, camera.fromViewport(alive)) : null;
      commands.push(
        ['overlay@effects', 'x', p ? Math.round(p.x - sprite.size / 2) : offscreen],
        ['overlay@effects', 'y', p ? Math.round(p.y - sprite.size / 2) : offscreen],
      );
    }
    return commands;
  };
  const layerAt = (name: 'intro' | 'outro', i: number): Command[] => {
    const { layer } = camera.at(i);
    return [[`scale@${name}`, 'w', layer.width], [`scale@${name}`, 'h', layer.height], [`overlay@${name}`, 'x', layer.x], [`overlay@${name}`, 'y', layer.y]];
  };
  const frameValues = (i: number): string => {
    const { layer, crop } = camera.at(i);
    const whole = crop.x === 0 && crop.y === 0 && crop.width === layout.output.width && crop.height === layout.output.height;
    // Without a sprite no effect is drawn, whatever the clicks.
    const effect = sprite ? clicks[i]!.at(-1) : undefined;
    const cut = cuts.find((c) => i >= c.frame - c.weights.length - 1 && i <= c.frame + c.weights.length + 1);
    const cursor = layers.cursor ? pointerAt(i).slice(0, 2).map((c) => c[2]) : [];
    return JSON.stringify([
      [layer.x, layer.y, layer.width, layer.height],
      whole ? null : [crop.x, crop.y, crop.width, crop.height],
      cursor,
      effect ? [Math.round(effect.x * 100), Math.round(effect.y * 100), Math.round(effect.progress * 1000)] : null,
      cut ? [cut.frame, cut.weights] : null,
    ]);
  };
  return { layout, camera, cuts, clicks, sprite, zoomAt, pointerAt, layerAt, frameValues };
}

/** The sendcmd files' contents of a plan. */
export function planCommands(plan: ComposePlan): { zoom: string; pointer: string; intro: string; outro: string } {
  const { camera } = plan;
  const layerCommands = (name: 'intro' | 'outro', from: number, to: number) =>
    commandLines(camera.frames, FPS, (i) => (i < from || i >= to ? [] : plan.layerAt(name, i)));
  return {
    zoom: commandLines(camera.frames, FPS, plan.zoomAt),
    pointer: commandLines(camera.frames, FPS, plan.pointerAt),
    intro: layerCommands('intro', 0, camera.introFrames),
    outro: layerCommands('outro', camera.frames - camera.outroFrames, camera.frames),
  };
}
