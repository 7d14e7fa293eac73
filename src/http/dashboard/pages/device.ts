import { findPendingGrant } from '../../../devices/index.js';
import { toErrorResponse } from '../../errors.js';
import { html } from '../../pages/html.js';
import { cardPage, csrfField, errorBox, type Viewer } from '../layout.js';
import type { Route } from '../request.js';
import { sendPage } from '../send.js';

/** /app/device: approve or deny a command-line client's device login (RFC 8628), code prefilled from the link. */

export function devicePage(input: { userCode: string; clientName: string | null; viewer: Viewer; error?: string | null }): string {
  const known = input.clientName !== null;
  return cardPage(
    'Approve a device',
    html`<h1>Approve a device</h1>
${
  known
    ? html`<p><span class="strong">${input.clientName}</span> wants to use Showreel as <span class="strong">${input.viewer.email}</span>. It will get a live API key in your name.</p>`
    : html`<p>Enter the code your command-line client shows.</p>`
}
${errorBox(input.error)}
<form method="post" action="/app/device">
${csrfField(input.viewer)}
<label for="user_code">Code</label>
<input id="user_code" name="user_code" class="code" required maxlength="16" autocomplete="off" autocapitalize="characters" spellcheck="false" value="${input.userCode}" placeholder="XXXX-XXXX">
<div class="actions">
<button type="submit" name="decision" value="approve">Approve</button>
<button type="submit" name="decision" value="deny" class="secondary">Deny</button>
</div>
</form>
<p class="muted">Only approve a code you started yourself, from your own terminal. <a href="/app/">Back to the dashboard</a></p>`,
  );
}

export function deviceDonePage(input: { clientName: string; approved: boolean }): string {
  return cardPage(
    input.approved ? 'Device approved' : 'Device denied',
    input.approved
      ? html`<h1>Device approved</h1><p><span class="strong">${input.clientName}</span> is signed in. You can close this page and return to your terminal.</p><p class="muted"><a href="/app/keys">See its key among your API keys</a></p>`
      : html`<h1>Device denied</h1><p><span class="strong">${input.clientName}</span> was not signed in. You can close this page.</p><p class="muted"><a href="/app/">Back to the dashboard</a></p>`,
  );
}

export const deviceRoutes: Route[] = [
  {
    method: 'GET',
    pattern: /^\/app\/device$/,
    async handle(r) {
      const userCode = (r.url.searchParams.get('user_code') ?? '').slice(0, 16);
      const grant = userCode ? await findPendingGrant(r.services.sql, userCode) : null;
      const error = userCode && !grant ? 'This code is unknown, has expired or was already used. Start the login again in your terminal.' : null;
      r.page(200, devicePage({ userCode, clientName: grant?.clientName ?? null, viewer: r.viewer, error }));
    },
  },
  {
    method: 'POST',
    pattern: /^\/app\/device$/,
    async handle(r) {
      const form = await r.form();
      const userCode = (form.get('user_code') ?? '').slice(0, 16);
      const decision = form.get('decision') === 'deny' ? 'deny' : 'approve';
      try {
        const result = await r.caller.device.authorize({ user_code: userCode, decision });
        r.page(200, deviceDonePage({ clientName: result.client_name, approved: decision === 'approve' }));
      } catch (error) {
        const mapped = toErrorResponse(error);
        if (mapped.status === 429 && !mapped.fault) {
          // Too many wrong codes: the form again, saying when to retry (Retry-After rides along).
          const retryAfter = mapped.headers['Retry-After'];
          const wait = `Too many wrong codes; try again ${retryAfter ? `in ${retryAfter} s` : 'shortly'}.`;
          return sendPage(r.res, 429, devicePage({ userCode, clientName: null, viewer: r.viewer, error: wait }), r.csp, mapped.headers);
        }
        if (mapped.fault || !(mapped.status === 404 || mapped.status === 409 || mapped.status === 400)) throw error;
        const message = mapped.status === 409 ? 'This code was already used.' : 'This code is unknown or has expired. Start the login again in your terminal.';
        r.page(mapped.status, devicePage({ userCode, clientName: null, viewer: r.viewer, error: message }));
      }
    },
  },
];
