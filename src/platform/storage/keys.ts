/**
 * Storage keys. Keys are built by us from ids we minted, never copied from a URL, and every adapter checks them
 * here, so a key can never climb out of its root or name a temp file, whatever a caller passes.
 */

/** Each `/`-separated segment starts with a lowercase letter or digit: no '', '.', '..' or dot-files. */
const SEGMENT = /^[a-z0-9][a-z0-9_.-]*$/;
const MAX_KEY_LENGTH = 512;
const ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const EXTENSION = /^[a-z0-9]{1,8}$/;

export class InvalidStorageKeyError extends Error {
  constructor(key: string, reason: string) {
    super(`Invalid storage key ${JSON.stringify(key.slice(0, 100))}: ${reason}.`);
    this.name = 'InvalidStorageKeyError';
  }
}

/** Throws unless `key` matches /^[a-z0-9][a-z0-9/_.-]*$/ segment by segment. Returns the key for chaining. */
export function assertValidKey(key: string): string {
  if (typeof key !== 'string' || key.length === 0 || key.length > MAX_KEY_LENGTH) {
    throw new InvalidStorageKeyError(String(key), `must be 1 to ${MAX_KEY_LENGTH} characters`);
  }
  if (!key.split('/').every((segment) => SEGMENT.test(segment))) {
    throw new InvalidStorageKeyError(key, 'each segment must start with a-z or 0-9 and hold only a-z 0-9 _ . -');
  }
  return key;
}

/** A prefix names a folder: a valid key followed by '/'. Partial-name prefixes are refused so adapters agree. */
export function assertValidPrefix(prefix: string): string {
  if (typeof prefix !== 'string' || !prefix.endsWith('/')) {
    throw new InvalidStorageKeyError(String(prefix), "a prefix must end with '/'");
  }
  assertValidKey(prefix.slice(0, -1));
  return prefix;
}

export type MediaKind = 'video' | 'thumbnail' | 'gif';
const MEDIA_KINDS: readonly MediaKind[] = ['video', 'thumbnail', 'gif'];

/**
 * `demos/<demoId>/v<version>/<kind>.<ext>`. Every version has its own keys, so a stored object never changes
 * after it is written and a refresh never serves half-old, half-new media.
 */
export function mediaKey(demoId: string, version: number, kind: MediaKind, ext: string): string {
  if (!ID.test(demoId)) throw new InvalidStorageKeyError(String(demoId), 'the demo id must be a lowercase UUID');
  if (!Number.isSafeInteger(version) || version < 1) throw new InvalidStorageKeyError(String(version), 'the version must be a positive integer');
  if (!MEDIA_KINDS.includes(kind)) throw new InvalidStorageKeyError(String(kind), 'unknown media kind');
  if (!EXTENSION.test(ext)) throw new InvalidStorageKeyError(String(ext), 'the extension must be 1 to 8 of a-z 0-9');
  return assertValidKey(`demos/${demoId}/v${version}/${kind}.${ext}`);
}

/**
 * Issue 59: a media file of one of a version's aspect variants, `demos/<demoId>/v<version>/<kind>-<aspect>.<ext>`
 * (aspect as in URLs: `9x16`, `1x1`), under the version's prefix so it goes when the version's media go.
 */
export function variantMediaKey(demoId: string, version: number, kind: MediaKind, aspect: string, ext: string): string {
  if (!/^[1-9]\d?x[1-9]\d?$/.test(aspect)) throw new InvalidStorageKeyError(String(aspect), 'the aspect must be written like 9x16');
  return assertValidKey(mediaKey(demoId, version, kind, ext).replace(new RegExp(`/${kind}\\.${ext}$`), `/${kind}-${aspect}.${ext}`));
}

/** Everything stored for one demo, for deletePrefix. */
export function demoPrefix(demoId: string): string {
  if (!ID.test(demoId)) throw new InvalidStorageKeyError(String(demoId), 'the demo id must be a lowercase UUID');
  return `demos/${demoId}/`;
}

const CONTENT_TYPES: Record<string, string> = {
  mp4: 'video/mp4',
  webm: 'video/webm',
  png: 'image/png',
  gif: 'image/gif',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  webp: 'image/webp',
  json: 'application/json',
};

/**
 * The content type follows from the key's extension, in both adapters, so local and S3 serve the same header
 * and no metadata file has to be kept in step with the object.
 */
export function contentTypeForKey(key: string): string {
  const name = key.slice(key.lastIndexOf('/') + 1);
  const dot = name.lastIndexOf('.');
  return (dot > 0 && CONTENT_TYPES[name.slice(dot + 1)]) || 'application/octet-stream';
}
