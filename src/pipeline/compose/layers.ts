import fs from 'node:fs/promises';
import path from 'node:path';
import type { Page } from 'puppeteer-core';
import type { Layout } from './layout.js';
import { isCssColour } from '../../demos/css-colour.js';
import { type CursorStyle, DEFAULT_STYLE, type Style } from './style.js';

/**
 * The still layers of a presentation, drawn once per render by the browser (which draws CSS gradients, shadows and
 * rounded corners as well as anything can) and composited per frame by ffmpeg:
 *
 *   plate.png    the whole frame at rest: background, the window's shadow and title bar; the recording's place is
 *                transparent (with rounded corners), so its corner pieces can be laid back over the recording
 *   bg.png       the background alone                                    } only when the window animates: the
 *   window.png   the window layer alone: shadow, title bar, hole         } window layer then moves and scales
 *   mask.png     the recording's shape: white rounded rectangle on black } over the background
 *   cursor.png   the cursor at its on-screen size, with its hotspot
 *
 * Colours are CSS colours; one the browser does not understand falls back to the default. The background image,
 * when there is one, arrives as bytes (fetched through the SSRF guard by the caller) and is shown as a data URL:
 * the page itself makes no request.
 */
export interface LayerFiles {
  plate: string;
  background: string | null;
  window: string | null;
  mask: string | null;
  cursor: { file: string; width: number; height: number; hotspotX: number; hotspotY: number } | null;
  /** the colours as the browser read them, 0–255 and alpha 0–1 */
  colors: { clickEffect: Rgba };
}

export type Rgba = [number, number, number, number];

export interface RenderLayersOptions {
  page: Page;
  layout: Layout;
  style: Style;
  dir: string;
  /** whether the window animates (then bg/window/mask are drawn too) */
  animated: boolean;
  backgroundImage: { bytes: Buffer; type: 'png' | 'jpeg' | 'webp' } | null;
}

export async function renderLayers(options: RenderLayersOptions): Promise<LayerFiles> {
  const { page, layout, style, dir } = options;
  const { width: W, height: H } = layout.output;
  await page.setViewport({ width: W, height: H, deviceScaleFactor: 1 });
  await page.setContent(layersHtml(options), { waitUntil: 'load' });
  await page.evaluate(async () => {
    await document.fonts.ready;
    await Promise.all([...document.images].map((image) => image.decode().catch(() => undefined)));
  });

  const shot = async (name: string, mode: string, clip: { x: number; y: number; width: number; height: number }) => {
    await page.evaluate((m: string) => {
      document.body.dataset.mode = m;
    }, mode);
    const file = path.join(dir, `${name}.png`);
    // optimizeForSpeed: a faster PNG encoding in the browser (larger files, same pixels); they live for one render.
    const png = await page.screenshot({ type: 'png', omitBackground: true, clip, captureBeyondViewport: true, optimizeForSpeed: true });
    await fs.writeFile(file, png);
    return file;
  };

  const plate = await shot('plate', 'plate', { x: 0, y: 0, width: W, height: H });
  let background: string | null = null;
  let window: string | null = null;
  let mask: string | null = null;
  if (options.animated) {
    background = await shot('bg', 'background', { x: 0, y: 0, width: W, height: H });
    window = await shot('window', 'window', layout.layer);
    mask = await shot('mask', 'mask', layout.content);
  }
  let cursor: LayerFiles['cursor'] = null;
  if (style.cursor.style !== 'none') {
    const sprite = cursorSprite(style.cursor.style, style.cursor.size * (H / 1080));
    const file = await shot('cursor', 'cursor', { x: 0, y: 0, width: sprite.box, height: sprite.box });
    cursor = { file, width: sprite.box, height: sprite.box, hotspotX: sprite.hotspot.x, hotspotY: sprite.hotspot.y };
  }
  // Colours as the browser reads them (any CSS colour a user may write), as rgba(); a string, so no compiled helper
  // names leak into the page.
  const computed = (await page.evaluate(
    `['click-color'].map((id) => getComputedStyle(document.getElementById(id)).color)`,
  )) as string[];
  const colors = { clickEffect: parseRgb(computed[0] ?? '') };
  return { plate, background, window, mask, cursor, colors };
}

function parseRgb(value: string): Rgba {
  const parts = /rgba?\(([^)]+)\)/.exec(value)?.[1]?.split(/[\s,/]+/).filter(Boolean).map(Number) ?? [];
  const [r = 0, g = 0, b = 0, a = 1] = parts;
  return [r, g, b, a];
}

/** The cursor's drawing box (square, room for its shadow) and hotspot, in output pixels. */
export function cursorSprite(style: CursorStyle, size: number): { box: number; hotspot: { x: number; y: number }; size: number } {
  const box = Math.ceil(size * 1.5) + 8;
  if (style === 'arrow') return { box, hotspot: { x: 4, y: 3 }, size };
  return { box, hotspot: { x: Math.floor(box / 2), y: Math.floor(box / 2) }, size };
}

function layersHtml({ layout, style, backgroundImage }: RenderLayersOptions): string {
  const { width: W, height: H } = layout.output;
  const { window: win, content, titleBarHeight: tb, cornerRadius: r, shadow } = layout;
  const unit = H / 1080;
  const dark = style.mockup === 'macos-dark';
  const bgCss = backgroundCss(style, backgroundImage);
  const roundTop = style.mockup === 'minimal';
  // The plate's hole: the recording's rectangle, with the corners the window rounds.
  const hole = roundedRectPath(content, { tl: roundTop ? r : 0, tr: roundTop ? r : 0, br: r, bl: r });
  const cursor = cursorSprite(style.cursor.style, style.cursor.size * unit);
  const css = `
    html, body { margin: 0; width: ${W}px; height: ${H}px; overflow: hidden; background: transparent; }
    .bg { position: absolute; inset: 0; background: ${backgroundCss(DEFAULT_STYLE, null)}; background: ${bgCss}; }
    .window { position: absolute; left: ${win.x}px; top: ${win.y}px; width: ${win.width}px; height: ${win.height}px;
      border-radius: ${r}px; ${shadow.blur ? `box-shadow: 0 ${shadow.offsetY}px ${shadow.blur}px rgba(0,0,0,.34), 0 ${Math.round(2 * unit)}px ${Math.round(6 * unit)}px rgba(0,0,0,.18);` : ''} }
    .titlebar { position: absolute; left: 0; top: 0; right: 0; height: ${tb}px; border-radius: ${r}px ${r}px 0 0;
      background: ${dark ? 'linear-gradient(#3a3a3c, #2c2c2e)' : 'linear-gradient(#f7f7f7, #e9e9e9)'};
      box-shadow: inset 0 -1px 0 ${dark ? '#1c1c1e' : '#d2d2d2'}; }
    .light { position: absolute; top: ${(tb - 12 * unit) / 2}px; width: ${12 * unit}px; height: ${12 * unit}px; border-radius: 50%;
      box-shadow: inset 0 0 0 ${0.5 * unit}px rgba(0,0,0,.18); }
    .mask { position: absolute; left: ${content.x}px; top: ${content.y}px; width: ${content.width}px; height: ${content.height}px;
      background: #000; }
    .mask > div { width: 100%; height: 100%; background: #fff; border-radius: ${roundTop ? r : 0}px ${roundTop ? r : 0}px ${r}px ${r}px; }
    .cursor { position: absolute; left: 0; top: 0; width: ${cursor.box}px; height: ${cursor.box}px; }
    .probe { display: none; }
    body > * { display: none; }
    body[data-mode="plate"] .bg, body[data-mode="plate"] .window,
    body[data-mode="background"] .bg,
    body[data-mode="window"] .window,
    body[data-mode="mask"] .mask,
    body[data-mode="cursor"] .cursor { display: block; }
    body[data-mode="plate"] .bg { clip-path: ${style.mockup === 'none' && style.padding === 0 ? 'none' : `path(evenodd, "M0 0H${W}V${H}H0Z ${hole}")`}; }
  `;
  const lights = ['#ff5f57', '#febc2e', '#28c840']
    .map((color, i) => `<div class="light" style="left:${(14 + i * 20) * unit}px;background:${color}"></div>`)
    .join('');
  const chrome = tb > 0 ? `<div class="titlebar">${lights}</div>` : '';
  return `<!doctype html><html><head><meta charset="utf-8"><style>${css}</style></head><body data-mode="plate">
    <div class="bg"></div>
    <div class="window">${chrome}</div>
    <div class="mask"><div></div></div>
    <div class="cursor">${cursorSvg(style.cursor.style, cursor.size, cursor.box, cssColor(style.cursor.color, DEFAULT_STYLE.cursor.color))}</div>
    <div class="probe" id="click-color" style="color:${DEFAULT_STYLE.clickEffect.color};color:${cssColor(style.clickEffect.color, DEFAULT_STYLE.clickEffect.color)}"></div>
  </body></html>`;
}

function backgroundCss(style: Pick<Style, 'background'>, image: RenderLayersOptions['backgroundImage']): string {
  const bg = style.background;
  const fallback = DEFAULT_STYLE.background.kind === 'gradient' ? DEFAULT_STYLE.background : { from: '#4f46e5', to: '#db2777' };
  const gradient = (g: { from: string; to: string; angle?: number }) =>
    `linear-gradient(${Number.isFinite(g.angle) ? g.angle : 135}deg, ${cssColor(g.from, fallback.from)}, ${cssColor(g.to, fallback.to)})`;
  // A stored colour that is not one (accepted before requests were checked): the default background, not half of it.
  if (bg.kind === 'color') return isCssColour(bg.color) ? bg.color.trim() : gradient(fallback);
  if (bg.kind === 'gradient') return gradient(bg);
  if (!image) return '#1f2937';
  const mime = image.type === 'jpeg' ? 'image/jpeg' : `image/${image.type}`;
  return `center / cover no-repeat url("data:${mime};base64,${image.bytes.toString('base64')}"), #1f2937`;
}

/**
 * A colour written by a user goes into CSS: only colour syntax may pass (a name, #hex, or a colour function of
 * numbers), never anything that could end the declaration or load a URL. Requests are checked (presentationInputSchema);
 * a presentation stored before that check falls back here.
 */
export function cssColor(value: string, fallback: string): string {
  const v = value.trim();
  return isCssColour(v) ? v : fallback;
}

function roundedRectPath(rect: { x: number; y: number; width: number; height: number }, radius: { tl: number; tr: number; br: number; bl: number }): string {
  const { x, y, width: w, height: h } = rect;
  const { tl, tr, br, bl } = radius;
  return [
    `M${x + tl} ${y}`,
    `H${x + w - tr}`,
    tr ? `A${tr} ${tr} 0 0 1 ${x + w} ${y + tr}` : '',
    `V${y + h - br}`,
    br ? `A${br} ${br} 0 0 1 ${x + w - br} ${y + h}` : '',
    `H${x + bl}`,
    bl ? `A${bl} ${bl} 0 0 1 ${x} ${y + h - bl}` : '',
    `V${y + tl}`,
    tl ? `A${tl} ${tl} 0 0 1 ${x + tl} ${y}` : '',
    'Z',
  ].join('');
}

function cursorSvg(style: CursorStyle, size: number, box: number, color: string): string {
  const s = size;
  const c = box / 2;
  const shadow = `<filter id="s" x="-50%" y="-50%" width="200%" height="200%"><feDropShadow dx="0" dy="${s * 0.04}" stdDeviation="${s * 0.05}" flood-opacity=".35"/></filter>`;
  let shape: string;
  switch (style) {
    case 'arrow': {
      // The classic pointer, tip at (4, 3); its height is `size`.
      const k = s / 24;
      shape = `<path transform="translate(4 3) scale(${k})" d="M0 0 L0 18.5 L4.6 14.3 L7.6 21.4 L10.8 20 L7.8 13.1 L14 13.1 Z"
        fill="${color}" stroke="#fff" stroke-width="${1.5}" stroke-linejoin="round"/>`;
      break;
    }
    case 'dot':
      shape = `<circle cx="${c}" cy="${c}" r="${s / 2 - 1}" fill="${color}" stroke="#fff" stroke-width="${Math.max(1.5, s * 0.1)}"/>`;
      break;
    case 'circle':
      shape = `<circle cx="${c}" cy="${c}" r="${s / 2 - 1}" fill="${color}" fill-opacity=".18" stroke="${color}" stroke-width="${Math.max(2, s * 0.12)}"/>`;
      break;
    case 'crosshair': {
      const h = s / 2;
      const g = s * 0.14;
      const line = (x1: number, y1: number, x2: number, y2: number) => `M${c + x1} ${c + y1}L${c + x2} ${c + y2}`;
      const d = [line(-h, 0, -g, 0), line(g, 0, h, 0), line(0, -h, 0, -g), line(0, g, 0, h)].join('');
      const width = Math.max(1.5, s * 0.08);
      shape = `<path d="${d}" stroke="#fff" stroke-width="${width + 2}" stroke-linecap="round"/><path d="${d}" stroke="${color}" stroke-width="${width}" stroke-linecap="round"/>
        <circle cx="${c}" cy="${c}" r="${Math.max(1, s * 0.05)}" fill="${color}"/>`;
      break;
    }
    default:
      shape = '';
  }
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${box}" height="${box}" viewBox="0 0 ${box} ${box}"><defs>${shadow}</defs><g filter="url(#s)">${shape}</g></svg>`;
}
