import type { IncomingHttpHeaders } from 'node:http';

/**
 * True when a browser says the request comes from a page of another origin. Browsers send Origin with every
 * cross-origin request and with every non-GET one; clients that send none (curl, the CLI, servers) are not pages
 * riding on a user's cookie, so they do not count as foreign. `null` (a sandboxed frame, a file, some redirects) and
 * an Origin that does not parse do.
 */
export function isForeignOrigin(headers: IncomingHttpHeaders, publicUrl: string): boolean {
  const origin = headers.origin;
  if (origin === undefined) return false;
  try {
    return origin === 'null' || new URL(origin).origin !== new URL(publicUrl).origin;
  } catch {
    return true;
  }
}
