import { inflateSync } from 'node:zlib';

/**
 * A perceptual hash of a screenshot (dHash): the picture shrunk to 9×8 grey cells, one bit per cell for "brighter
 * than its right-hand neighbour", 64 bits as 16 hex digits. Two frames that look alike differ in a few bits; a
 * changed picture, layout or colour scheme in many. Our own ~40 lines rather than an image library: Chromium's
 * screenshots are always 8-bit, non-interlaced PNGs, which is all this decodes.
 */
export function differenceHash(png: Buffer): string {
  const { width, height, grey } = decodePngGrey(png);
  const cells = new Float64Array(9 * 8);
  const counts = new Uint32Array(9 * 8);
  for (let y = 0; y < height; y++) {
    const row = Math.floor((y * 8) / height) * 9;
    for (let x = 0; x < width; x++) {
      const cell = row + Math.floor((x * 9) / width);
      cells[cell]! += grey[y * width + x]!;
      counts[cell]! += 1;
    }
  }
  let bits = '';
  for (let y = 0; y < 8; y++) {
    for (let x = 0; x < 8; x++) {
      const left = cells[y * 9 + x]! / Math.max(1, counts[y * 9 + x]!);
      const right = cells[y * 9 + x + 1]! / Math.max(1, counts[y * 9 + x + 1]!);
      bits += left > right ? '1' : '0';
    }
  }
  return BigInt(`0b${bits}`).toString(16).padStart(16, '0');
}

/** How many of the 64 bits two hashes differ in: 0 the same picture, ~32 unrelated ones. */
export function hashDistance(a: string, b: string): number {
  let diff = BigInt(`0x${a}`) ^ BigInt(`0x${b}`);
  let count = 0;
  for (; diff > 0n; diff >>= 1n) count += Number(diff & 1n);
  return count;
}

const CHANNELS: Record<number, number> = { 0: 1, 2: 3, 4: 2, 6: 4 };

/** An 8-bit PNG (grey, RGB, with or without alpha) as one grey byte a pixel. Throws on anything else. */
export function decodePngGrey(png: Buffer): { width: number; height: number; grey: Uint8Array } {
  if (png.length < 33 || png.readUInt32BE(0) !== 0x89504e47) throw new Error('not a PNG');
  const width = png.readUInt32BE(16);
  const height = png.readUInt32BE(20);
  const [depth, colour, , , interlace] = [png[24]!, png[25]!, png[26], png[27], png[28]];
  const channels = CHANNELS[colour];
  if (depth !== 8 || !channels || interlace !== 0) throw new Error(`unsupported PNG (depth ${depth}, colour type ${colour})`);
  const idat: Buffer[] = [];
  for (let at = 8; at + 8 <= png.length; ) {
    const length = png.readUInt32BE(at);
    if (png.toString('latin1', at + 4, at + 8) === 'IDAT') idat.push(png.subarray(at + 8, at + 8 + length));
    at += 12 + length;
  }
  const raw = inflateSync(Buffer.concat(idat));
  const stride = width * channels;
  const previous = new Uint8Array(stride);
  const current = new Uint8Array(stride);
  const grey = new Uint8Array(width * height);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)]!;
    const line = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1));
    for (let i = 0; i < stride; i++) {
      const a = i >= channels ? current[i - channels]! : 0;
      const b = previous[i]!;
      const c = i >= channels ? previous[i - channels]! : 0;
      const predictor = filter === 1 ? a : filter === 2 ? b : filter === 3 ? (a + b) >> 1 : filter === 4 ? paeth(a, b, c) : 0;
      current[i] = (line[i]! + predictor) & 0xff;
    }
    for (let x = 0; x < width; x++) {
      const p = x * channels;
      grey[y * width + x] = channels >= 3 ? Math.round(0.299 * current[p]! + 0.587 * current[p + 1]! + 0.114 * current[p + 2]!) : current[p]!;
    }
    previous.set(current);
  }
  return { width, height, grey };
}

function paeth(a: number, b: number, c: number): number {
  const p = a + b - c;
  const pa = Math.abs(p - a);
  const pb = Math.abs(p - b);
  const pc = Math.abs(p - c);
  return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
}
