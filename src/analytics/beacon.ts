import { z } from 'zod';

/**
 * One beacon as our players send it (player.js, `navigator.sendBeacon`): a small JSON object, sent as text/plain
 * (what sendBeacon sends for a string, so no CORS preflight) or application/json. What a view did, never who:
 * the view id is random per page load, and nothing else identifies the visitor.
 */
export const BEACON_KINDS = ['load', 'play', 'progress', 'chapter', 'watched'] as const;
export type BeaconKind = (typeof BEACON_KINDS)[number];

/** The progress marks a player reports: every tenth of the length (drop-off) and the quarters (25/50/75/100). */
export const PROGRESS_MARKS = [10, 20, 25, 30, 40, 50, 60, 70, 75, 80, 90, 100] as const;

/** A body longer than this is no beacon of ours (a chapter title is the longest part): 413. */
export const MAX_BEACON_BYTES = 2048;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const beaconSchema = z
  .object({
    demo: z.string().regex(UUID, 'must be a demo id'),
    // 128 random bits from the player, base64url or hex: long enough that two page loads never share one.
    view: z.string().regex(/^[A-Za-z0-9_-]{16,64}$/, 'must be 16 to 64 letters, digits, - or _'),
    event: z.enum(BEACON_KINDS),
    // progress: a mark of PROGRESS_MARKS; chapter: its index; watched: whole seconds so far.
    value: z.number().int().min(0).max(86_400).optional(),
    title: z.string().max(200).optional(),
    // The embedding page's host (the player reads it from document.referrer); a URL is cut to its host here.
    host: z.string().max(2000).optional(),
    surface: z.enum(['share', 'embed']).optional(),
  })
  .strict()
  .superRefine((beacon, context) => {
    if (beacon.event === 'progress' && !(PROGRESS_MARKS as readonly number[]).includes(beacon.value ?? -1)) {
      context.addIssue({ code: 'custom', path: ['value'], message: `a progress beacon's value is one of ${PROGRESS_MARKS.join(', ')}` });
    }
    if ((beacon.event === 'chapter' || beacon.event === 'watched') && beacon.value === undefined) {
      context.addIssue({ code: 'custom', path: ['value'], message: `a ${beacon.event} beacon needs a value` });
    }
    if (beacon.event === 'chapter' && beacon.value !== undefined && beacon.value > 999) {
      context.addIssue({ code: 'custom', path: ['value'], message: 'a chapter index is at most 999' });
    }
  });

export type BeaconInput = z.infer<typeof beaconSchema>;

/** A beacon as stored: no address, no user agent, no URL. */
export interface BeaconRow {
  receivedAt: Date;
  demoId: string;
  viewId: string;
  kind: BeaconKind;
  value: number;
  label: string | null;
  viewerHash: string;
  host: string | null;
  surface: 'share' | 'embed';
}

/**
 * The host name of what the player reported as its embedding page: a bare host, or a URL cut to its host (no
 * path, query or port: a page's address can carry personal data, its host does not). Anything else is null.
 */
export function hostOf(reported: string | undefined): string | null {
  if (!reported) return null;
  const text = reported.includes('//') ? reported : `http://${reported}`;
  try {
    const host = new URL(text).hostname.toLowerCase().replace(/\.$/, '');
    return host.length > 0 && host.length <= 253 ? host : null;
  } catch {
    return null;
  }
}

/**
 * User agents that are not people watching: crawlers, link unfurlers, monitors, HTTP libraries and headless
 * browsers (HeadlessChrome is what scrapers and test rigs run). An empty user agent is no browser either.
 */
const BOT_AGENT =
  /bot\b|bot\/|crawl|spider|slurp|scrape|headless|lighthouse|pagespeed|phantomjs|puppeteer|playwright|selenium|facebookexternalhit|facebookcatalog|embedly|preview|monitor|pingdom|uptime|curl\/|wget\/|python-|httpx|aiohttp|go-http-client|java\/|okhttp|node-fetch|undici|axios|libwww|^$/i;

export function isBot(userAgent: string | undefined): boolean {
  return BOT_AGENT.test((userAgent ?? '').trim());
}

/** Do Not Track (`DNT: 1`) and Global Privacy Control (`Sec-GPC: 1`): the visitor asked not to be counted. */
export function optedOut(headers: Record<string, string | string[] | undefined>): boolean {
  return headers.dnt === '1' || headers['sec-gpc'] === '1';
}
