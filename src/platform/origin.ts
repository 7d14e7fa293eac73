import type { IncomingHttpHeaders } from 'node:http';

/**
 * True when a browser says the request comes from a page of another origin: by `Origin`, which browsers send with
 * every cross-origin request and every non-GET one; without it, by `Sec-Fetch-Site` (anything but same-origin or a
 * navigation the user typed), then by `Referer`, as the dashboard's forms are judged. Clients that send none of
 * them (curl, the CLI, servers) are not pages riding on a user's cookie, so they do not count as foreign. `null` (a
 * sandboxed frame, a file, some redirects) and a header that does not parse do.
 */
export function isForeignOrigin(headers: IncomingHttpHeaders, publicUrl: string): boolean {
  const own = new URL(publicUrl).origin;
  const origin = headers.origin;
  if (origin !== undefined) return origin === 'null' || originOf(origin) !== own;
  const site = headers['sec-fetch-site'];
  if (typeof site === 'string' && site !== 'same-origin' && site !== 'none') return true;
  const referer = headers.referer;
  return typeof referer === 'string' && originOf(referer) !== own;
}

function originOf(url: string): string | null {
  try {
    return new URL(url).origin;
  } catch {
    return null;
  }
}
