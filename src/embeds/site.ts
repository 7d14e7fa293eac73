import net from 'node:net';

/**
 * Public suffixes under which a registrable domain takes three labels. No public-suffix list ships with the
 * service (nothing is downloaded at run time); these cover the country-code second levels customers use most.
 * Any other host is registrable at its last two labels.
 */
const SECOND_LEVEL_SUFFIXES = new Set([
  'co.uk', 'org.uk', 'ac.uk', 'gov.uk', 'me.uk', 'ltd.uk', 'plc.uk', 'net.uk',
  'com.au', 'net.au', 'org.au', 'edu.au', 'gov.au',
  'co.nz', 'org.nz', 'net.nz', 'co.jp', 'ne.jp', 'or.jp', 'co.kr', 'or.kr', 'co.in', 'net.in', 'org.in',
  'com.br', 'net.br', 'org.br', 'com.mx', 'com.ar', 'com.cn', 'net.cn', 'org.cn', 'com.hk', 'com.sg', 'com.tw',
  'com.tr', 'co.za', 'co.il', 'com.es', 'com.pl', 'co.id', 'com.my', 'com.ph', 'com.vn', 'co.th',
]);

/** A host as compared everywhere here: lower case, no brackets, no trailing dot. */
export function normaliseHost(host: string): string {
  let value = host.trim().toLowerCase();
  if (value.startsWith('[') && value.endsWith(']')) value = value.slice(1, -1);
  return value.replace(/\.+$/, '');
}

/** The registrable domain of a host (`www.acme.co.uk` → `acme.co.uk`); an IP address or one-label host is itself. */
export function registrableDomain(host: string): string {
  const value = normaliseHost(host);
  if (net.isIP(value) !== 0) return value;
  const labels = value.split('.');
  if (labels.length <= 2) return value;
  const lastTwo = labels.slice(-2).join('.');
  return SECOND_LEVEL_SUFFIXES.has(lastTwo) ? labels.slice(-3).join('.') : lastTwo;
}

/** Spec Embeds: `context.url` counts only on the project's site (same registrable domain as the project URL). */
export function onSameSite(url: string, projectUrl: string): boolean {
  return registrableDomain(new URL(url).hostname) === registrableDomain(new URL(projectUrl).hostname);
}

/**
 * A publishable key's allowlist (spec Embeds "Allowed domains"): the host equals an entry, or, for an entry
 * `*.example.com`, is a subdomain of example.com (not example.com itself: write both to allow both).
 */
export function hostAllowed(host: string, allowedDomains: readonly string[]): boolean {
  const value = normaliseHost(host);
  return allowedDomains.some((entry) => {
    const domain = normaliseHost(entry);
    if (domain.startsWith('*.')) return value.endsWith(domain.slice(1)) && value.length > domain.length - 1;
    return value === domain;
  });
}
