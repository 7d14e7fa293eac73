import type { IncomingMessage } from 'node:http';
import { TooLargeError, ValidationError } from '../platform/errors.js';
import { watchBodyIdle } from './client-limits.js';
import { containsLoneSurrogate, containsNul, mayHoldSurrogateEscape } from '../platform/validation.js';

/** JSON bodies are small: 1 MB is far above any valid request and bounds memory per request. */
export const MAX_JSON_BODY_BYTES = 1024 * 1024;

/** No valid request nests deeper than a handful of levels; 64 leaves room and bounds every recursive walk. */
export const MAX_JSON_DEPTH = 64;

/** Whether JSON text opens more than `max` arrays or objects inside one another; one pass, strings skipped, no recursion. */
export function nestingDepthExceeds(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++; // a backslash escapes the next character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      if (++depth > max) return true;
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return false;
}

/**
 * The JSON body of a REST or /trpc request, size-limited and NUL-free. Beyond the limit (declared or streamed)
 * it stops reading and throws 413; the caller answers with `Connection: close` (see `closeIfUnread`), so the rest
 * of a huge body is never read.
 */
export async function readJsonBody(req: IncomingMessage, limit = MAX_JSON_BODY_BYTES): Promise<unknown> {
  refuseDeclaredOver(req, limit);
  const text = await readText(req, limit);
  if (text.trim() === '') return undefined;
  // Before parsing: validators and walkers recurse, and a body nested thousands deep would overflow their stack.
  if (nestingDepthExceeds(text, MAX_JSON_DEPTH)) {
    throw new ValidationError(`The request body is nested more than ${MAX_JSON_DEPTH} levels deep.`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new ValidationError('The request body is not valid JSON.');
  }
  // PostgreSQL text and jsonb cannot hold U+0000; refuse it here rather than fail at the database.
  if (text.includes('\\u0000') && containsNul(parsed)) throw new ValidationError(NUL_IN_BODY);
  if (mayHoldSurrogateEscape(text) && containsLoneSurrogate(parsed)) throw new ValidationError(LONE_SURROGATE_IN_BODY);
  return parsed;
}

/**
 * A URL-encoded form body as an object of strings (a repeated field keeps its last value), within the same limit
 * and NUL rule as JSON.
 */
export async function readFormBody(req: IncomingMessage, limit = MAX_JSON_BODY_BYTES): Promise<Record<string, string>> {
  refuseDeclaredOver(req, limit);
  const fields = Object.fromEntries(new URLSearchParams(await readText(req, limit)));
  if (containsNul(fields)) throw new ValidationError(NUL_IN_BODY);
  return fields;
}

/** A body the route has no use for (see Route.ignoresBody): read to its end within the same limit, then dropped. */
export async function readIgnoredBody(req: IncomingMessage, limit = MAX_JSON_BODY_BYTES): Promise<void> {
  refuseDeclaredOver(req, limit);
  await readText(req, limit);
}

function refuseDeclaredOver(req: IncomingMessage, limit: number): void {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) throw new TooLargeError(`The request body is larger than ${limit} bytes.`);
}

export const NUL_IN_BODY = 'Text in the request must not contain NUL (\\u0000) characters.';
export const LONE_SURROGATE_IN_BODY = 'Text in the request must not contain half of a UTF-16 surrogate pair (a lone \\ud800-\\udfff escape).';

/** Reads at most `limit` bytes; past that it pauses the request (no `for await`: that would destroy the socket before we can answer 413). */
/** The body as text, at most `limit` bytes (413 beyond, the rest left unread); '' when it was already read. */
export function readText(req: IncomingMessage, limit: number): Promise<string> {
  if (req.readableEnded) return Promise.resolve('');
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    // A client that stops sending mid-body is answered 408 instead of holding the request open.
    const unwatch = watchBodyIdle(req, (error) => {
      stop();
      req.pause();
      reject(error);
    });
    const stop = () => {
      unwatch();
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
      req.off('close', onClose);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= limit) return void chunks.push(chunk);
      stop();
      req.pause();
      reject(new TooLargeError(`The request body is larger than ${limit} bytes.`));
    };
    const onEnd = () => {
      stop();
      resolve(Buffer.concat(chunks).toString('utf8'));
    };
    const onError = (error: Error) => {
      stop();
      reject(error);
    };
    const onClose = () => {
      stop();
      reject(new ValidationError('The request body ended before it was complete.'));
    };
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
    req.on('close', onClose);
  });
}

/** `Connection: close` when the request body was not read to its end: answer, then drop the rest unread. */
export function closeIfUnread(req: IncomingMessage): Record<string, string> {
  return req.complete ? {} : { Connection: 'close' };
}

/** True when a URL (path or query) carries an encoded NUL, which no field may contain. */
export function urlHasNul(url: string): boolean {
  return /%00/.test(url) || url.includes('\0');
}
