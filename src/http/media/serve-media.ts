import type { IncomingMessage, ServerResponse } from 'node:http';
import { pipeline } from 'node:stream/promises';
import type { ByteRange, Storage } from '../../platform/storage/index.js';
import { sendError } from '../respond.js';

export interface ServeMediaOptions {
  /**
   * The caller's choice: versioned media can be cached for long (`public, max-age=31536000, immutable`); the
   * shortcuts that follow the latest version (`/thumb/<id>.png`) change on refresh (`public, max-age=300`).
   */
  cacheControl: string;
}

/**
 * Answers GET or HEAD for one stored object: 200, a single-range 206 (what video players and Safari need to
 * seek), 304 for a matching If-None-Match (or, without one, an If-Modified-Since not older than the file), 416 for a range past the end. The body is streamed from storage,
 * never held in memory. Multi-range requests get the whole object, which RFC 9110 allows.
 */
export async function serveStoredMedia(
  req: IncomingMessage,
  res: ServerResponse,
  storage: Storage,
  key: string,
  options: ServeMediaOptions,
): Promise<void> {
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    return sendError(res, 405, `Use GET or HEAD for media, not ${req.method}.`, { Allow: 'GET, HEAD' });
  }
  const info = await storage.stat(key);
  if (!info) return sendError(res, 404, 'This media file does not exist (yet).');

  const validators = {
    ETag: info.etag,
    'Last-Modified': info.modifiedAt.toUTCString(),
    'Cache-Control': options.cacheControl,
  };
  if (isNotModified(req, info)) {
    res.writeHead(304, validators);
    res.end();
    return;
  }

  const ifRange = req.headers['if-range'];
  // If-Range with another validator (or a date, which we do not compare) means "send it all".
  const range = ifRange === undefined || ifRange === info.etag ? parseRange(req.headers.range, info.size) : null;
  if (range === 'unsatisfiable') {
    return sendError(res, 416, `The requested range is outside the file, which has ${info.size} bytes.`, {
      'Content-Range': `bytes */${info.size}`,
    });
  }

  const headers: Record<string, string | number> = {
    ...validators,
    'Content-Type': info.contentType,
    'Accept-Ranges': 'bytes',
    'X-Content-Type-Options': 'nosniff',
    'Content-Length': range ? range.end - range.start + 1 : info.size,
  };
  if (range) headers['Content-Range'] = `bytes ${range.start}-${range.end}/${info.size}`;

  if (req.method === 'HEAD') {
    res.writeHead(range ? 206 : 200, headers);
    res.end();
    return;
  }
  // An empty object has no byte to read (fs would read `end: -1` as "to the end").
  if (info.size === 0) {
    res.writeHead(200, headers);
    res.end();
    return;
  }
  const body = await storage.read(key, range ?? undefined);
  // Deleted between stat and read: still nothing sent, so a clean 404 is possible.
  if (!body) return sendError(res, 404, 'This media file does not exist (yet).');
  res.writeHead(range ? 206 : 200, headers);
  try {
    await pipeline(body, res);
  } catch (error) {
    // A viewer closing the tab mid-video is normal; a storage failure is not and goes to the caller's log.
    if ((error as NodeJS.ErrnoException).code !== 'ERR_STREAM_PREMATURE_CLOSE' || !req.socket.destroyed) throw error;
  }
}

/**
 * One `bytes=` range against an object of `size` bytes: `a-b`, `a-` or `-n` (the last n bytes). null when the
 * header is absent, malformed or asks for several ranges (all served as a plain 200); 'unsatisfiable' for 416.
 */
export function parseRange(header: string | undefined, size: number): ByteRange | 'unsatisfiable' | null {
  if (header === undefined) return null;
  const match = /^\s*bytes\s*=\s*(\d*)\s*-\s*(\d*)\s*$/i.exec(header);
  if (!match) return null;
  const [, first = '', last = ''] = match;
  if (first === '' && last === '') return null;
  if (first === '') {
    const suffix = Number(last);
    if (suffix === 0 || size === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(first);
  if (last !== '' && Number(last) < start) return null; // syntactically invalid per RFC 9110: ignore the header
  if (start >= size) return 'unsatisfiable';
  return { start, end: last === '' ? size - 1 : Math.min(Number(last), size - 1) };
}

/** If-None-Match uses the weak comparison: `W/"x"` matches `"x"`; `*` matches any existing object. */
function matchesAnyEtag(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === '*') return true;
  const bare = (tag: string) => tag.trim().replace(/^W\//, '');
  return header.split(',').some((tag) => bare(tag) === bare(etag));
}

/**
 * RFC 9110 §13.1.3: If-Modified-Since is only looked at when there is no If-None-Match, and compared in whole
 * seconds (what Last-Modified can say). An unreadable date is ignored, as a cache would send it again.
 */
function isNotModified(req: IncomingMessage, info: { etag: string; modifiedAt: Date }): boolean {
  const ifNoneMatch = req.headers['if-none-match'];
  if (ifNoneMatch !== undefined) return matchesAnyEtag(ifNoneMatch, info.etag);
  const since = req.headers['if-modified-since'];
  if (since === undefined) return false;
  const sinceMs = Date.parse(since);
  return Number.isFinite(sinceMs) && Math.floor(info.modifiedAt.getTime() / 1000) * 1000 <= sinceMs;
}
