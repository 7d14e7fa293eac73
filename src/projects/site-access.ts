import { z } from 'zod';
import { ValidationError } from '../platform/errors.js';
import type { SecretBox } from '../platform/secrets.js';

/**
 * How the recorder reaches a project's app behind a sign-in (issue 56): cookies exported from a signed-in browser,
 * or a sign-in recipe (a sign-in page, a user name and a password). Write-only: the whole of it is sealed with the
 * master key in events and in the read model, and what the API shows is only its summary (the kind, the sign-in
 * URL and user name, how many cookies): never a password or a cookie's value.
 */

/** One cookie as the recorder sets it (puppeteer's CookieParam, less what no export carries). */
export interface SiteCookie {
  name: string;
  value: string;
  domain?: string;
  path?: string;
  /** seconds since the epoch; absent: a session cookie */
  expires?: number;
  httpOnly?: boolean;
  secure?: boolean;
  sameSite?: 'Strict' | 'Lax' | 'None';
}

export interface SignInRecipe {
  url: string;
  username: string;
  password: string;
  usernameSelector?: string;
  passwordSelector?: string;
  submitSelector?: string;
}

export type SiteAccess = { kind: 'cookies'; cookies: SiteCookie[] } | ({ kind: 'sign_in' } & SignInRecipe);

/** What may be shown of it: to its owner (API, dashboard) and in events in the clear. */
export interface SiteAccessSummary {
  kind: 'cookies' | 'sign_in';
  signInUrl?: string;
  username?: string;
  cookieCount?: number;
}

// A cookie as browsers' extensions (Cookie-Editor, EditThisCookie: `expirationDate`), DevTools, puppeteer and
// Playwright (`expires`) export it. Other members (hostOnly, session, storeId, id…) are dropped.
const exportedCookie = z.object({
  name: z.string().min(1).max(4096),
  value: z.string().max(4096),
  domain: z.string().max(253).optional(),
  path: z.string().max(1024).optional(),
  expires: z.number().optional(),
  expirationDate: z.number().optional(),
  httpOnly: z.boolean().optional(),
  secure: z.boolean().optional(),
  // Strict/Lax/None, and the extensions' lower-case strict/lax/no_restriction/unspecified.
  sameSite: z.string().max(20).nullable().optional(),
});
const cookieArray = z.array(exportedCookie).min(1).max(300);

/** The `cookies` of a project's access: a JSON cookie list, or Playwright's storage state (`{cookies: […]}`). */
export const cookieListInput = z.union([cookieArray, z.object({ cookies: cookieArray })]);

const selector = z.string().trim().min(1).max(500);
export const signInInput = z.object({
  url: z
    .url({ protocol: /^https?$/ })
    .max(2048)
    .refine((url) => !/^[a-z]+:\/\/[^/?#]*@/i.test(url), 'must not carry a user name or password; give them as username and password'),
  username: z.string().min(1).max(320),
  // Left out when the project already has a sign-in recipe: the stored password is kept.
  password: z.string().min(1).max(1024).optional(),
  username_selector: selector.optional(),
  password_selector: selector.optional(),
  submit_selector: selector.optional(),
});

/** `access` in a project's create and update bodies: one of the two, or null to clear it. */
export const siteAccessInput = z.union([z.object({ cookies: cookieListInput }).strict(), z.object({ sign_in: signInInput }).strict()]).nullable();
export type SiteAccessInput = z.infer<typeof siteAccessInput>;

/** `access` in the Project resource. */
export const siteAccessSchema = z.object({
  kind: z.enum(['none', 'cookies', 'sign_in']),
  sign_in_url: z.string().optional(),
  username: z.string().optional(),
  cookie_count: z.number().optional(),
});

export function normaliseCookies(input: z.infer<typeof cookieListInput>, now = Date.now()): SiteCookie[] {
  const list = Array.isArray(input) ? input : input.cookies;
  const cookies = list.map((c): SiteCookie => {
    const expiry = c.expires ?? c.expirationDate;
    const sameSite = sameSiteOf(c.sameSite);
    return {
      name: c.name,
      value: c.value,
      ...(c.domain ? { domain: c.domain } : {}),
      ...(c.path ? { path: c.path } : {}),
      // -1 (DevTools, puppeteer) and 0 mean a session cookie.
      ...(expiry !== undefined && expiry > 0 ? { expires: expiry } : {}),
      ...(c.httpOnly !== undefined ? { httpOnly: c.httpOnly } : {}),
      ...(c.secure !== undefined ? { secure: c.secure } : {}),
      ...(sameSite ? { sameSite } : {}),
    };
  });
  // A browser drops an expired cookie as it is set: a list of nothing else cannot sign in, which is better said now.
  if (cookies.every((c) => c.expires !== undefined && c.expires * 1000 < now)) {
    throw new ValidationError('Every cookie in the list has expired; export them again from a signed-in browser.');
  }
  return cookies;
}

function sameSiteOf(value: string | null | undefined): SiteCookie['sameSite'] {
  switch (value?.toLowerCase()) {
    case 'strict':
      return 'Strict';
    case 'lax':
      return 'Lax';
    case 'none':
    case 'no_restriction':
      return 'None';
    default:
      return undefined;
  }
}

/**
 * The access a project's input asks for. `stored`: the project's current access, whose password a sign-in recipe
 * without one keeps.
 */
export function siteAccessFromInput(input: NonNullable<SiteAccessInput>, stored: SiteAccess | null): SiteAccess {
  if ('cookies' in input) return { kind: 'cookies', cookies: normaliseCookies(input.cookies) };
  const s = input.sign_in;
  const password = s.password ?? (stored?.kind === 'sign_in' ? stored.password : undefined);
  if (password === undefined) throw new ValidationError('access.sign_in.password is required: the project has no stored password to keep.');
  return {
    kind: 'sign_in',
    url: s.url,
    username: s.username,
    password,
    ...(s.username_selector ? { usernameSelector: s.username_selector } : {}),
    ...(s.password_selector ? { passwordSelector: s.password_selector } : {}),
    ...(s.submit_selector ? { submitSelector: s.submit_selector } : {}),
  };
}

export function summaryOf(access: SiteAccess): SiteAccessSummary {
  return access.kind === 'cookies'
    ? { kind: 'cookies', cookieCount: access.cookies.length }
    : { kind: 'sign_in', signInUrl: access.url, username: access.username };
}

export function sealSiteAccess(secrets: SecretBox, access: SiteAccess): string {
  return secrets.seal(JSON.stringify(access));
}

/** A project's access, opened for the recorder (or for keeping a password); null when it has none. */
export function openSiteAccess(secrets: SecretBox, sealed: string | null): SiteAccess | null {
  return sealed === null ? null : (JSON.parse(secrets.open(sealed)) as SiteAccess);
}

/** The Project resource's `access`, from the read model's summary (JSON text; null: none). */
export function toSiteAccessView(summaryText: string | null): z.infer<typeof siteAccessSchema> {
  if (summaryText === null) return { kind: 'none' };
  const s = JSON.parse(summaryText) as SiteAccessSummary;
  return {
    kind: s.kind,
    ...(s.signInUrl !== undefined ? { sign_in_url: s.signInUrl } : {}),
    ...(s.username !== undefined ? { username: s.username } : {}),
    ...(s.cookieCount !== undefined ? { cookie_count: s.cookieCount } : {}),
  };
}
