import { randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pipeline as pipelineCallback, Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  DeleteObjectCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { byteCounter } from './byte-counter.js';
import { assertValidKey, assertValidPrefix, contentTypeForKey } from './keys.js';
import { SizeMismatchError, type Storage, type StoredObject } from './storage.js';

export interface S3StorageOptions {
  bucket: string;
  region: string;
  /** For S3-compatible services (MinIO, R2); unset for AWS. */
  endpoint?: string;
  /** Both or neither; with neither the SDK's default credential chain applies. */
  accessKeyId?: string;
  secretAccessKey?: string;
  /** `http://host/bucket/key` instead of `http://bucket.host/key`; MinIO needs it. */
  forcePathStyle?: boolean;
}

/**
 * Objects in an S3-compatible bucket. A single PutObject is atomic (the object appears whole or not at all), so
 * the "no half files" rule holds without temp keys. Single PUTs cap at 5 GB, far above SHOWREEL_MAX_UPLOAD_BYTES.
 */
export function createS3Storage(options: S3StorageOptions): Storage {
  const { bucket } = options;
  const client = new S3Client({
    region: options.region,
    ...(options.endpoint ? { endpoint: options.endpoint } : {}),
    forcePathStyle: options.forcePathStyle ?? false,
    ...(options.accessKeyId && options.secretAccessKey
      ? { credentials: { accessKeyId: options.accessKeyId, secretAccessKey: options.secretAccessKey } }
      : {}),
    // Since SDK 3.729 every PUT gets a CRC32 trailer in aws-chunked encoding, which several S3-compatible
    // services reject; checksums only where the API demands them (DeleteObjects) keeps MinIO and R2 working.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    // Every failure reaches the caller as a rejection (and its log); the SDK would also print some to console.
    logger: { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined },
  });

  /** PutObject with a known length; aborts the request if the body fails, since the SDK's pipe would not. */
  async function putBody(key: string, body: Readable | Buffer, size: number): Promise<StoredObject> {
    const abort = new AbortController();
    let sourceError: Error | undefined;
    let payload: Readable | Buffer = body;
    if (body instanceof Readable) {
      payload = pipelineCallback(body, byteCounter(size), (error) => {
        if (error) {
          sourceError = error;
          abort.abort(error);
        }
      });
    }
    try {
      const response = await client.send(
        new PutObjectCommand({ Bucket: bucket, Key: key, Body: payload, ContentLength: size, ContentType: contentTypeForKey(key) }),
        { abortSignal: abort.signal },
      );
      return { size, etag: response.ETag ?? '""' };
    } catch (error) {
      // Stop reading the source (e.g. an upload's request body) when S3 gave up first.
      if (payload instanceof Readable) payload.destroy();
      throw sourceError ?? error;
    }
  }

  return {
    kind: 's3',

    async put(key, source, putOptions = {}) {
      assertValidKey(key);
      if (Buffer.isBuffer(source)) {
        if (putOptions.size !== undefined && putOptions.size !== source.length) throw new SizeMismatchError(putOptions.size, source.length);
        return putBody(key, source, source.length);
      }
      if (putOptions.size !== undefined) return putBody(key, source, putOptions.size);
      // PutObject needs the length up front: spool an unsized stream to a temp file first. A failing source then
      // fails here, before anything is sent.
      const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'showreel-s3-'));
      try {
        const spool = path.join(dir, randomBytes(6).toString('hex'));
        await pipeline(source, (await fs.open(spool, 'wx', 0o600)).createWriteStream());
        const { size } = await fs.stat(spool);
        return await putBody(key, createReadStream(spool), size);
      } finally {
        await fs.rm(dir, { recursive: true, force: true });
      }
    },

    async stat(key) {
      assertValidKey(key);
      try {
        const head = await client.send(new HeadObjectCommand({ Bucket: bucket, Key: key }));
        return {
          size: head.ContentLength ?? 0,
          etag: head.ETag ?? '""',
          contentType: head.ContentType ?? contentTypeForKey(key),
          modifiedAt: head.LastModified ?? new Date(0),
        };
      } catch (error) {
        if (isNotFound(error)) return null;
        throw error;
      }
    },

    async read(key, range) {
      assertValidKey(key);
      try {
        const object = await client.send(
          new GetObjectCommand({ Bucket: bucket, Key: key, ...(range ? { Range: `bytes=${range.start}-${range.end}` } : {}) }),
        );
        if (!(object.Body instanceof Readable)) throw new Error(`S3 returned no readable body for ${key}.`);
        return object.Body;
      } catch (error) {
        if (isNotFound(error)) return null;
        throw error;
      }
    },

    async delete(key) {
      assertValidKey(key);
      await client.send(new DeleteObjectCommand({ Bucket: bucket, Key: key }));
    },

    async deletePrefix(prefix) {
      assertValidPrefix(prefix);
      // A listing page holds at most 1000 keys, the DeleteObjects limit, so each page is one delete call.
      let token: string | undefined;
      do {
        const page = await client.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix, ContinuationToken: token }));
        const keys = (page.Contents ?? []).flatMap((item) => (item.Key ? [{ Key: item.Key }] : []));
        if (keys.length > 0) {
          const result = await client.send(new DeleteObjectsCommand({ Bucket: bucket, Delete: { Objects: keys, Quiet: true } }));
          const failed = result.Errors ?? [];
          if (failed.length > 0) {
            throw new Error(`S3 could not delete ${failed.length} object(s) under ${prefix}: ${failed[0]?.Code ?? 'unknown'} ${failed[0]?.Message ?? ''}`.trim());
          }
        }
        token = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (token);
    },
  };
}

function isNotFound(error: unknown): boolean {
  const e = error as { name?: string; $metadata?: { httpStatusCode?: number } } | undefined;
  return e?.name === 'NotFound' || e?.name === 'NoSuchKey' || e?.$metadata?.httpStatusCode === 404;
}
