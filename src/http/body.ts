import type { IncomingMessage } from 'node:http';
import { TooLargeError, ValidationError } from '../platform/errors.js';

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

export async function readJsonBody(req: IncomingMessage, limit = MAX_JSON_BODY_BYTES): Promise<unknown> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) throw new TooLargeError(`The request body is larger than ${limit} bytes.`);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > limit) throw new TooLargeError(`The request body is larger than ${limit} bytes.`);
    chunks.push(chunk as Buffer);
  }
  const text = Buffer.concat(chunks).toString('utf8');
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
  if (text.includes('\\u0000') && containsNul(parsed)) throw new ValidationError('Text in the request body must not contain NUL (\\u0000) characters.');
  return parsed;
}

function containsNul(value: unknown): boolean {
  if (typeof value === 'string') return value.includes('\0');
  if (Array.isArray(value)) return value.some(containsNul);
  if (value !== null && typeof value === 'object') return Object.entries(value).some(([k, v]) => k.includes('\0') || containsNul(v));
  return false;
}

/** True when a URL (path or query) carries an encoded NUL, which no field may contain. */
export function urlHasNul(url: string): boolean {
  return /%00/.test(url) || url.includes('\0');
}
