import type { IncomingMessage } from 'node:http';
import { TooLargeError, ValidationError } from '../platform/errors.js';

/** JSON bodies are small: 1 MB is far above any valid request and bounds memory per request. */
export const MAX_JSON_BODY_BYTES = 1024 * 1024;

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
