import chromium from '@sparticuz/chromium';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

/**
 * A TrueType font file for ffmpeg's drawtext, or null when none of the usual ones is installed (callers then draw
 * no text rather than fail). We hand drawtext an explicit file because the packaged ffmpeg 4.1 carries an
 * older fontconfig that prints a warning per line of a modern /etc/fonts config and, with no usable config,
 * silently draws nothing instead of failing.
 */
const WELL_KNOWN_FONTS = [
  '/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf', // Debian, Ubuntu
  '/usr/share/fonts/dejavu/DejaVuSans.ttf', // Fedora, Alpine
  '/usr/share/fonts/TTF/DejaVuSans.ttf', // Arch
  '/usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf',
  '/usr/share/fonts/liberation-sans/LiberationSans-Regular.ttf',
  '/usr/share/fonts/truetype/freefont/FreeSans.ttf',
  '/usr/share/fonts/truetype/noto/NotoSans-Regular.ttf',
  '/usr/share/fonts/noto/NotoSans-Regular.ttf',
  '/System/Library/Fonts/Supplemental/Arial.ttf', // macOS
  '/Library/Fonts/Arial.ttf',
  ...chromiumFonts(),
];

/** Where @sparticuz/chromium unpacks its Open Sans beside itself (on first launch). */
export function chromiumFonts(): string[] {
  return [path.join(os.tmpdir(), 'fonts', 'fonts', 'Open_Sans', 'OpenSans-Regular.ttf'), '/tmp/fonts/fonts/Open_Sans/OpenSans-Regular.ttf'];
}

/** Characters that would need filtergraph escaping inside `fontfile=`; a path holding one is skipped, not escaped. */
const UNSAFE_IN_FILTER = /['\\:,;[\]%\s]/;

export async function findLabelFont(candidates: readonly string[] = WELL_KNOWN_FONTS): Promise<string | null> {
  for (const file of candidates) {
    if (UNSAFE_IN_FILTER.test(file)) continue;
    const stats = await fs.stat(file).catch(() => null);
    if (stats?.isFile() && stats.size > 0) return file;
  }
  return null;
}

let found: Promise<string | null> | undefined;

/**
 * findLabelFont() once per process. A machine with no fonts installed still has the Open Sans that ships inside
 * @sparticuz/chromium: it is unpacked (with the browser, once) when nothing else is found.
 */
export function labelFont(): Promise<string | null> {
  found ??= findLabelFont().then(async (file) => {
    if (file) return file;
    await chromium.executablePath().catch(() => undefined);
    const unpacked = await findLabelFont();
    if (!unpacked) found = undefined;
    return unpacked;
  });
  return found;
}
