import type { IncomingMessage } from 'node:http';
import { Transform } from 'node:stream';
import busboy from 'busboy';
import { AppError, TooLargeError, ValidationError } from '../../platform/errors.js';
import { watchBodyIdle } from '../client-limits.js';
import { formatBytes, mediaTypeOf } from './receive-body.js';

export interface ReceivedFile {
  bytes: Buffer;
  /** The name the client gave the file, if any. */
  filename: string | null;
}

/** Room for the multipart envelope (boundaries, part headers, a few small fields) beyond the file itself. */
const ENVELOPE_BYTES = 64 * 1024;

/**
 * Reads the one file of a `multipart/form-data` body sent in `field`, streaming: the file is held in memory up to
 * `maxBytes` and the request is abandoned (413) the moment it passes that, or the body as a whole passes
 * `maxBytes` plus a small envelope (other parts cannot be used to make us read more). A declared Content-Length
 * over that is a 413 before any byte is read. Other fields and files are read past and ignored.
 * 400 for a body that is not multipart, is malformed, or has no such file.
 */
export async function receiveMultipartFile(req: IncomingMessage, field: string, maxBytes: number): Promise<ReceivedFile> {
  const usage = `Send the image as multipart/form-data with the file in a field named "${field}".`;
  if (mediaTypeOf(req) !== 'multipart/form-data') throw new ValidationError(usage);
  const maxBody = maxBytes + ENVELOPE_BYTES;
  const tooLarge = () => new TooLargeError(`The file is larger than the ${formatBytes(maxBytes)} limit.`);
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > maxBody) throw tooLarge();

  let parser: busboy.Busboy;
  try {
    parser = busboy({
      headers: req.headers,
      defParamCharset: 'utf8',
      // busboy flags a file as truncated once it reaches fileSize, so one byte more lets exactly maxBytes through.
      limits: { fileSize: maxBytes + 1, parts: 20, fieldSize: 64 * 1024, headerPairs: 50 },
    });
  } catch {
    // busboy refuses a multipart Content-Type without a boundary.
    throw new ValidationError(`The multipart body has no boundary. ${usage}`);
  }

  return new Promise<ReceivedFile>((resolve, reject) => {
    let settled = false;
    let received = 0;
    let file: ReceivedFile | null = null;
    let textField = false;
    const counter = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        received += chunk.length;
        if (received > maxBody) done(tooLarge());
        else done(null, chunk);
      },
    });
    const fail = (error: unknown) => {
      if (settled) return;
      settled = true;
      unwatch();
      // Stop reading: the server answers and closes the connection rather than swallow the rest of the body.
      req.unpipe(counter);
      counter.unpipe(parser);
      parser.removeAllListeners('close');
      reject(error instanceof AppError ? error : new ValidationError('The upload was interrupted before it finished; send it again.'));
    };

    const malformed = (error: unknown) =>
      fail(new ValidationError(`The multipart body is malformed (${error instanceof Error ? error.message : String(error)}). ${usage}`));
    parser.on('file', (name, stream, info) => {
      // A body that ends inside a part destroys that part's stream with an error ("Unexpected end of form"): without
      // a listener it would be an uncaught exception, which takes the whole process down.
      stream.on('error', malformed);
      if (name !== field || file !== null) {
        stream.resume();
        return;
      }
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('limit', () => fail(tooLarge()));
      stream.on('end', () => {
        if (!stream.truncated) file = { bytes: Buffer.concat(chunks), filename: info.filename ?? null };
      });
    });
    parser.on('field', (name) => {
      if (name === field) textField = true;
    });
    parser.on('error', malformed);
    parser.on('close', () => {
      if (settled) return;
      if (file) {
        settled = true;
        unwatch();
        resolve(file);
      } else fail(new ValidationError(textField ? `The field "${field}" must be a file, not text. ${usage}` : `The form has no "${field}" field. ${usage}`));
    });
    counter.on('error', fail);
    req.on('error', fail);
    req.on('aborted', () => fail(null));
    const unwatch = watchBodyIdle(req, fail);
    req.pipe(counter).pipe(parser);
  });
}
