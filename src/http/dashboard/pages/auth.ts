import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Services } from '../../context.js';
import { createRequestContext } from '../../context.js';
import { toErrorResponse } from '../../errors.js';
import { html } from '../../pages/html.js';
import { sendError } from '../../respond.js';
import { checkSameOrigin, readForm, safeNext } from '../forms.js';
import { cardPage, errorBox, noticeBox } from '../layout.js';
import { createCaller, type Route } from '../request.js';
import { redirect, sendPage } from '../send.js';

/**
 * Signing in and up: the only dashboard forms without a session, so without a CSRF token; they must come from this
 * origin (login CSRF). Both post to the REST procedures (their limits, bonus and cookie) and then go back to the
 * page that asked (`next`: a path on this service only).
 */

export function signInPage(input: { next: string; email?: string; error?: string | null; notice?: string | null }): string {
  return cardPage(
    'Sign in',
    html`<h1>Sign in to Showreel</h1>
<p>Use the email and password of your account.</p>
${noticeBox(input.notice)}
${errorBox(input.error)}
<form method="post" action="/app/sign-in">
<input type="hidden" name="next" value="${input.next}">
<label for="email">Email</label>
<input id="email" name="email" type="email" autocomplete="username" required value="${input.email ?? ''}" autofocus>
<label for="password">Password</label>
<input id="password" name="password" type="password" autocomplete="current-password" required>
<div class="actions"><button type="submit">Sign in</button></div>
</form>
<p class="muted">New here? <a href="/app/sign-up?next=${encodeURIComponent(input.next)}">Create an account</a>.</p>
<p class="muted small">Forgot your password? Your administrator can give you a one-time link to set a new one.</p>`,
  );
}

export function signUpPage(input: { next: string; email?: string; error?: string | null; bonus: number }): string {
  return cardPage(
    'Create an account',
    html`<h1>Create your Showreel account</h1>
<p>${input.bonus > 0 ? `You start with ${input.bonus} free credits: one credit makes one demo video.` : 'Buy credits once you are in: one credit makes one demo video.'}</p>
${errorBox(input.error)}
<form method="post" action="/app/sign-up">
<input type="hidden" name="next" value="${input.next}">
<label for="email">Email</label>
<input id="email" name="email" type="email" autocomplete="email" required maxlength="254" value="${input.email ?? ''}" autofocus>
<label for="password">Password</label>
<input id="password" name="password" type="password" autocomplete="new-password" required minlength="10" maxlength="1024" aria-describedby="password-hint">
<p class="hint" id="password-hint">At least 10 characters; a few words make a good one.</p>
<div class="actions"><button type="submit">Create account</button></div>
</form>
<p class="muted">Already have an account? <a href="/app/sign-in?next=${encodeURIComponent(input.next)}">Sign in</a>.</p>`,
  );
}

/** GET/POST /app/sign-in and /app/sign-up. Returns false for any other path. */
export async function handlePublicAuth(
  services: Services, req: IncomingMessage, res: ServerResponse, route: string, method: string, url: URL, csp: string,
): Promise<boolean> {
  if (route !== '/app/sign-in' && route !== '/app/sign-up') return false;
  if (method !== 'GET' && method !== 'POST') return sendError(res, 405, `Use GET or POST on ${route}.`, { Allow: 'GET, POST' }), true;
  const signUp = route === '/app/sign-up';
  const bonus = services.config.SHOWREEL_SIGNUP_BONUS ? services.config.SHOWREEL_SIGNUP_CREDITS : 0;
  const render = (input: { next: string; email?: string; error?: string | null; notice?: string | null }) => (signUp ? signUpPage({ ...input, bonus }) : signInPage(input));
  if (method === 'GET') {
    const notice = url.searchParams.get('reset') ? 'Your password was changed and you were signed out everywhere. Sign in with the new one.' : null;
    return sendPage(res, 200, render({ next: safeNext(url.searchParams.get('next')), notice }), csp), true;
  }

  checkSameOrigin(req, services.config.PUBLIC_URL);
  const form = await readForm(req);
  const email = form.get('email') ?? '';
  const next = safeNext(form.get('next'));
  const caller = createCaller(await createRequestContext(services, req, (cookie) => res.appendHeader('Set-Cookie', cookie)));
  try {
    const credentials = { email, password: form.get('password') ?? '' };
    await (signUp ? caller.auth.signUp(credentials) : caller.auth.signIn(credentials));
  } catch (error) {
    const mapped = toErrorResponse(error);
    if (mapped.fault) throw error;
    // Nothing set a cookie on failure; the typed email comes back, the password never does.
    return sendPage(res, mapped.status, render({ next, email, error: mapped.body.error }), csp, mapped.headers), true;
  }
  return redirect(res, next), true;
}

export const authRoutes: Route[] = [
  {
    method: 'POST',
    pattern: /^\/app\/sign-out$/,
    async handle(r) {
      await r.form();
      await r.caller.auth.signOut();
      redirect(r.res, '/app/sign-in');
    },
  },
];
