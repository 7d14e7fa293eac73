/**
 * `npm run make:background-catalog`: renders the built-in background catalog
 * (src/backgrounds/catalog.ts) to assets/backgrounds/<id>.jpg, 1920×1080, with the project's Chromium. Run once
 * when the catalog changes and commit the JPEGs: the service serves the files, it never renders them.
 *
 * Each JPEG must stay under 150 KB (the twelve under 1.5 MB): the quality steps down until it fits.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { ASSETS_DIR, CATALOG, type CatalogBackground } from '../src/backgrounds/catalog.js';
import { launchBrowser } from '../src/pipeline/browser/launch.js';

const WIDTH = 1920;
const HEIGHT = 1080;
const MAX_BYTES = 150 * 1024;

/** Mesh gradients: soft radial blobs over a base colour. Only `image` entries need one. */
const MESHES: Record<string, string> = {
  aurora: mesh('#0b1026', [
    ['18% 22%', '#14b8a6', 55], ['78% 18%', '#7c3aed', 50], ['55% 85%', '#22c55e', 45], ['92% 75%', '#2563eb', 40],
  ]),
  dusk: mesh('#2a1b3d', [
    ['15% 85%', '#f97316', 55], ['50% 100%', '#ec4899', 55], ['85% 20%', '#6d28d9', 55], ['20% 10%', '#be185d', 40],
  ]),
  lagoon: mesh('#e0f2fe', [
    ['10% 15%', '#67e8f9', 50], ['80% 30%', '#93c5fd', 55], ['40% 90%', '#5eead4', 50], ['95% 95%', '#a5b4fc', 40],
  ]),
  meadow: mesh('#ecfccb', [
    ['15% 80%', '#86efac', 55], ['75% 15%', '#fde68a', 50], ['90% 85%', '#4ade80', 45], ['30% 10%', '#bef264', 40],
  ]),
  ember: mesh('#1c0a0a', [['50% 110%', '#dc2626', 70], ['15% 90%', '#ea580c', 45], ['90% 80%', '#b91c1c', 45]]),
  lavender: mesh('#f5f3ff', [
    ['20% 25%', '#e9d5ff', 55], ['80% 20%', '#fbcfe8', 50], ['60% 85%', '#c4b5fd', 55], ['5% 90%', '#ddd6fe', 40],
  ]),
  midnight: mesh('#020617', [['50% 0%', '#1e3a8a', 65], ['85% 100%', '#312e81', 50], ['10% 80%', '#0f172a', 40]]),
  sandstone: mesh('#fef3e2', [
    ['15% 20%', '#fed7aa', 50], ['85% 30%', '#fde2e4', 50], ['50% 95%', '#fcd9b8', 55], ['95% 90%', '#f5d0c5', 40],
  ]),
};

function mesh(base: string, blobs: Array<[position: string, colour: string, radiusPercent: number]>): string {
  const layers = blobs.map(([at, colour, radius]) => `radial-gradient(circle at ${at}, ${colour} 0%, transparent ${radius}%)`);
  return `${layers.join(', ')}, ${base}`;
}

function cssFor(entry: CatalogBackground): string {
  if (entry.kind === 'gradient') return `linear-gradient(${entry.gradient.angle}deg, ${entry.gradient.from}, ${entry.gradient.to})`;
  const css = MESHES[entry.id];
  if (!css) throw new Error(`No mesh design for catalog entry ${entry.id}.`);
  return css;
}

const outDir = path.join(ASSETS_DIR, 'backgrounds');
await fs.mkdir(outDir, { recursive: true });
const browser = await launchBrowser({ deviceScaleFactor: 1 });
let total = 0;
try {
  const page = await browser.newPage();
  await page.setViewport({ width: WIDTH, height: HEIGHT, deviceScaleFactor: 1 });
  for (const entry of CATALOG) {
    await page.setContent(`<!doctype html><html><body style="margin:0;width:${WIDTH}px;height:${HEIGHT}px;background:${cssFor(entry)}"></body></html>`);
    let bytes: Uint8Array | null = null;
    for (let quality = 90; quality >= 50; quality -= 5) {
      bytes = await page.screenshot({ type: 'jpeg', quality, clip: { x: 0, y: 0, width: WIDTH, height: HEIGHT } });
      if (bytes.length <= MAX_BYTES) break;
    }
    if (!bytes || bytes.length > MAX_BYTES) throw new Error(`${entry.id} stays over ${MAX_BYTES} bytes even at quality 50.`);
    await fs.writeFile(path.join(outDir, `${entry.id}.jpg`), bytes);
    total += bytes.length;
    process.stdout.write(`${entry.id}.jpg ${Math.round(bytes.length / 1024)} KB\n`);
  }
} finally {
  await browser.close();
}
process.stdout.write(`${CATALOG.length} backgrounds, ${Math.round(total / 1024)} KB in all\n`);
