import type { IncomingMessage, ServerResponse } from 'node:http';
import { findUsableResetLink, RESET_LINK_PATH, useResetLink } from '../../../auth/reset-links.js';
import { inTransaction } from '../../../platform/command.js';
import { hashPassword } from '../../../platform/secrets.js';
import type { Services } from '../../context.js';
import { html } from '../../pages/html.js';
import { sendError } from '../../respond.js';
import { checkSameOrigin, readForm } from '../forms.js';
import { cardPage, errorBox } from '../layout.js';
import { redirect, sendPage } from '../send.js';

/**
 * `/app/reset-password/<token>`: the page of a one-time reset link (`showreel admin reset-link`, issue 35). Without
 * a session, like signing in, so the post must come from this origin. The token is checked before any password is
 * hashed (a made-up link costs no scrypt); a used, expired or mistyped link gets one answer that says what to do.
 * No referrer leaves the page: its address is the secret.
 */
const NO_REFERRER = { 'Referrer-Policy': 'no-referrer' };
const MIN_LENGTH = 10; // as at sign-up (auth/procedures.ts)

function resetPage(error?: string | null): string {
  return cardPage(
    'Choose a new password',
    html`<h1>Choose a new password</h1>
<p>This link works once. Afterwards you are signed out everywhere and sign in with the new password.</p>
${errorBox(error)}
<form method="post">
<label for="password">New password</label>
<input id="password" name="password" type="password" autocomplete="new-password" required minlength="${MIN_LENGTH}" maxlength="1024" aria-describedby="password-hint" autofocus>
<p class="hint" id="password-hint">At least ${MIN_LENGTH} characters; a few words make a good one.</p>
<label for="confirm">The same again</label>
<input id="confirm" name="confirm" type="password" autocomplete="new-password" required maxlength="1024">
<div class="actions"><button type="submit">Set the password</button></div>
</form>`,
  );
}

const unusable = () =>
  cardPage(
    'Link not valid',
    html`<h1>This link cannot be used</h1>
<p>It was used already, has expired or is incomplete. Ask your administrator for a new one (<code>showreel admin reset-link</code>).</p>
<p><a href="/app/sign-in">Sign in</a></p>`,
  );

/** GET/POST /app/reset-password/<token>. Returns false for any other path. */
export async function handlePasswordReset(services: Services, req: IncomingMessage, res: ServerResponse, route: string, method: string, csp: string): Promise<boolean> {
  if (!route.startsWith(RESET_LINK_PATH)) return false;
  if (method !== 'GET' && method !== 'POST') return sendError(res, 405, 'Use GET or POST on a reset link.', { Allow: 'GET, POST' }), true;
  const token = route.slice(RESET_LINK_PATH.length);
  const send = (status: number, body: string) => sendPage(res, status, body, csp, NO_REFERRER);
  if (method === 'GET') {
    const link = await findUsableResetLink(services.sql, token);
    return send(link ? 200 : 404, link ? resetPage() : unusable()), true;
  }

  checkSameOrigin(req, services.config.PUBLIC_URL);
  const form = await readForm(req);
  if (!(await findUsableResetLink(services.sql, token))) return send(404, unusable()), true;
  const password = form.get('password') ?? '';
  if (password.length < MIN_LENGTH || password.length > 1024) return send(400, resetPage(`Choose a password of at least ${MIN_LENGTH} characters.`)), true;
  if (form.get('confirm') !== password) return send(400, resetPage('The two passwords differ; type the same one twice.')), true;
  const passwordHash = await hashPassword(password);
  const metadata = { actor: 'reset-link', requestId: null, correlationId: null, causationId: null };
  // Checked again under a row lock: of two posts of one link, one sets the password.
  const used = await inTransaction(services.sql, (tx) => useResetLink(tx, token, passwordHash, metadata));
  if (!used) return send(404, unusable()), true;
  return redirect(res, '/app/sign-in?reset=1'), true;
}
