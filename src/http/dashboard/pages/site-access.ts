import { html, type SafeHtml } from '../../pages/html.js';
import { csrfField, errorBox, type Viewer } from '../layout.js';
import type { DashboardRequest } from '../request.js';
import { redirect } from '../send.js';

/**
 * Issue 56: a project's "Signing in to your app" panel: a sign-in recipe (its password field write-only: it says
 * "set" and is left empty to keep it), or exported cookies (never shown again), or neither. Each form posts to
 * /app/projects/:id/access with the CSRF field, like every dashboard form; nothing secret is ever written back into
 * the page, not even after a refused form.
 */

interface AccessView {
  kind: 'none' | 'cookies' | 'sign_in';
  sign_in_url?: string;
  username?: string;
  cookie_count?: number;
}

export interface AccessFormState {
  error?: string;
  /** what was typed into the sign-in form, less its password, when it was refused */
  values?: { url: string; username: string };
}

function currentLine(access: AccessView): SafeHtml {
  if (access.kind === 'sign_in') return html`<p data-access="sign_in">Signs in at <code>${access.sign_in_url ?? ''}</code> as <strong>${access.username ?? ''}</strong> (password set) before each recording.</p>`;
  if (access.kind === 'cookies') return html`<p data-access="cookies">Uses ${access.cookie_count ?? 0} cookie${access.cookie_count === 1 ? '' : 's'} before each recording.</p>`;
  return html`<p class="muted" data-access="none">None: the recorder opens the page as a visitor would.</p>`;
}

export function siteAccessSection(viewer: Viewer, base: string, access: AccessView, state: AccessFormState = {}): SafeHtml {
  const signIn = access.kind === 'sign_in';
  const url = state.values?.url ?? access.sign_in_url ?? '';
  const username = state.values?.username ?? access.username ?? '';
  return html`<section class="panel" id="access">
<h2>Signing in to your app</h2>
<p class="muted">For a page behind a sign-in. Stored encrypted and never shown again; the sign-in is not part of the video.</p>
${errorBox(state.error)}
${currentLine(access)}
<details${signIn || state.values ? html` open` : null}><summary>Sign in with a user name and password</summary>
<form method="post" action="${base}/access">
${csrfField(viewer)}<input type="hidden" name="kind" value="sign_in">
<label for="a-url">Sign-in page URL</label>
<input id="a-url" name="sign_in_url" type="url" required maxlength="2048" value="${url}" placeholder="https://app.example.com/login">
<label for="a-user">User name or email</label>
<input id="a-user" name="username" required maxlength="320" autocomplete="off" value="${username}">
<label for="a-password">Password</label>
<input id="a-password" name="password" type="password" maxlength="1024" autocomplete="new-password"${signIn ? html` placeholder="set (leave empty to keep it)"` : html` required`}>
<details><summary>Fields the page does not name (CSS selectors, optional)</summary>
<label for="a-us">User name field</label><input id="a-us" name="username_selector" maxlength="500" placeholder="#email">
<label for="a-ps">Password field</label><input id="a-ps" name="password_selector" maxlength="500" placeholder="#password">
<label for="a-ss">Submit button</label><input id="a-ss" name="submit_selector" maxlength="500" placeholder="button[type=submit]">
</details>
<div class="actions"><button type="submit">Save sign-in</button></div>
</form></details>
<details${access.kind === 'cookies' ? html` open` : null}><summary>Sign in with cookies</summary>
<form method="post" action="${base}/access">
${csrfField(viewer)}<input type="hidden" name="kind" value="cookies">
<label for="a-cookies">Cookies (JSON, as a browser extension or DevTools exports them)</label>
<textarea id="a-cookies" name="cookies" rows="4" required spellcheck="false" placeholder='[{"name": "session", "value": "…", "domain": "app.example.com"}]'></textarea>
<div class="actions"><button type="submit">Save cookies</button></div>
</form></details>
${access.kind === 'none' ? null : html`<form method="post" action="${base}/access" class="actions" data-confirm="Remove the sign-in? Recordings will open the page as a visitor.">${csrfField(viewer)}<input type="hidden" name="kind" value="none"><button type="submit" class="danger">Remove sign-in</button></form>`}
</section>`;
}

/** The API's `access` for a posted form; a form that cannot be one says so as an Error with a sentence. */
export function accessInputOf(form: URLSearchParams): unknown {
  const kind = form.get('kind');
  if (kind === 'none') return null;
  if (kind === 'cookies') {
    try {
      return { cookies: JSON.parse(form.get('cookies') ?? '') };
    } catch {
      throw new AccessFormError('The cookies are not JSON: paste the list your browser extension or DevTools exported.');
    }
  }
  const optional = (name: string) => (form.get(name)?.trim() ? { [name]: form.get(name)!.trim() } : {});
  return {
    sign_in: {
      url: (form.get('sign_in_url') ?? '').trim(),
      username: form.get('username') ?? '',
      // Empty: keep the stored password.
      ...(form.get('password') ? { password: form.get('password') } : {}),
      ...optional('username_selector'),
      ...optional('password_selector'),
      ...optional('submit_selector'),
    },
  };
}

export class AccessFormError extends Error {}

/** Saves the posted access; a refusal comes back on the project's page, with what was typed less any secret. */
export async function saveAccess(r: DashboardRequest, showAgain: (status: number, state: AccessFormState) => Promise<void>, explain: (error: unknown) => string): Promise<void> {
  const form = await r.form();
  const values = form.get('kind') === 'sign_in' ? { url: form.get('sign_in_url') ?? '', username: form.get('username') ?? '' } : undefined;
  try {
    const access = accessInputOf(form);
    await r.caller.projects.update({ id: r.params[0]!, access } as Parameters<typeof r.caller.projects.update>[0]);
    redirect(r.res, `/app/projects/${r.params[0]}?saved=1#access`);
  } catch (error) {
    await showAgain(400, { error: error instanceof AccessFormError ? error.message : explain(error), ...(values ? { values } : {}) });
  }
}
