import fs from 'node:fs/promises';
import path from 'node:path';
import type { Page } from 'puppeteer-core';
import type { Presentation } from '../../demos/presentation.js';
import type { Style } from './style.js';

/**
 * The end card (issue 57, `presentation.endCard`): the video closes on the product's name and a call to action
 * with its address, as a still drawn once by the browser (text set as text, never markup) and faded in over the
 * last stretch of the video. Optional: without `endCard.enabled` nothing changes. What it does not say is taken from
 * the page: its name (endCardDefaults) and its address.
 */
export interface EndCardText {
  title: string;
  ctaText: string;
  ctaUrl: string;
}

export interface EndCardTiming {
  /** when the card starts to fade in (s) */
  fromS: number;
  /** how long its fade-in takes (s) */
  fadeS: number;
}

/** Shown for 30 % of the video, at least 1.5 s and at most 3 s: long enough to read, short of hiding the tour. */
export function endCardTiming(durationMs: number): EndCardTiming {
  const shownMs = Math.min(3000, Math.max(1500, durationMs * 0.3));
  return { fromS: Math.max(0, durationMs - shownMs) / 1000, fadeS: 0.4 };
}

/**
 * When burned-in captions are gone (s): before the fade out starts (with a frame to spare for its eased start) and
 * before the end card fades in.
 */
export function captionsClearAt(durationMs: number, style: Style, endCardFromS: number | null): number {
  const beforeFade = style.fade.outMs > 0 ? (durationMs - style.fade.outMs - 100) / 1000 : durationMs / 1000;
  return endCardFromS === null ? beforeFade : Math.min(beforeFade, endCardFromS);
}

/**
 * The page's name for the card, from what the page says of itself: `og:site_name`, else `application-name`, else
 * the part of its title that names the host ("Pricing | Acme" on acme.com: "Acme"), else the title's first part.
 */
export async function pageNameOf(page: Page): Promise<string | null> {
  const found = (await page
    .evaluate(`(() => {
      const meta = (name) => document.querySelector('meta[property="' + name + '"], meta[name="' + name + '"]')?.getAttribute('content') || '';
      return { site: meta('og:site_name'), app: meta('application-name'), title: document.title || '', host: location.hostname };
    })()`)
    .catch(() => null)) as { site: string; app: string; title: string; host: string } | null;
  if (!found) return null;
  return nameFrom(found);
}

export function nameFrom(page: { site: string; app: string; title: string; host: string }): string | null {
  const clean = (text: string) => text.replace(/\s+/g, ' ').trim();
  for (const named of [page.site, page.app]) if (clean(named)) return clean(named).slice(0, 80);
  const parts = clean(page.title).split(/\s+[|–—·:-]\s+/).map(clean).filter(Boolean);
  if (parts.length === 0) return null;
  const label = page.host.replace(/^www\./, '').split('.')[0]!.toLowerCase();
  const squash = (text: string) => text.toLowerCase().replace(/[^a-z0-9]/g, '');
  const hostPart = parts.find((part) => label.length >= 3 && squash(part).includes(label));
  return (hostPart ?? parts[0]!).slice(0, 80);
}

/** The card's words: what the presentation says, the rest from the page; null when it asks for no card. */
export function resolveEndCard(presentation: Presentation | null, page: { name: string | null; url: string }): EndCardText | null {
  const asked = presentation?.endCard;
  if (!asked?.enabled) return null;
  const url = asked.ctaUrl ?? page.url;
  return {
    title: asked.title ?? page.name ?? hostOf(page.url),
    ctaText: asked.ctaText ?? `Visit ${hostOf(url)}`,
    ctaUrl: url,
  };
}

function hostOf(url: string): string {
  try {
    return new URL(url).hostname.replace(/^www\./, '');
  } catch {
    return url;
  }
}

/** The address as people read it: no scheme, no trailing slash. */
export function shownAddress(url: string): string {
  return url.replace(/^https?:\/\//, '').replace(/^www\./, '').replace(/\/$/, '');
}

/**
 * Draws the card as a PNG of the whole frame: the video dimmed behind a centred panel with the name, the call to
 * action as a button in the click effect's colour, and the address under it.
 */
export async function renderEndCardImage(options: { page: Page; card: EndCardText; style: Style; output: { width: number; height: number }; dir: string }): Promise<string> {
  const { page, card, style, output } = options;
  await fs.mkdir(options.dir, { recursive: true });
  await page.setViewport({ width: output.width, height: output.height, deviceScaleFactor: 1 });
  // Sized by the frame's shorter side (its height in 16:9, as always; its width in a 9:16 or 1:1 cut, issue 59).
  await page.setContent(endCardHtml(Math.min(output.width, output.height) / 1080, style.clickEffect.color, output.width <= output.height), { waitUntil: 'load' });
  await page.evaluate(
    (text: { title: string; cta: string; address: string }) => {
      document.querySelector('.title')!.textContent = text.title;
      document.querySelector('.cta')!.textContent = text.cta;
      document.querySelector('.address')!.textContent = text.address;
    },
    { title: card.title, cta: card.ctaText, address: shownAddress(card.ctaUrl) },
  );
  await page.evaluate(() => document.fonts.ready);
  const file = path.join(options.dir, 'end-card.png');
  await fs.writeFile(file, await page.screenshot({ type: 'png', omitBackground: true, clip: { x: 0, y: 0, ...output } }));
  return file;
}

function endCardHtml(unit: number, accent: string, upright = false): string {
  const px = (value: number) => `${Math.round(value * unit)}px`;
  // The accent is a colour the presentation schema accepted (a CSS colour); anything else falls back.
  const button = /^[#\w(),.%\s-]+$/.test(accent) ? accent : '#6366f1';
  return `<!doctype html><html><head><meta charset="utf-8"><style>
html,body{margin:0;background:transparent}
body{width:100vw;height:100vh;display:flex;align-items:center;justify-content:center;background:rgba(9,10,15,.78);
  font-family:system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif;-webkit-font-smoothing:antialiased}
.panel{max-width:${upright ? 86 : 72}vw;box-sizing:${upright ? 'border-box' : 'content-box'};padding:${px(64)} ${px(88)};border-radius:${px(28)};background:#fff;text-align:center;
  box-shadow:0 ${px(24)} ${px(80)} rgba(0,0,0,.45)}
.title{font-size:${px(76)};font-weight:750;letter-spacing:-.02em;line-height:1.1;color:#0f172a;overflow-wrap:anywhere}
.cta{display:inline-block;margin-top:${px(40)};padding:${px(20)} ${px(44)};border-radius:999px;background:${button};color:#fff;
  font-size:${px(38)};font-weight:650}
.address{margin-top:${px(24)};font-size:${px(30)};color:#475569;overflow-wrap:anywhere}
</style></head><body><div class="panel"><div class="title"></div><div class="cta"></div><div class="address"></div></div></body></html>`;
}
