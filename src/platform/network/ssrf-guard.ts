import dns from 'node:dns';
import net from 'node:net';
import { ValidationError } from '../errors.js';

/**
 * The SSRF guard: Showreel loads pages that users name, on its own machines, so a URL must never reach loopback,
 * private networks, link-local services (the cloud metadata endpoint 169.254.169.254), multicast or reserved space.
 * The decision is made on the addresses a host resolves to — not on its name — and a host is refused when ANY of its
 * addresses is refused (a name with one public and one private record would otherwise be a coin toss).
 *
 * `SHOWREEL_ALLOW_PRIVATE_URLS=1` turns the address checks off (no DNS lookup at all): local development and the
 * tests, whose fixture sites live on 127.0.0.1 and whose project hosts do not resolve.
 */

export type RefusedKind =
  | 'unspecified'
  | 'loopback'
  | 'private'
  | 'link-local'
  | 'carrier-grade NAT'
  | 'multicast'
  | 'broadcast'
  | 'reserved'
  | 'unparseable';

interface Range4 {
  base: number;
  bits: number;
  kind: RefusedKind;
}

const ranges4: Range4[] = [
  range4('255.255.255.255', 32, 'broadcast'),
  range4('0.0.0.0', 8, 'unspecified'), // "this network"
  range4('10.0.0.0', 8, 'private'),
  range4('100.64.0.0', 10, 'carrier-grade NAT'),
  range4('127.0.0.0', 8, 'loopback'),
  range4('169.254.0.0', 16, 'link-local'),
  range4('172.16.0.0', 12, 'private'),
  range4('192.0.0.0', 24, 'reserved'), // IETF protocol assignments
  range4('192.0.2.0', 24, 'reserved'), // TEST-NET-1
  range4('192.88.99.0', 24, 'reserved'), // 6to4 relay anycast (deprecated)
  range4('192.168.0.0', 16, 'private'),
  range4('198.18.0.0', 15, 'reserved'), // benchmarking
  range4('198.51.100.0', 24, 'reserved'), // TEST-NET-2
  range4('203.0.113.0', 24, 'reserved'), // TEST-NET-3
  range4('224.0.0.0', 4, 'multicast'),
  range4('240.0.0.0', 4, 'reserved'),
];

function range4(address: string, bits: number, kind: RefusedKind): Range4 {
  return { base: ipv4ToNumber(address)!, bits, kind };
}

function ipv4ToNumber(address: string): number | null {
  const parts = address.split('.');
  if (parts.length !== 4) return null;
  let value = 0;
  for (const part of parts) {
    if (!/^\d{1,3}$/.test(part)) return null;
    const byte = Number(part);
    if (byte > 255) return null;
    value = value * 256 + byte;
  }
  return value;
}

function classifyIPv4Number(value: number): RefusedKind | null {
  for (const range of ranges4) {
    const size = 2 ** (32 - range.bits);
    if (Math.floor(value / size) === Math.floor(range.base / size)) return range.kind;
  }
  return null;
}

/** The 16 bytes of an IPv6 address (zone id dropped), or null. Accepts a dotted IPv4 tail (::ffff:1.2.3.4). */
function parseIPv6(input: string): number[] | null {
  const address = input.replace(/%.*$/, '');
  if (!net.isIPv6(address)) return null;
  let text = address;
  const tail: number[] = [];
  const dotted = /(\d{1,3}(?:\.\d{1,3}){3})$/.exec(text);
  if (dotted) {
    const v4 = ipv4ToNumber(dotted[1]!);
    if (v4 === null) return null;
    tail.push((v4 >>> 16) & 0xffff, v4 & 0xffff);
    text = text.slice(0, -dotted[1]!.length);
    if (!text.endsWith('::')) text = text.slice(0, -1); // drop the ':' before the IPv4 tail
  }
  const [head, rest] = text.includes('::') ? text.split('::') as [string, string] : [text, null];
  const headGroups = head === '' ? [] : head.split(':');
  const restGroups = rest === null || rest === '' ? [] : rest.split(':');
  const explicit = headGroups.length + restGroups.length + tail.length;
  if (explicit > 8 || (rest === null && explicit !== 8)) return null;
  const groups = [
    ...headGroups.map((g) => parseInt(g, 16)),
    ...(rest === null ? [] : new Array<number>(8 - explicit).fill(0)),
    ...restGroups.map((g) => parseInt(g, 16)),
    ...tail,
  ];
  if (groups.length !== 8 || groups.some((g) => Number.isNaN(g) || g < 0 || g > 0xffff)) return null;
  return groups.flatMap((g) => [g >> 8, g & 0xff]);
}

function bytesToIPv4Number(bytes: number[], offset: number): number {
  return ((bytes[offset]! << 24) >>> 0) + (bytes[offset + 1]! << 16) + (bytes[offset + 2]! << 8) + bytes[offset + 3]!;
}

function startsWith(bytes: number[], prefix: number[]): boolean {
  return prefix.every((b, i) => bytes[i] === b);
}

function classifyIPv6(bytes: number[]): RefusedKind | null {
  const zeros = (n: number) => bytes.slice(0, n).every((b) => b === 0);
  if (zeros(16)) return 'unspecified';
  if (zeros(15) && bytes[15] === 1) return 'loopback';
  // IPv4-mapped ::ffff:a.b.c.d — what Chromium and the kernel really connect to is the IPv4 address.
  if (zeros(10) && bytes[10] === 0xff && bytes[11] === 0xff) return classifyIPv4Number(bytesToIPv4Number(bytes, 12));
  // IPv4-compatible ::a.b.c.d (deprecated) and the rest of ::/96.
  if (zeros(12)) return 'reserved';
  // NAT64 64:ff9b::/96 reaches the embedded IPv4 address through a translator.
  if (startsWith(bytes, [0x00, 0x64, 0xff, 0x9b, 0, 0, 0, 0, 0, 0, 0, 0])) {
    return classifyIPv4Number(bytesToIPv4Number(bytes, 12));
  }
  // 6to4 2002::/16 embeds an IPv4 address in bits 16–47.
  if (bytes[0] === 0x20 && bytes[1] === 0x02) return classifyIPv4Number(bytesToIPv4Number(bytes, 2));
  if (bytes[0] === 0xff) return 'multicast';
  if ((bytes[0]! & 0xfe) === 0xfc) return 'private'; // fc00::/7 unique local
  if (bytes[0] === 0xfe && (bytes[1]! & 0xc0) === 0x80) return 'link-local'; // fe80::/10
  if (bytes[0] === 0xfe && (bytes[1]! & 0xc0) === 0xc0) return 'private'; // fec0::/10 site-local (deprecated)
  // Only 2000::/3 is global unicast; everything else (64:ff9b:1::/48, 100::/64, ...) is special-purpose.
  if ((bytes[0]! & 0xe0) !== 0x20) return 'reserved';
  // 2001::/23 IETF protocol assignments (Teredo, benchmarking, ORCHID...) and 2001:db8::/32 documentation.
  if (bytes[0] === 0x20 && bytes[1] === 0x01 && bytes[2]! < 0x02) return 'reserved';
  if (startsWith(bytes, [0x20, 0x01, 0x0d, 0xb8])) return 'reserved';
  return null;
}

/** Why an address is refused, or null when it is a public address Showreel may connect to. */
export function classifyAddress(ip: string): RefusedKind | null {
  const address = ip.startsWith('[') && ip.endsWith(']') ? ip.slice(1, -1) : ip;
  if (net.isIPv4(address)) return classifyIPv4Number(ipv4ToNumber(address)!);
  const bytes = parseIPv6(address);
  if (bytes) return classifyIPv6(bytes);
  return 'unparseable';
}

/** True for loopback, private, link-local, CGNAT, multicast, broadcast, reserved and unspecified addresses. */
export function isRefusedAddress(ip: string): boolean {
  return classifyAddress(ip) !== null;
}

export type LookupAll = (hostname: string) => Promise<Array<{ address: string; family: number }>>;

export interface CheckUrlOptions {
  allowPrivate: boolean;
  /** Resolver, for tests; defaults to dns.lookup with all: true (what the OS — and Chromium — would use). */
  lookup?: LookupAll;
  /** Give up on a resolver that does not answer; default 5 s. */
  lookupTimeoutMs?: number;
}

export type CheckUrlResult =
  | { ok: true; addresses: string[] }
  | {
      ok: false;
      /** for the person who asked: never an address a name resolved to (that would make Showreel a DNS oracle) */
      reason: string;
      code: 'invalid' | 'scheme' | 'refused' | 'unresolved';
      /** the refused address a host name resolved to: for the server's log only, never for a reply */
      resolvedAddress?: string;
    };

const defaultLookup: LookupAll = (hostname) => dns.promises.lookup(hostname, { all: true, verbatim: true });

const publicOnly = 'Showreel only records public pages.';

/** The host of a URL as an address or a name: brackets and a trailing dot removed, lower case. */
export function hostOf(url: URL): string {
  let host = url.hostname.toLowerCase();
  if (host.startsWith('[') && host.endsWith(']')) host = host.slice(1, -1);
  return host.replace(/\.+$/, '');
}

/**
 * Decides whether Showreel may load `url`: http(s) only, and (unless allowPrivate) every address its host resolves
 * to is public. With allowPrivate only the scheme is checked and no DNS lookup happens (`addresses` is empty).
 */
export async function checkUrl(url: string, options: CheckUrlOptions): Promise<CheckUrlResult> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { ok: false, code: 'invalid', reason: 'url is not a valid absolute URL.' };
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    return { ok: false, code: 'scheme', reason: `The address must use http or https, not ${parsed.protocol.replace(/:$/, '')}.` };
  }
  if (options.allowPrivate) return { ok: true, addresses: [] };

  return checkHost(hostOf(parsed), options);
}

/**
 * The address half of checkUrl, for a host already taken out of a URL by `hostOf` (a name or a literal address).
 * Always checks: callers that honour allowPrivate skip calling it.
 */
export async function checkHost(host: string, options: Omit<CheckUrlOptions, 'allowPrivate'> = {}): Promise<CheckUrlResult> {
  if (host === '') return { ok: false, code: 'invalid', reason: 'url has no host.' };
  // Chromium answers localhost and *.localhost itself, with loopback, whatever DNS says.
  if (host === 'localhost' || host.endsWith('.localhost')) {
    return { ok: false, code: 'refused', reason: `url points at localhost; ${publicOnly}` };
  }
  if (net.isIP(host) !== 0) {
    const kind = classifyAddress(host);
    if (kind !== null) return { ok: false, code: 'refused', reason: `url points at ${article(kind)} ${kind} address (${host}); ${publicOnly}` };
    return { ok: true, addresses: [host] };
  }

  let records: Array<{ address: string; family: number }>;
  try {
    records = await withTimeout((options.lookup ?? defaultLookup)(host), options.lookupTimeoutMs ?? 5_000);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOTFOUND' || code === 'ENODATA' || code === 'EAI_NONAME') {
      return { ok: false, code: 'unresolved', reason: `url's host does not resolve (${host}); check the address.` };
    }
    return { ok: false, code: 'unresolved', reason: `url's host could not be resolved right now (${host}: ${code ?? 'timeout'}); try again.` };
  }
  if (records.length === 0) {
    return { ok: false, code: 'unresolved', reason: `url's host does not resolve (${host}); check the address.` };
  }
  for (const { address } of records) {
    const kind = classifyAddress(address);
    if (kind !== null) {
      // The kind, not the address: quoting what an internal name resolves to would let anyone map the internal
      // network through error messages (issue 34). An address the user typed is theirs already and is named above.
      return { ok: false, code: 'refused', reason: `url resolves to ${article(kind)} ${kind} address; ${publicOnly}`, resolvedAddress: address };
    }
  }
  return { ok: true, addresses: records.map((r) => r.address) };
}

/** Where a refusal's resolved address is written down: the server's log (a pino logger fits). */
export interface RefusalLog {
  info(details: Record<string, unknown>, message: string): void;
}

/** Writes a refusal's resolved address (if any) to the server log, the only place it may appear. */
export function logRefusal(log: RefusalLog | undefined, url: string, result: CheckUrlResult): void {
  if (!result.ok && result.resolvedAddress !== undefined) {
    log?.info({ host: URL.parse(url)?.hostname ?? url.slice(0, 200), resolvedAddress: result.resolvedAddress }, 'URL refused: its host resolves to a non-public address');
  }
}

/** checkUrl for request handlers: throws a ValidationError (400) carrying the reason. */
export async function assertPublicUrl(url: string, options: CheckUrlOptions & { allowUnresolved?: boolean; log?: RefusalLog }): Promise<string[]> {
  const result = await checkUrl(url, options);
  if (!result.ok) {
    logRefusal(options.log, url, result);
    // A host that cannot be resolved right now proves nothing either way (a site not live yet, a resolver
    // hiccup); callers that re-check before fetching may accept it.
    if (result.code === 'unresolved' && options.allowUnresolved) return [];
    throw new ValidationError(result.reason);
  }
  return result.addresses;
}

function article(kind: RefusedKind): string {
  return /^[aeiu]/.test(kind) ? 'an' : 'a';
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(Object.assign(new Error('DNS lookup timed out'), { code: 'ETIMEOUT' })), ms);
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}
