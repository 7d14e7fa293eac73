import path from 'node:path';
import type { Config } from '../config.js';
import { createLocalStorage } from './local-storage.js';
import { createS3Storage } from './s3-storage.js';
import type { Storage } from './storage.js';

export type { ByteRange, ObjectInfo, PutOptions, Storage, StoredObject } from './storage.js';
export { SizeMismatchError } from './storage.js';
export { assertValidKey, contentTypeForKey, demoPrefix, InvalidStorageKeyError, mediaKey, type MediaKind, variantMediaKey } from './keys.js';
export { createLocalStorage } from './local-storage.js';
export { createS3Storage } from './s3-storage.js';

export type StorageConfig = Pick<
  Config,
  | 'SHOWREEL_STORAGE'
  | 'SHOWREEL_DATA_DIR'
  | 'S3_BUCKET'
  | 'S3_REGION'
  | 'S3_ENDPOINT'
  | 'S3_ACCESS_KEY_ID'
  | 'S3_SECRET_ACCESS_KEY'
  | 'S3_FORCE_PATH_STYLE'
>;

/** The storage the configuration selects: local disk under SHOWREEL_DATA_DIR/media unless SHOWREEL_STORAGE=s3. */
export function createStorage(config: StorageConfig): Storage {
  if (config.SHOWREEL_STORAGE === 's3') {
    // loadConfig already refuses s3 without a bucket; this guards hand-built configs.
    if (!config.S3_BUCKET) throw new Error('S3_BUCKET is required when SHOWREEL_STORAGE=s3.');
    return createS3Storage({
      bucket: config.S3_BUCKET,
      region: config.S3_REGION,
      endpoint: config.S3_ENDPOINT,
      accessKeyId: config.S3_ACCESS_KEY_ID,
      secretAccessKey: config.S3_SECRET_ACCESS_KEY,
      forcePathStyle: config.S3_FORCE_PATH_STYLE,
    });
  }
  return createLocalStorage(path.join(config.SHOWREEL_DATA_DIR, 'media'));
}
