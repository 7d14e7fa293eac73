import { toErrorResponse } from '../../errors.js';
import { html, type SafeHtml } from '../../pages/html.js';
import { appPage, copyField, csrfField, errorBox, formatDate, noticeBox, option } from '../layout.js';
import type { DashboardRequest, Route } from '../request.js';
import { redirect } from '../send.js';
import { leaveFlash, takeFlash } from '../one-time-flash.js';

const NEW_KEY = 'new-key';

/**
 * API keys: the list (prefixes only, never a secret), the create form, revoke. A new key's secret is shown once,
 * with a Copy button, on the page the create post redirects to (303, then GET /app/keys?created=1, no-store): the
 * secret waits for that one view in memory, keyed to the session (one-time-flash.ts), so a reload shows it no more
 * and makes no second key. It is never in a URL or shown again.
 */

interface Created { key: string; name: string; type: string; allowed_domains: string[] | null }

/**
 * A publishable key is written into web pages, where anyone can read it (issue 57: it was told "Store it like a
 * password"); what bounds it is its project's site, its domains and its daily cap, not secrecy. Issue 57: a key
 * without domains starts new demos too (for its project's own site), and the page says what it may do.
 */
function publishableNote(domains: string[] | null): string {
  const where = domains?.length
    ? 'it only works from its allowed domains'
    : 'with no allowed domains it works from any page, and starts new demos only for pages of your project’s own site';
  return `Copy it now: it is shown only once. It goes into your web pages’ code, where visitors can see it, so it is not a secret: ${where}, within a daily cap.`;
}

async function keysPage(r: DashboardRequest, status: number, extra: { created?: Created; error?: string } = {}) {
  const [{ keys }, { projects }] = await Promise.all([r.caller.apiKeys.list(), r.caller.projects.list()]);
  const names = new Map(projects.map((p) => [p.id, p.name]));
  const created: SafeHtml | null = extra.created
    ? html`<section class="panel new-key" role="status">
<h2>Your new ${extra.created.type} key “${extra.created.name}”</h2>
<p>${extra.created.type === 'publishable' ? publishableNote(extra.created.allowed_domains) : 'Copy it now: it is shown only once. Store it like a password.'}</p>
${copyField('new-key', 'Key', extra.created.key)}
</section>`
    : null;
  const notice = r.url.searchParams.get('revoked')
    ? 'The key was revoked: it stopped working at once.'
    : r.url.searchParams.get('created') && !extra.created
      ? 'The new key was shown once and is not shown again. If you did not copy it, revoke it below and create another.'
      : null;
  const body = html`<h1>API keys</h1>
${noticeBox(notice)}
${created}
${keys.length === 0 ? html`<p class="panel empty">No API keys yet. Create a live key for your server or scripts, or a publishable key for embeds on your site.</p>` : html`<div class="table-wrap"><table>
<thead><tr><th>Name</th><th>Key</th><th class="opt">Type</th><th class="opt">Scope</th><th class="opt">Last used</th><th class="opt">Created</th><th></th></tr></thead>
<tbody>${keys.map((k) => html`<tr><td>${k.name}</td><td><code>${k.key_prefix}…</code></td><td class="opt">${k.type}</td><td class="opt">${k.project_id ? (names.get(k.project_id) ?? 'one project') : 'whole account'}${k.allowed_domains ? html`<br><span class="muted small">${(JSON.parse(k.allowed_domains) as string[]).join(', ')}</span>` : k.type === 'publishable' ? html`<br><span class="muted small">any page; new demos of the project’s site only</span>` : null}</td><td class="opt">${formatDate(k.last_used_at)}</td><td class="opt">${formatDate(k.created_at)}</td>
<td><form method="post" action="/app/keys/${k.id}/revoke" data-confirm="Revoke this key? Anything using it stops working at once.">${csrfField(r.viewer)}<button type="submit" class="danger small">Revoke</button></form></td></tr>`)}</tbody>
</table></div>`}
<form method="post" action="/app/keys" class="panel narrow">
<h2>Create a key</h2>
${errorBox(extra.error)}
${csrfField(r.viewer)}
<label for="k-name">Name</label>
<input id="k-name" name="name" maxlength="100" placeholder="CI pipeline">
<div class="row">
<div><label for="k-type">Type</label><select id="k-type" name="type">${option('live', 'Live: full access, for servers', true)}${option('publishable', 'Publishable: embeds only, for web pages', false)}</select></div>
<div><label for="k-project">Scope</label><select id="k-project" name="project_id">${option('', 'Whole account', true)}${projects.map((p) => option(p.id, p.name, false))}</select></div>
</div>
<div data-publishable-only>
<label for="k-domains">Allowed domains (one a line or comma separated)</label>
<textarea id="k-domains" name="allowed_domains" rows="2" placeholder="example.com" aria-describedby="k-domains-hint"></textarea>
<p class="hint" id="k-domains-hint">A publishable key starts new demos (paid from your credits) only for pages of its project’s own site, up to a daily cap. Domains narrow that further and refuse requests from other sites’ pages; left empty, the key works from any page.</p>
</div>
<div class="actions"><button type="submit">Create key</button></div>
</form>`;
  r.page(status, appPage({ title: 'API keys', viewer: r.viewer, section: 'keys', body }));
}

export const keyRoutes: Route[] = [
  {
    method: 'GET',
    pattern: /^\/app\/keys$/,
    handle: (r) => {
      const created = r.url.searchParams.get('created') ? takeFlash<Created>(r.sessionToken, NEW_KEY) : null;
      return keysPage(r, 200, created ? { created } : {});
    },
  },
  {
    method: 'POST',
    pattern: /^\/app\/keys$/,
    async handle(r) {
      const form = await r.form();
      const domains = (form.get('allowed_domains') ?? '').split(/[\s,]+/).filter(Boolean);
      try {
        const type = form.get('type') === 'publishable' ? 'publishable' : 'live';
        const created = await r.caller.apiKeys.create({
          name: form.get('name')?.trim() || undefined,
          type,
          project_id: form.get('project_id') || undefined,
          // Domains typed before switching to a live key are not the live key's: its field was hidden.
          allowed_domains: type === 'publishable' && domains.length > 0 ? domains : undefined,
        });
        leaveFlash(r.sessionToken, NEW_KEY, { key: created.key, name: created.name, type: created.type, allowed_domains: created.allowed_domains });
        redirect(r.res, '/app/keys?created=1');
      } catch (error) {
        const mapped = toErrorResponse(error);
        if (mapped.fault || mapped.status !== 400) throw error;
        await keysPage(r, 400, { error: mapped.body.error });
      }
    },
  },
  {
    method: 'POST',
    pattern: /^\/app\/keys\/([^/]+)\/revoke$/,
    async handle(r) {
      await r.form();
      await r.caller.apiKeys.revoke({ id: r.params[0]! });
      redirect(r.res, '/app/keys?revoked=1');
    },
  },
];
