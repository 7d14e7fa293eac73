import { domainToASCII } from 'node:url';

/**
 * One entry of a publishable key's `allowed_domains` as the embed check compares it: a lower-case host name, an IP
 * address, or `*.` and a domain (an IDN in punycode). What a customer pastes is often more than that: a page's URL or a host with its
 * port, which would never equal a page's host; those give their host. Null for anything that is still not a host
 * (spaces, markup, a path without a host), so the key is refused rather than created unable to work anywhere.
 */
export function normaliseAllowedDomain(entry: string): string | null {
  let value = entry.trim().toLowerCase();
  const wildcard = value.startsWith('*.');
  if (wildcard) value = value.slice(2);
  if (/^[a-z][a-z0-9+.-]*:\/\//.test(value)) {
    try {
      value = new URL(value).hostname;
    } catch {
      return null;
    }
  } else {
    // host:port, host/path: the host alone (an IPv6 literal keeps its brackets and colons).
    value = value.replace(/[/?#].*$/, '');
    if (!value.startsWith('[')) value = value.replace(/:\d*$/, '');
  }
  value = value.replace(/\.$/, '');
  // A Unicode (IDN) name is kept as browsers send it in Origin: punycode ("bücher.de" → "xn--bcher-kva.de").
  if (/[^\x00-\x7f]/.test(value) && !value.startsWith('[')) value = domainToASCII(value);
  const host = /^\[[0-9a-f:.]+\]$/.test(value) || /^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$/.test(value);
  if (!host || (wildcard && !value.includes('.'))) return null;
  return wildcard ? `*.${value}` : value;
}
