import { aspectVariants, type Presentation } from '../../demos/presentation.js';

/**
 * A Presentation with every member decided: what the compositor draws. The defaults are what most users see (they
 * send no presentation at all), so they are chosen to look finished on their own: a soft indigo-to-pink gradient,
 * a light macOS window with a little room around it, a gentle automatic zoom, an arrow cursor with a ripple on
 * clicks, a short fade and the window rising in.
 */
export type Background =
  | { kind: 'color'; color: string }
  | { kind: 'gradient'; from: string; to: string; angle: number }
  | { kind: 'image'; imageUrl: string };

export type Mockup = 'macos-light' | 'macos-dark' | 'minimal' | 'none';
export type CursorStyle = 'dot' | 'arrow' | 'crosshair' | 'circle' | 'none';
export type ClickEffectStyle = 'pulse' | 'ripple' | 'glow' | 'none';

export interface Style {
  background: Background;
  mockup: Mockup;
  /** share of the frame's width (and of its height) left around the window on each side */
  padding: number;
  /** intensity is the magnification at full zoom (1 = none, 3 = three times) */
  zoom: { enabled: boolean; intensity: number; transitionMs: number };
  /** size: the cursor's height in pixels of a 1080p output (scaled for 720p), whatever the zoom */
  cursor: { style: CursorStyle; color: string; size: number };
  /** scale: the effect's size relative to the default (about 3.5 cursor sizes across at 1) */
  clickEffect: { style: ClickEffectStyle; color: string; scale: number };
  fade: { inMs: number; outMs: number; color: 'black' | 'white' };
  windowAnimation: { intro: boolean; outro: boolean; introDurationMs: number; outroDurationMs: number };
  debugHud: boolean;
}

export const DEFAULT_STYLE: Style = {
  background: { kind: 'gradient', from: '#4f46e5', to: '#db2777', angle: 135 },
  mockup: 'macos-light',
  padding: 0.07,
  zoom: { enabled: true, intensity: 1.6, transitionMs: 700 },
  cursor: { style: 'arrow', color: '#111827', size: 30 },
  clickEffect: { style: 'ripple', color: '#6366f1', scale: 1 },
  fade: { inMs: 300, outMs: 400, color: 'black' },
  windowAnimation: { intro: true, outro: false, introDurationMs: 800, outroDurationMs: 600 },
  debugHud: false,
};

export function resolveStyle(presentation: Presentation | null | undefined): Style {
  const p = presentation ?? {};
  const d = DEFAULT_STYLE;
  const mockup = p.mockup ?? d.mockup;
  return {
    background: resolveBackground(p.background) ?? d.background,
    mockup,
    // "none" is the full-bleed recording: no room around it unless asked for.
    padding: p.padding ?? (mockup === 'none' ? 0 : d.padding),
    zoom: {
      enabled: p.zoom?.enabled ?? d.zoom.enabled,
      intensity: p.zoom?.intensity ?? d.zoom.intensity,
      transitionMs: p.zoom?.transitionMs ?? d.zoom.transitionMs,
    },
    cursor: {
      style: p.cursor?.style ?? d.cursor.style,
      color: nonEmpty(p.cursor?.color) ?? d.cursor.color,
      size: p.cursor?.size ?? d.cursor.size,
    },
    clickEffect: {
      style: p.clickEffect?.style ?? d.clickEffect.style,
      color: nonEmpty(p.clickEffect?.color) ?? d.clickEffect.color,
      scale: p.clickEffect?.scale ?? d.clickEffect.scale,
    },
    fade: {
      inMs: p.fade?.inMs ?? d.fade.inMs,
      outMs: p.fade?.outMs ?? d.fade.outMs,
      color: p.fade?.color ?? d.fade.color,
    },
    windowAnimation: {
      intro: p.windowAnimation?.intro ?? d.windowAnimation.intro,
      outro: p.windowAnimation?.outro ?? d.windowAnimation.outro,
      introDurationMs: p.windowAnimation?.introDurationMs ?? d.windowAnimation.introDurationMs,
      outroDurationMs: p.windowAnimation?.outroDurationMs ?? d.windowAnimation.outroDurationMs,
    },
    debugHud: p.debugHud ?? d.debugHud,
  };
}

function resolveBackground(value: Presentation['background']): Background | null {
  if (value === undefined) return null;
  if (typeof value === 'string') return nonEmpty(value) ? { kind: 'color', color: value.trim() } : null;
  if ('imageUrl' in value) return { kind: 'image', imageUrl: value.imageUrl };
  return { kind: 'gradient', from: value.from, to: value.to, angle: value.angle ?? 135 };
}

function nonEmpty(value: string | undefined): string | null {
  return value !== undefined && value.trim() !== '' ? value.trim() : null;
}

/**
 * The presentation a demo is really shown with: every member of `presentation` with the compositor's defaults
 * filled in (resolveStyle), as a Presentation again. What the restyle form opens on, so that an untouched form
 * describes the video as it is; the recording template is kept as stored (it is the planner's, not the look's).
 */
export function effectivePresentation(presentation: Presentation | null | undefined): Presentation {
  const style = resolveStyle(presentation);
  const b = style.background;
  return {
    background: b.kind === 'color' ? b.color : b.kind === 'image' ? { imageUrl: b.imageUrl } : { from: b.from, to: b.to, angle: b.angle },
    mockup: style.mockup,
    padding: style.padding,
    zoom: { ...style.zoom },
    cursor: { ...style.cursor },
    clickEffect: { ...style.clickEffect },
    fade: { ...style.fade },
    windowAnimation: { ...style.windowAnimation },
    debugHud: style.debugHud,
    // Issue 57: the end card is off unless asked for; its words are the page's unless given.
    endCard: presentation?.endCard ? { ...presentation.endCard } : { enabled: false },
    ...(presentation?.recordingTemplate ? { recordingTemplate: presentation.recordingTemplate } : {}),
    // Issue 59: narration is not the compositor's; kept as asked when on, and no member when off (its default).
    ...(presentation?.narration?.enabled
      ? { narration: { enabled: true, speed: presentation.narration.speed ?? 1, ...(presentation.narration.voice ? { voice: presentation.narration.voice } : {}) } }
      : {}),
    // The cuts the demo is made in (issue 59), written one way: the 16:9 video and each variant, or nothing for none.
    ...(aspectVariants(presentation).length > 0 ? { aspect: ['16:9', ...aspectVariants(presentation)] } : {}),
  };
}
