import type { IncomingMessage, ServerResponse } from 'node:http';
import { findUserById } from '../../users/index.js';
import { createRequestContext, type Services } from '../context.js';
import { toErrorResponse } from '../errors.js';
import { sendError } from '../respond.js';
import { checkCsrf, checkSameOrigin, csrfTokenFor, readForm, sessionTokenOf } from './forms.js';
import { appPage, cardPage } from './layout.js';
import { authRoutes, handlePublicAuth } from './pages/auth.js';
import { creditRoutes } from './pages/credits.js';
import { demoRoutes } from './pages/demo.js';
import { demosRoutes } from './pages/demos.js';
import { deviceRoutes } from './pages/device.js';
import { errorPage } from './pages/errors.js';
import { keyRoutes } from './pages/keys.js';
import { projectRoutes } from './pages/projects.js';
import { handlePasswordReset } from './pages/reset-password.js';
import { narrationRoutes } from './pages/narration.js';
import { restyleRoutes } from './pages/restyle.js';
import { uploadRoutes } from './pages/uploads.js';
import { versionRoutes } from './pages/versions.js';
import { webhookRoutes } from './pages/webhooks.js';
import { createCaller, type DashboardRequest, type Route } from './request.js';
import { dashboardCsp, redirect, sendPage } from './send.js';
import { handleDashboardStatic } from './static.js';

const ROUTES: readonly Route[] = [
  ...authRoutes,
  ...deviceRoutes,
  ...demosRoutes,
  // Before the demo page, whose /app/demos/<id> would otherwise take /app/demos/upload.
  ...uploadRoutes,
  ...demoRoutes,
  ...restyleRoutes,
  ...narrationRoutes,
  ...versionRoutes,
  ...projectRoutes,
  ...webhookRoutes,
  ...keyRoutes,
  ...creditRoutes,
];

/**
 * The dashboard, on the session cookie: `/` and everything under `/app/`. Pages call the REST procedures through a
 * tRPC caller as the signed-in user, so every business rule, limit and owner check is the API's own; a forged id
 * is the API's 404. Every signed-in form carries a CSRF token derived from the session and must come from this
 * origin. Returns false for any other path.
 */
export async function handleDashboardRequest(services: Services, req: IncomingMessage, res: ServerResponse, path: string): Promise<boolean> {
  if (handleDashboardStatic(req, res, path)) return true;
  // The server has already dropped trailing slashes: `/app/` arrives as `/app`.
  const route = path === '/' || path === '/app' ? '/app/' : path;
  if (!route.startsWith('/app/')) return false;
  const method = req.method === 'HEAD' ? 'GET' : req.method;
  if (path === '/') return redirect(res, '/app/'), true;

  const url = new URL(req.url ?? '/', 'http://localhost');
  const publicUrl = services.config.PUBLIC_URL;
  // Under Stripe the buy form's answer redirects to Stripe Checkout, which form-action must allow.
  const csp = dashboardCsp(new URL(publicUrl).origin, services.config.SHOWREEL_PAYMENTS === 'stripe' ? ['https://checkout.stripe.com'] : []);
  if (await handlePublicAuth(services, req, res, route, method ?? '', url, csp)) return true;
  if (await handlePasswordReset(services, req, res, route, method ?? '', csp)) return true;

  const matching = ROUTES.filter((r) => r.pattern.test(route));
  if (matching.length === 0) {
    // A mistyped or stale address in the browser: a page saying so, not the API's JSON.
    if (method !== 'GET') return false;
    return sendPage(res, 404, cardPage('Not found', errorPage(404, 'There is no page at this address.')), csp), true;
  }
  const found = matching.find((r) => r.method === method);
  if (!found) {
    // A form's address left in the address bar (after its answer was a page) and loaded again: the page it belongs to.
    const page = method === 'GET' ? nearestPage(route) : null;
    if (page) return redirect(res, page), true;
    const allowed = [...new Set(matching.map((r) => r.method))].join(', ');
    return sendError(res, 405, `Use ${allowed} on ${route}.`, { Allow: allowed }), true;
  }

  // A post from another site is refused as such (403), before its session would be ignored (401).
  if (method === 'POST') checkSameOrigin(req, publicUrl);
  const ctx = await createRequestContext(services, req, (cookie) => res.appendHeader('Set-Cookie', cookie));
  const sessionToken = ctx.principal?.via === 'session' ? sessionTokenOf(req) : null;
  if (sessionToken === null || ctx.principal === null) {
    if (method === 'POST') return sendError(res, 401, 'Sign in first.'), true;
    return redirect(res, `/app/sign-in?next=${encodeURIComponent(`${url.pathname}${url.search}`)}`), true;
  }
  const user = await findUserById(services.sql, ctx.principal.userId);
  const viewer = { email: user?.email ?? '', csrf: csrfTokenFor(sessionToken) };
  const request: DashboardRequest = {
    services, req, res, url, sessionToken, csp, viewer,
    params: found.pattern.exec(route)!.slice(1).map((p) => decodeURIComponent(p)),
    caller: createCaller(ctx),
    async form() {
      const form = await readForm(req);
      checkCsrf(req, form, sessionToken, publicUrl);
      return form;
    },
    page: (status, body) => sendPage(res, status, body, csp),
  };
  try {
    await found.handle(request);
  } catch (error) {
    const mapped = toErrorResponse(error);
    // A refused form (CSRF, Origin) stays a plain 403 {error}: nothing from another site gets a page back.
    if (mapped.fault || res.headersSent || found.json || (mapped.status === 403 && method === 'POST')) throw error;
    sendPage(res, mapped.status, appPage({ title: 'Something went wrong', viewer, section: null, body: errorPage(mapped.status, mapped.body.error) }), csp, mapped.headers);
  }
  return true;
}

/** The closest address above `route` that has a page (`/app/credits/purchase` → `/app/credits`, else `/app/`). */
function nearestPage(route: string): string | null {
  for (let path = route.replace(/\/[^/]*$/, ''); path.startsWith('/app'); path = path.replace(/\/[^/]*$/, '')) {
    const candidate = path === '/app' ? '/app/' : path;
    if (ROUTES.some((r) => r.method === 'GET' && r.pattern.test(candidate))) return candidate;
  }
  return null;
}
