/**
 * A JPEG's size and chroma layout, from its frame header (SOF), as ffprobe would name its pixel format: what the
 * compositor needs to know of the capture before the capture's file exists (compose-ahead.ts composes from the
 * frames as they are captured). Null for anything that is not a baseline or progressive JPEG it can read.
 */
export function jpegFrameInfo(bytes: Buffer): { width: number; height: number; pixelFormat: string | null } | null {
  if (bytes.length < 4 || bytes[0] !== 0xff || bytes[1] !== 0xd8) return null;
  let at = 2;
  while (at + 4 <= bytes.length) {
    if (bytes[at] !== 0xff) return null;
    const marker = bytes[at + 1]!;
    if (marker === 0xff) {
      at++; // fill byte
      continue;
    }
    const length = bytes.readUInt16BE(at + 2);
    // SOF0 (baseline), SOF1, SOF2 (progressive)
    if (marker === 0xc0 || marker === 0xc1 || marker === 0xc2) {
      if (at + 2 + length > bytes.length || length < 8) return null;
      const height = bytes.readUInt16BE(at + 5);
      const width = bytes.readUInt16BE(at + 7);
      const components = bytes[at + 9]!;
      let pixelFormat: string | null = null;
      if (components === 1) pixelFormat = 'gray';
      else if (components === 3 && length >= 8 + 3 * 3) {
        // Each component's sampling factors (high nibble horizontal, low vertical); the chroma's, relative to luma's.
        const [y, cb, cr] = [0, 1, 2].map((c) => bytes[at + 10 + c * 3 + 1]!);
        const across = (y! >> 4) / (cb! >> 4);
        const down = (y! & 15) / (cb! & 15);
        if (cb === cr && across === 2 && down === 2) pixelFormat = 'yuvj420p';
        else if (cb === cr && across === 2 && down === 1) pixelFormat = 'yuvj422p';
        else if (cb === cr && across === 1 && down === 1) pixelFormat = 'yuvj444p';
      }
      return width > 0 && height > 0 ? { width, height, pixelFormat } : null;
    }
    if (marker === 0xd9 || marker === 0xda) return null; // end of image, or scan data before any frame header
    at += 2 + length;
  }
  return null;
}
