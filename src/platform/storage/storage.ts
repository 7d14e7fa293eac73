import type { Readable } from 'node:stream';

/**
 * The one storage interface for media (videos, thumbnails, GIFs, backgrounds). Terms:
 * - key: a path-like name built by us (see keys.ts); adapters refuse anything else.
 * - object: the bytes under a key. Written whole or not at all: readers never see a partial object.
 * - etag: an opaque, already-quoted validator (`"..."`) that changes whenever the object's bytes do; usable as the
 *   HTTP ETag header as is.
 * - range: inclusive byte offsets, as in HTTP (`{start: 0, end: 99}` is the first 100 bytes).
 * The content type of an object follows from its key's extension (contentTypeForKey).
 */
export interface Storage {
  readonly kind: 'local' | 's3';
  /**
   * Stores `source` under `key`, replacing any object there. If the source stream fails, or `size` is given and
   * the stream yields a different number of bytes, nothing is stored and the source's error is rethrown.
   */
  put(key: string, source: Readable | Buffer, options?: PutOptions): Promise<StoredObject>;
  /** null when there is no object under `key`. */
  stat(key: string): Promise<ObjectInfo | null>;
  /** The bytes of the object (or of `range`, which the caller has checked against `stat().size`); null when absent. */
  read(key: string, range?: ByteRange): Promise<Readable | null>;
  /** Removes the object; no error when there is none. */
  delete(key: string): Promise<void>;
  /** Removes every object whose key starts with `prefix`, which must end with '/' (e.g. `demos/<id>/`). */
  deletePrefix(prefix: string): Promise<void>;
}

export interface PutOptions {
  /** The exact byte count when known (e.g. a checked Content-Length): lets S3 stream without spooling to disk. */
  size?: number;
}

export interface StoredObject {
  size: number;
  etag: string;
}

export interface ObjectInfo extends StoredObject {
  contentType: string;
  modifiedAt: Date;
}

export interface ByteRange {
  start: number;
  end: number;
}

/** The source yielded a different number of bytes than `PutOptions.size` promised. */
export class SizeMismatchError extends Error {
  constructor(
    readonly expected: number,
    readonly actual: number,
  ) {
    super(`Expected ${expected} bytes but the source ${actual > expected ? 'yielded more' : `ended after ${actual}`}.`);
    this.name = 'SizeMismatchError';
  }
}
