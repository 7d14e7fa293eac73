/**
 * What a file is, from its first bytes, before anything heavier (ffprobe) looks at it. Used to answer 415 early
 * for uploads and to pick the stored extension; the signature decides, never the client's Content-Type.
 */
export type SniffedMedia = 'mp4' | 'webm' | 'png' | 'gif' | 'jpeg' | 'webp';

/** Enough leading bytes for every signature below. */
export const SNIFF_BYTES = 16;

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const EBML = Buffer.from([0x1a, 0x45, 0xdf, 0xa3]);
/** ISO BMFF brands of still images (HEIF, AVIF): an `ftyp` box, but not a video. */
const IMAGE_BRANDS = new Set(['heic', 'heix', 'hevc', 'heim', 'heis', 'mif1', 'msf1', 'avif', 'avis']);

export function sniffMedia(bytes: Buffer): SniffedMedia | null {
  const ascii = (start: number, end: number) => bytes.subarray(start, end).toString('latin1');
  if (bytes.length >= 12 && ascii(4, 8) === 'ftyp') return IMAGE_BRANDS.has(ascii(8, 12)) ? null : 'mp4';
  // EBML covers Matroska as well as WebM; ffprobe tells them apart by codec later.
  if (bytes.subarray(0, 4).equals(EBML)) return 'webm';
  if (bytes.subarray(0, 8).equals(PNG)) return 'png';
  if (ascii(0, 6) === 'GIF87a' || ascii(0, 6) === 'GIF89a') return 'gif';
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'jpeg';
  if (bytes.length >= 12 && ascii(0, 4) === 'RIFF' && ascii(8, 12) === 'WEBP') return 'webp';
  return null;
}

/** Width and height from a PNG's IHDR chunk; null when the bytes are not a PNG. */
export function pngDimensions(bytes: Buffer): { width: number; height: number } | null {
  if (bytes.length < 24 || !bytes.subarray(0, 8).equals(PNG) || bytes.subarray(12, 16).toString('latin1') !== 'IHDR') return null;
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

/**
 * Number of frames (image descriptors) in a GIF, walking its block structure: header, logical screen descriptor,
 * optional global colour table, then extensions (0x21) and images (0x2C), each followed by length-prefixed
 * sub-blocks, until the trailer (0x3B). Null when the bytes are not a well-formed GIF: a truncated block or an
 * unknown block type. A missing trailer at a block boundary is tolerated, as browsers do.
 */
export function gifFrameCount(bytes: Buffer): number | null {
  if (sniffMedia(bytes) !== 'gif' || bytes.length < 13) return null;
  let offset = 13 + colourTableSize(bytes[10]!);
  let frames = 0;
  const skipSubBlocks = (): boolean => {
    for (;;) {
      if (offset >= bytes.length) return false;
      const size = bytes[offset]!;
      offset += 1 + size;
      if (size === 0) return offset <= bytes.length;
    }
  };
  while (offset < bytes.length) {
    const introducer = bytes[offset];
    if (introducer === 0x3b) return frames;
    if (introducer === 0x21) {
      offset += 2; // introducer, label
      if (!skipSubBlocks()) return null;
    } else if (introducer === 0x2c) {
      if (offset + 10 > bytes.length) return null;
      offset += 10 + colourTableSize(bytes[offset + 9]!);
      offset += 1; // LZW minimum code size
      if (!skipSubBlocks()) return null;
      frames += 1;
    } else {
      return null;
    }
  }
  return offset === bytes.length ? frames : null;
}

/** Animated means more than one frame; the spec's local GIF asset must be animated. */
export function isAnimatedGif(bytes: Buffer): boolean {
  return (gifFrameCount(bytes) ?? 0) > 1;
}

/** Bytes of the colour table a packed field announces: flag in bit 7, size 2^(n+1) entries of 3 bytes. */
function colourTableSize(packed: number): number {
  return packed & 0x80 ? 3 * 2 ** ((packed & 0x07) + 1) : 0;
}
