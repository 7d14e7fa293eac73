import { html, type SafeHtml } from '../pages/html.js';
import { htmlDocument } from '../pages/layout.js';

/**
 * The dashboard's pages: server-rendered forms, no script. Everything a person typed (an email, a client name, a
 * code) goes through the escaping `html` tag.
 */

const FONT = `system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif`;

const DASHBOARD_CSS = `
:root{color-scheme:dark}
*{box-sizing:border-box}
html,body{margin:0}
body{min-height:100vh;display:flex;align-items:center;justify-content:center;background:#0b0c10;color:#e8e9ed;font:16px/1.5 ${FONT};-webkit-font-smoothing:antialiased;padding:16px}
main{width:100%;max-width:420px;background:#13151b;border-radius:14px;padding:32px;box-shadow:0 24px 64px rgba(0,0,0,.5),0 0 0 1px rgba(255,255,255,.06)}
h1{margin:0 0 8px;font-size:1.4rem;font-weight:650;letter-spacing:-.01em}
p{margin:0 0 16px;color:#a3a7b3;overflow-wrap:anywhere}
label{display:block;margin:16px 0 6px;font-weight:600;font-size:.9rem}
input{width:100%;padding:10px 12px;border-radius:8px;border:1px solid #2c2f3a;background:#0b0c10;color:#e8e9ed;font:inherit}
input:focus{outline:2px solid #6c7cff;outline-offset:1px}
.code{font:600 1.6rem/1.2 ui-monospace,SFMono-Regular,Menlo,monospace;letter-spacing:.12em;text-align:center;text-transform:uppercase}
.actions{display:flex;gap:12px;margin-top:24px}
button{flex:1;padding:11px 14px;border-radius:8px;border:0;font:600 1rem ${FONT};cursor:pointer;background:#6c7cff;color:#fff}
button.secondary{background:#262935;color:#e8e9ed}
button:focus-visible{outline:2px solid #fff;outline-offset:2px}
.error{background:#3a1519;color:#ffb3bb;border-radius:8px;padding:10px 12px;margin:0 0 16px}
.client{color:#e8e9ed;font-weight:600}
.muted{color:#6b6f7b;font-size:.85rem;margin-top:20px}
a{color:#a9b3ff}
@media (max-width:480px){body{padding:10px}main{padding:24px 20px}}`;

function page(title: string, body: SafeHtml): string {
  return htmlDocument({ title: `${title} · Showreel`, css: DASHBOARD_CSS, head: html`<meta name="robots" content="noindex">`, body: html`<main>${body}</main>` });
}

const errorBox = (error: string | null) => (error ? html`<p class="error" role="alert">${error}</p>` : null);

export function signInPage(input: { next: string; email?: string; error?: string | null }): string {
  return page(
    'Sign in',
    html`<h1>Sign in to Showreel</h1>
<p>Use the email and password of your account.</p>
${errorBox(input.error ?? null)}
<form method="post" action="/app/sign-in">
<input type="hidden" name="next" value="${input.next}">
<label for="email">Email</label>
<input id="email" name="email" type="email" autocomplete="username" required value="${input.email ?? ''}" autofocus>
<label for="password">Password</label>
<input id="password" name="password" type="password" autocomplete="current-password" required>
<div class="actions"><button type="submit">Sign in</button></div>
</form>`,
  );
}

export function homePage(input: { email: string; csrf: string }): string {
  return page(
    'Dashboard',
    html`<h1>Signed in</h1>
<p>You are signed in as <span class="client">${input.email}</span>.</p>
<p>To sign in a command-line client, run <code>showreel login</code> and approve its code at <a href="/app/device">/app/device</a>.</p>
<form method="post" action="/app/sign-out">
<input type="hidden" name="csrf" value="${input.csrf}">
<div class="actions"><button type="submit" class="secondary">Sign out</button></div>
</form>`,
  );
}

export function devicePage(input: { userCode: string; clientName: string | null; csrf: string; email: string; error?: string | null }): string {
  const known = input.clientName !== null;
  return page(
    'Approve a device',
    html`<h1>Approve a device</h1>
${
  known
    ? html`<p><span class="client">${input.clientName}</span> wants to use Showreel as <span class="client">${input.email}</span>. It will get a live API key in your name.</p>`
    : html`<p>Enter the code your command-line client shows.</p>`
}
${errorBox(input.error ?? null)}
<form method="post" action="/app/device">
<input type="hidden" name="csrf" value="${input.csrf}">
<label for="user_code">Code</label>
<input id="user_code" name="user_code" class="code" required maxlength="16" autocomplete="off" autocapitalize="characters" spellcheck="false" value="${input.userCode}" placeholder="XXXX-XXXX">
<div class="actions">
<button type="submit" name="decision" value="approve">Approve</button>
<button type="submit" name="decision" value="deny" class="secondary">Deny</button>
</div>
</form>
<p class="muted">Only approve a code you started yourself, from your own terminal.</p>`,
  );
}

export function deviceDonePage(input: { clientName: string; approved: boolean }): string {
  return page(
    input.approved ? 'Device approved' : 'Device denied',
    input.approved
      ? html`<h1>Device approved</h1><p><span class="client">${input.clientName}</span> is signed in. You can close this page and return to your terminal.</p>`
      : html`<h1>Device denied</h1><p><span class="client">${input.clientName}</span> was not signed in. You can close this page.</p>`,
  );
}
