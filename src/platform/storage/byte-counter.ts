import { Readable, Transform } from 'node:stream';
import { SizeMismatchError } from './storage.js';

/**
 * A pass-through that counts bytes and, when `expected` is given, fails the pipeline as soon as the source yields
 * more, or ends with fewer. Failing the pipeline is what makes the adapter discard the write.
 */
export function byteCounter(expected?: number): Transform & { readonly bytes: number } {
  let bytes = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      bytes += chunk.length;
      if (expected !== undefined && bytes > expected) callback(new SizeMismatchError(expected, bytes));
      else callback(null, chunk);
    },
    flush(callback) {
      callback(expected !== undefined && bytes !== expected ? new SizeMismatchError(expected, bytes) : null);
    },
  });
  return Object.defineProperty(counter, 'bytes', { get: () => bytes }) as Transform & { readonly bytes: number };
}

export function toReadable(source: Readable | Buffer): Readable {
  return Buffer.isBuffer(source) ? Readable.from([source]) : source;
}
