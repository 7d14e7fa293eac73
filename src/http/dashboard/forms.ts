import { createHash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { SESSION_COOKIE, readCookie } from '../../auth/index.js';
import { ForbiddenError, ValidationError } from '../../platform/errors.js';
import { constantTimeEqual } from '../../platform/secrets.js';
import { readText } from '../body.js';

/** A dashboard form is a few short fields. */
const MAX_FORM_BYTES = 16 * 1024;

/** Reads an `application/x-www-form-urlencoded` body (what a plain HTML form posts). */
export async function readForm(req: IncomingMessage): Promise<URLSearchParams> {
  const type = String(req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  if (type !== 'application/x-www-form-urlencoded') throw new ValidationError('Send the form as application/x-www-form-urlencoded.');
  const text = await readText(req, MAX_FORM_BYTES);
  if (text.includes('%00') || text.includes('\0')) throw new ValidationError('The form must not contain NUL characters.');
  return new URLSearchParams(text);
}

export function sessionTokenOf(req: IncomingMessage): string | null {
  const header = req.headers.cookie;
  return readCookie(Array.isArray(header) ? header[0] : header, SESSION_COOKIE);
}

/**
 * The CSRF token of a signed-in form: derived from the session token, which is HttpOnly, so a page on another
 * origin can neither read it nor compute this; it changes with every session.
 */
export function csrfTokenFor(sessionToken: string): string {
  return createHash('sha256').update(`csrf:${sessionToken}`).digest('base64url');
}

export function checkCsrf(req: IncomingMessage, form: URLSearchParams, sessionToken: string, publicUrl: string): void {
  checkSameOrigin(req, publicUrl);
  const sent = form.get('csrf') ?? '';
  if (!constantTimeEqual(sent, csrfTokenFor(sessionToken))) throw new ForbiddenError('This form has expired; reload the page and try again.');
}

/**
 * Browsers send Origin with every form POST: one from another site is refused (login CSRF included). A request
 * without Origin (an old browser, curl) falls back to Referer, and to the CSRF token alone when neither is sent.
 */
export function checkSameOrigin(req: IncomingMessage, publicUrl: string): void {
  const expected = new URL(publicUrl).origin;
  const origin = req.headers.origin;
  const referer = req.headers.referer;
  let from: string | null = null;
  try {
    from = typeof origin === 'string' && origin !== 'null' ? new URL(origin).origin : typeof referer === 'string' ? new URL(referer).origin : null;
  } catch {
    from = 'invalid';
  }
  if (origin === 'null') from = 'null';
  if (from !== null && from !== expected) throw new ForbiddenError('This form was sent from another site.');
}

/**
 * Where to go after signing in: a clean path on this service, else `/app/`. Never another host (`//evil`, `/\evil`);
 * and only printable ASCII, because the answer is a `Location` header, which Node refuses to write with anything
 * else: `next=/app/€` threw after the session was issued, a 500 (issue 34). Links the service makes itself are
 * percent-encoded, so a real page's address always passes.
 */
export function safeNext(next: string | null): string {
  if (!next || !/^\/(?![/\\])[\x21-\x7e]*$/.test(next) || next.includes('\\')) return '/app/';
  return next;
}
