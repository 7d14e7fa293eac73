import { createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import type { IncomingMessage } from 'node:http';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { AppError, TooLargeError, ValidationError } from '../../platform/errors.js';
import { watchBodyIdle } from '../client-limits.js';

/** 411 when the client does not say how much it will send: every upload must declare Content-Length. */
export class LengthRequiredError extends AppError {
  constructor() {
    super(411, 'Content-Length is required: send the file with its size (chunked uploads are not accepted).');
  }
}

/**
 * The declared size of a binary upload, checked before a single byte is read: missing → 411, over the limit
 * → 413. Node's HTTP parser never hands over more bytes than Content-Length, so a body that runs past it is cut
 * off there.
 */
export function declaredLength(req: IncomingMessage, maxBytes: number, what: string): number {
  const header = req.headers['content-length'];
  if (header === undefined || req.headers['transfer-encoding'] !== undefined) throw new LengthRequiredError();
  if (!/^\d+$/.test(header)) throw new ValidationError('Content-Length must be a whole number of bytes.');
  const length = Number(header);
  if (length === 0) throw new ValidationError(`The ${what} is empty.`);
  if (length > maxBytes) throw new TooLargeError(`The ${what} is ${formatBytes(length)}; the limit is ${formatBytes(maxBytes)}.`);
  return length;
}

/**
 * Streams the request body into `file` (never the whole body in memory) and checks that exactly `length` bytes
 * arrived. On any failure the partial file is removed.
 */
export async function receiveBodyToFile(req: IncomingMessage, file: string, length: number): Promise<void> {
  let received = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      received += chunk.length;
      if (received > length) done(new ValidationError('The body is longer than its Content-Length.'));
      else done(null, chunk);
    },
  });
  // On inactivity, not total time: any upload finishes at any speed as long as bytes keep coming. A stalled one ends
  // the pipeline, which drops the connection (the client has gone quiet; there is no one reading an answer).
  const unwatch = watchBodyIdle(req, (error) => counter.destroy(error));
  try {
    await pipeline(req, counter, createWriteStream(file, { flags: 'wx', mode: 0o600 }));
    if (received !== length) throw new ValidationError(`The upload ended after ${received} of ${length} bytes; send it again.`);
  } catch (error) {
    await fs.rm(file, { force: true });
    if (error instanceof AppError) throw error;
    throw new ValidationError('The upload was interrupted before it finished; send it again.');
  } finally {
    unwatch();
  }
}

/** Reads a small, already size-checked body into memory (thumbnails and GIFs, at most 25 MB). */
export async function receiveBodyToBuffer(req: IncomingMessage, length: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let received = 0;
  const unwatch = watchBodyIdle(req, (error) => req.destroy(error));
  try {
    for await (const chunk of req) {
      received += (chunk as Buffer).length;
      if (received > length) throw new ValidationError('The body is longer than its Content-Length.');
      chunks.push(chunk as Buffer);
    }
  } catch (error) {
    // A client that hangs up mid-body is the client's doing, as in receiveBodyToFile: not a fault of ours to log.
    if (error instanceof AppError) throw error;
    throw new ValidationError('The upload was interrupted before it finished; send it again.');
  } finally {
    unwatch();
  }
  if (received !== length) throw new ValidationError(`The upload ended after ${received} of ${length} bytes; send it again.`);
  return Buffer.concat(chunks);
}

export function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${Math.round((bytes / (1024 * 1024)) * 10) / 10} MB`;
  if (bytes >= 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${bytes} bytes`;
}

/** The bare media type of a request (`video/mp4` from `video/mp4; codecs=...`), lower-cased; '' when absent. */
export function mediaTypeOf(req: IncomingMessage): string {
  return (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
}
