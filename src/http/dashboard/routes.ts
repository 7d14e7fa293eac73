import type { IncomingMessage, ServerResponse } from 'node:http';
import { findPendingGrant } from '../../devices/index.js';

import { createCallerFactory } from '../../platform/trpc.js';
import { findUserById } from '../../users/index.js';
import { appRouter } from '../app-router.js';
import { createRequestContext, type Services } from '../context.js';
import { toErrorResponse } from '../errors.js';
import { sendError } from '../respond.js';
import { checkCsrf, checkSameOrigin, csrfTokenFor, readForm, safeNext, sessionTokenOf } from './forms.js';
import { devicePage, deviceDonePage, homePage, signInPage } from './pages.js';

const createCaller = createCallerFactory(appRouter);

/**
 * The dashboard, on the session cookie: `/` and `/app/` (who is signed in), `/app/sign-in`, `/app/sign-out` and
 * `/app/device` (approve a command-line client's device login). Forms post to the same procedures as the REST API
 * (sign-in limits and all), through a tRPC caller; signed-in forms carry a CSRF token and must come from this
 * origin. Returns false for any other path.
 */
export async function handleDashboardRequest(services: Services, req: IncomingMessage, res: ServerResponse, path: string): Promise<boolean> {
  // The server has already dropped trailing slashes: `/app/` arrives as `/app`.
  const route = path === '/' || path === '/app' ? '/app/' : path;
  if (!['/app/', '/app/sign-in', '/app/sign-out', '/app/device'].includes(route)) return false;
  const method = req.method === 'HEAD' ? 'GET' : req.method;
  const allowed = route === '/app/sign-out' ? ['POST'] : route === '/app/' ? ['GET'] : ['GET', 'POST'];
  if (!allowed.includes(method ?? '')) {
    sendError(res, 405, `Use ${allowed.join(' or ')} on ${route}.`, { Allow: allowed.join(', ') });
    return true;
  }
  if (path === '/') return redirect(res, '/app/'), true;

  const url = new URL(req.url ?? '/', 'http://localhost');
  const ctx = await createRequestContext(services, req, (cookie) => res.appendHeader('Set-Cookie', cookie));
  const caller = createCaller(ctx);
  const sessionToken = ctx.principal?.via === 'session' ? sessionTokenOf(req) : null;
  const signedIn = sessionToken !== null && ctx.principal !== null ? { userId: ctx.principal.userId, token: sessionToken } : null;
  const publicUrl = services.config.PUBLIC_URL;
  const toSignIn = () => redirect(res, `/app/sign-in?next=${encodeURIComponent(`${url.pathname}${url.search}`)}`);

  if (route === '/app/sign-in') {
    const next = safeNext(url.searchParams.get('next'));
    if (method === 'GET') return sendPage(res, 200, signInPage({ next })), true;
    checkSameOrigin(req, publicUrl);
    const form = await readForm(req);
    const email = form.get('email') ?? '';
    const formNext = safeNext(form.get('next'));
    try {
      await caller.auth.signIn({ email, password: form.get('password') ?? '' });
    } catch (error) {
      const mapped = toErrorResponse(error);
      if (mapped.fault) throw error;
      return sendPage(res, mapped.status, signInPage({ next: formNext, email, error: mapped.body.error }), mapped.headers), true;
    }
    return redirect(res, formNext), true;
  }

  if (!signedIn) {
    if (method === 'POST') return sendError(res, 401, 'Sign in first.'), true;
    return toSignIn(), true;
  }
  const csrf = csrfTokenFor(signedIn.token);
  const user = await findUserById(services.sql, signedIn.userId);
  const email = user?.email ?? '';

  if (route === '/app/sign-out') {
    checkCsrf(req, await readForm(req), signedIn.token, publicUrl);
    await caller.auth.signOut();
    return redirect(res, '/app/sign-in'), true;
  }
  if (route === '/app/') return sendPage(res, 200, homePage({ email, csrf })), true;

  // /app/device
  if (method === 'GET') {
    const userCode = (url.searchParams.get('user_code') ?? '').slice(0, 16);
    const grant = userCode ? await findPendingGrant(services.sql, userCode) : null;
    const error = userCode && !grant ? 'This code is unknown, has expired or was already used. Start the login again in your terminal.' : null;
    return sendPage(res, 200, devicePage({ userCode, clientName: grant?.clientName ?? null, csrf, email, error })), true;
  }
  const form = await readForm(req);
  checkCsrf(req, form, signedIn.token, publicUrl);
  const userCode = (form.get('user_code') ?? '').slice(0, 16);
  const decision = form.get('decision') === 'deny' ? 'deny' : 'approve';
  try {
    const result = await caller.device.authorize({ user_code: userCode, decision });
    return sendPage(res, 200, deviceDonePage({ clientName: result.client_name, approved: decision === 'approve' })), true;
  } catch (error) {
    const mapped = toErrorResponse(error);
    if (mapped.fault || !(mapped.status === 404 || mapped.status === 409 || mapped.status === 400)) throw error;
    const message = mapped.status === 409 ? 'This code was already used.' : 'This code is unknown or has expired. Start the login again in your terminal.';
    return sendPage(res, mapped.status, devicePage({ userCode, clientName: null, csrf, email, error: message })), true;
  }
}

/** Dashboard pages: never cached, never framed (an Approve button in a frame is a clickjacking target). */
function sendPage(res: ServerResponse, status: number, body: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, {
    'Content-Type': 'text/html; charset=utf-8',
    'Content-Length': Buffer.byteLength(body),
    'Cache-Control': 'no-store',
    'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
    'X-Frame-Options': 'DENY',
    'Referrer-Policy': 'same-origin',
    ...headers,
  });
  res.end(body);
}

function redirect(res: ServerResponse, location: string): void {
  res.writeHead(303, { Location: location, 'Cache-Control': 'no-store', 'Content-Length': 0 });
  res.end();
}

