import type { Rgba } from './layers.js';
import type { ClickEffectStyle } from './style.js';

/**
 * Click effects, drawn per frame into a small RGBA sprite (straight alpha) that ffmpeg lays over the video at
 * the click. They are simple round shapes, so they are drawn here from their distance function, anti-aliased,
 * rather than rendered as images: a few thousand pixels a frame.
 *
 *   pulse   a filled disc that swells and fades
 *   ripple  two rings that spread out, one after the other, and fade
 *   glow    a soft halo that blooms and fades
 */
export interface ClickEffectSprite {
  /** the sprite is size × size, the click at its centre */
  size: number;
  /** draws the effects alive this frame (progress 0 → 1) into `out` (cleared first) */
  draw(out: Buffer, progresses: number[]): void;
}

export function clickEffectSprite(style: ClickEffectStyle, color: Rgba, scale: number, unit: number): ClickEffectSprite {
  const radius = 46 * scale * unit; // the effect's largest radius, in output pixels
  const size = Math.max(8, Math.ceil((radius + 4) * 2 / 2) * 2);
  const c = size / 2;
  const [r, g, b, a] = color;
  const ring = Math.max(1.5, 3.2 * unit * Math.sqrt(scale));

  const coverage = (progress: number, d: number): number => {
    switch (style) {
      case 'pulse': {
        const e = easeOut(progress);
        const rr = radius * (0.25 + 0.75 * e);
        return 0.5 * (1 - progress) * clamp01(rr - d + 0.5);
      }
      case 'ripple': {
        let total = 0;
        for (const delay of [0, 0.28]) {
          const p = (progress - delay) / (1 - delay);
          if (p < 0 || p > 1) continue;
          const rr = radius * (0.15 + 0.85 * easeOut(p));
          total = Math.max(total, (1 - p) * 0.95 * clamp01(ring / 2 - Math.abs(d - rr) + 0.5));
        }
        return total;
      }
      case 'glow': {
        const e = easeOut(progress);
        const sigma = radius * (0.3 + 0.3 * e);
        return 0.7 * (1 - progress) * Math.exp(-((d / sigma) ** 2));
      }
      default:
        return 0;
    }
  };

  return {
    size,
    draw(out, progresses) {
      out.fill(0);
      if (style === 'none' || progresses.length === 0) return;
      for (let y = 0; y < size; y++) {
        for (let x = 0; x < size; x++) {
          const d = Math.hypot(x + 0.5 - c, y + 0.5 - c);
          if (d > radius + 2) continue;
          let alpha = 0;
          for (const progress of progresses) alpha = Math.max(alpha, coverage(progress, d));
          if (alpha <= 0.002) continue;
          const i = (y * size + x) * 4;
          out[i] = r;
          out[i + 1] = g;
          out[i + 2] = b;
          out[i + 3] = Math.round(255 * Math.min(1, alpha * a));
        }
      }
    },
  };
}

function easeOut(t: number): number {
  return 1 - (1 - Math.min(1, Math.max(0, t))) ** 3;
}

function clamp01(value: number): number {
  return Math.min(1, Math.max(0, value));
}
