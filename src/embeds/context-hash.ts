import { hash } from 'node:crypto';

/**
 * The page URL as the reuse key sees it (spec Embeds "Reuse"): no fragment, no `utm_*` parameters, the rest of the
 * query sorted, host lower case. Two visits to the same page through different campaign links share one demo.
 */
export function normaliseContextUrl(url: string): string {
  const parsed = new URL(url);
  parsed.hash = '';
  // "acme.com." is the same host as "acme.com" (the root's dot): the same page, the same demo.
  parsed.hostname = parsed.hostname.replace(/\.$/, '');
  const kept = [...parsed.searchParams].filter(([name]) => !name.toLowerCase().startsWith('utm_'));
  kept.sort(([a, va], [b, vb]) => (a < b ? -1 : a > b ? 1 : va < vb ? -1 : va > vb ? 1 : 0));
  parsed.search = new URLSearchParams(kept).toString();
  return parsed.toString();
}

export interface HashedParts {
  projectId: string;
  /** already normalised, or null when the caller sent no page URL */
  url: string | null;
  prompt: string;
  template: string | null;
  section: string | null;
  presentation: unknown;
}

/** A stable hash of what an embed asks for: the same request on the same page gets the same demo. */
export function contextHash(parts: HashedParts): string {
  const canonical = JSON.stringify([
    parts.projectId,
    parts.url,
    parts.prompt,
    parts.template,
    parts.section,
    parts.presentation === undefined ? null : canonicalJson(parts.presentation),
  ]);
  return hash('sha256', canonical, 'base64url');
}

/** JSON with object keys sorted at every depth, so `{a, b}` and `{b, a}` hash alike. */
function canonicalJson(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonicalJson);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .filter((key) => (value as Record<string, unknown>)[key] !== undefined)
        .map((key) => [key, canonicalJson((value as Record<string, unknown>)[key])]),
    );
  }
  return value;
}
