import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

/**
 * A TrueType font for text ffmpeg draws (the debug HUD). Chromium's package unpacks Open Sans next to itself
 * (under the temp directory) before any render, and Debian machines have DejaVu; the first found is used.
 */
let found: Promise<string | null> | null = null;

export function findFont(): Promise<string | null> {
  found ??= search();
  return found;
}

async function search(): Promise<string | null> {
  const roots = [path.join(os.tmpdir(), 'fonts'), '/tmp/fonts', '/usr/share/fonts', '/usr/local/share/fonts'];
  const preferred = [/OpenSans-Regular\.ttf$/i, /DejaVuSans\.ttf$/i, /Sans.*Regular\.ttf$/i, /\.ttf$/i];
  const files: string[] = [];
  for (const root of roots) files.push(...(await listFonts(root, 4)));
  for (const pattern of preferred) {
    const match = files.find((file) => pattern.test(file));
    if (match) return match;
  }
  found = null; // look again next time: the fonts may be unpacked later
  return null;
}

async function listFonts(dir: string, depth: number): Promise<string[]> {
  if (depth < 0) return [];
  const entries = await fs.readdir(dir, { withFileTypes: true }).catch(() => []);
  const files: string[] = [];
  for (const entry of entries) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) files.push(...(await listFonts(full, depth - 1)));
    else if (entry.name.toLowerCase().endsWith('.ttf')) files.push(full);
  }
  return files;
}
