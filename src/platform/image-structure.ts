import { crc32 } from 'node:zlib';
import { pngDimensions, sniffMedia } from './media-signatures.js';

/**
 * Whether an uploaded still image is whole, walking its container without decoding the pixels: the signature alone
 * (what sniffMedia reads) lets through a file of eight bytes, a header without a picture, or a truncated upload,
 * which a page then shows as a broken image and the compositor fails on.
 *
 * - PNG: chunks from the signature on, each with a correct CRC; IHDR first (13 bytes, a non-zero size), at least
 *   one IDAT, and IEND. Bytes after IEND are tolerated, as browsers do.
 * - JPEG: marker segments from SOI up to the first SOS, with a frame header (SOF) of a non-zero size before it, and
 *   an EOI after it.
 * - WebP: the RIFF size matches the file (one byte of padding at most) and the first chunk is VP8, VP8L or VP8X.
 */
export function isWholeImage(bytes: Buffer): boolean {
  switch (sniffMedia(bytes)) {
    case 'png':
      return isWholePng(bytes);
    case 'jpeg':
      return isWholeJpeg(bytes);
    case 'webp':
      return isWholeWebp(bytes);
    default:
      return false;
  }
}

function isWholePng(bytes: Buffer): boolean {
  const size = pngDimensions(bytes);
  if (!size || size.width === 0 || size.height === 0 || bytes.readUInt32BE(8) !== 13) return false;
  let offset = 8;
  let pictures = 0;
  while (offset + 12 <= bytes.length) {
    const length = bytes.readUInt32BE(offset);
    const end = offset + 12 + length;
    if (length > 0x7fffffff || end > bytes.length) return false;
    const type = bytes.subarray(offset + 4, offset + 8);
    if (crc32(bytes.subarray(offset + 4, offset + 8 + length)) !== bytes.readUInt32BE(offset + 8 + length)) return false;
    const name = type.toString('latin1');
    if (name === 'IDAT') pictures++;
    if (name === 'IEND') return pictures > 0;
    offset = end;
  }
  return false;
}

const SOF_MARKERS = new Set([0xc0, 0xc1, 0xc2, 0xc3, 0xc5, 0xc6, 0xc7, 0xc9, 0xca, 0xcb, 0xcd, 0xce, 0xcf]);

function isWholeJpeg(bytes: Buffer): boolean {
  let offset = 2; // SOI
  let framed = false;
  while (offset + 4 <= bytes.length) {
    if (bytes[offset] !== 0xff) return false;
    const marker = bytes[offset + 1]!;
    if (marker === 0xff) {
      offset++; // fill byte
      continue;
    }
    if (marker === 0xd8 || marker === 0xd9 || (marker >= 0xd0 && marker <= 0xd7) || marker === 0x01) return false;
    const length = bytes.readUInt16BE(offset + 2);
    if (length < 2 || offset + 2 + length > bytes.length) return false;
    if (SOF_MARKERS.has(marker)) {
      if (length < 8) return false;
      const height = bytes.readUInt16BE(offset + 5);
      const width = bytes.readUInt16BE(offset + 7);
      framed = width > 0 && height > 0;
      if (!framed) return false;
    }
    if (marker === 0xda) {
      // Entropy-coded data follows; the image ends at the last EOI (anything after it is tolerated).
      const eoi = bytes.lastIndexOf(Buffer.from([0xff, 0xd9]));
      return framed && eoi >= offset + 2 + length;
    }
    offset += 2 + length;
  }
  return false;
}

function isWholeWebp(bytes: Buffer): boolean {
  if (bytes.length < 20) return false;
  const riffEnd = 8 + bytes.readUInt32LE(4);
  if (riffEnd > bytes.length || bytes.length > riffEnd + 1) return false;
  const first = bytes.subarray(12, 16).toString('latin1');
  if (first !== 'VP8 ' && first !== 'VP8L' && first !== 'VP8X') return false;
  return 20 + bytes.readUInt32LE(16) <= riffEnd;
}
