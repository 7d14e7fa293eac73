import { webhookEventTypes } from '../../../webhooks/index.js';
import { toErrorResponse } from '../../errors.js';
import { html, type SafeHtml } from '../../pages/html.js';
import { appPage, copyField, csrfField, errorBox, formatDate, noticeBox } from '../layout.js';
import { leaveFlash, takeFlash } from '../one-time-flash.js';
import type { DashboardRequest, Route } from '../request.js';
import { redirect } from '../send.js';

/**
 * A project's outbound webhooks (issue 37), as a section of the project page: the endpoints with their events, the
 * add form, rotate and delete; each endpoint's delivery log on a page of its own. A new or rotated signing secret is
 * shown once, on the page the post redirects to (one-time-flash.ts, as a new API key is), never in a URL.
 */
const NEW_SECRET = 'new-webhook-secret';

const EVENT_LABELS: Record<(typeof webhookEventTypes)[number], string> = {
  'demo.ready': 'Ready: a demo was recorded (new, refreshed or restyled)',
  'demo.failed': 'Failed: a recording failed for good',
  'demo.changed': 'Changed: a refresh found the page changed (with what changed)',
  'demo.unchanged': 'Unchanged: a refresh found nothing to re-record',
};

interface Shown { secret: string; url: string; rotated: boolean }
interface FormValues { url: string; events: string[] }

function addForm(r: DashboardRequest, projectId: string, values: FormValues | null, error?: string): SafeHtml {
  const checked = new Set(values?.events ?? ['demo.ready', 'demo.failed']);
  return html`<form method="post" action="/app/projects/${projectId}/webhooks" class="panel">
<h3>Add an endpoint</h3>
${errorBox(error)}
${csrfField(r.viewer)}
<label for="wh-url">Endpoint URL</label>
<input id="wh-url" name="url" type="url" required maxlength="2048" value="${values?.url ?? ''}" placeholder="https://example.com/hooks/showreel">
<fieldset><legend>Events</legend>
${webhookEventTypes.map((type) => html`<label class="check"><input type="checkbox" name="events" value="${type}"${checked.has(type) ? html` checked` : null}> ${EVENT_LABELS[type]}</label>`)}
</fieldset>
<div class="actions"><button type="submit">Add endpoint</button></div>
</form>`;
}

/** The section of the project page; takes the secret left to be shown once. */
export async function webhooksSection(r: DashboardRequest, projectId: string): Promise<SafeHtml> {
  const { webhooks } = await r.caller.webhooks.list({ id: projectId });
  const shown = r.url.searchParams.get('webhook') ? takeFlash<Shown>(r.sessionToken, NEW_SECRET) : null;
  const done = r.url.searchParams.get('webhook');
  const notice = done === 'deleted' ? 'The endpoint was deleted with its delivery log.' : (done === 'created' || done === 'rotated') && !shown ? 'The signing secret was shown once and is not shown again; rotate it to get a new one.' : null;
  const base = `/app/projects/${projectId}/webhooks`;
  return html`<section class="panel" id="webhooks">
<h2>Outbound webhooks</h2>
<p class="muted">Showreel calls these endpoints when this project’s demos are ready, fail or change: a signed JSON <code>POST</code> (verify the <code>Showreel-Signature</code> header), retried for a day until it gets a 2xx.</p>
${noticeBox(notice)}
${shown ? html`<div class="new-key" role="status"><p>${shown.rotated ? 'The new signing secret' : 'The signing secret'} of ${shown.url}. Copy it now: it is shown only once.</p>${copyField('webhook-signing-secret', 'Signing secret', shown.secret)}</div>` : null}
${webhooks.length === 0 ? html`<p class="empty">No endpoints yet.</p>` : html`<div class="table-wrap"><table>
<thead><tr><th>Endpoint</th><th class="opt">Events</th><th class="opt">Added</th><th></th></tr></thead>
<tbody>${webhooks.map((w) => html`<tr><td class="url"><a href="${base}/${w.id}">${w.url}</a></td><td class="opt">${w.events.join(', ')}</td><td class="opt">${formatDate(w.created_at)}</td>
<td><a class="button secondary small" href="${base}/${w.id}">Delivery log</a>
<form method="post" action="${base}/${w.id}/rotate" data-confirm="Rotate this endpoint’s signing secret? Your receiver must use the new one from now on.">${csrfField(r.viewer)}<button type="submit" class="secondary small">Rotate secret</button></form>
<form method="post" action="${base}/${w.id}/delete" data-confirm="Delete this endpoint? It receives nothing more, and its delivery log goes with it.">${csrfField(r.viewer)}<button type="submit" class="danger small">Delete</button></form></td></tr>`)}</tbody>
</table></div>`}
${addForm(r, projectId, null)}
</section>`;
}

async function deliveryLogPage(r: DashboardRequest) {
  const [projectId, webhookId] = [r.params[0]!, r.params[1]!];
  const project = await r.caller.projects.get({ id: projectId });
  const webhook = (await r.caller.webhooks.list({ id: projectId })).webhooks.find((w) => w.id === webhookId);
  const { deliveries } = await r.caller.webhooks.deliveries({ id: projectId, webhookId, limit: 100 });
  const body = html`<div class="page-head"><h1>Delivery log</h1><a class="button secondary" href="/app/projects/${projectId}#webhooks">Back to ${project.name}</a></div>
<p class="url">${webhook?.url ?? ''}</p>
${deliveries.length === 0 ? html`<p class="panel empty">Nothing sent to this endpoint yet.</p>` : html`<div class="table-wrap"><table>
<thead><tr><th>Sent</th><th>Event</th><th>Status</th><th class="num">Attempts</th><th class="opt">Last answer</th><th class="opt">Next attempt</th></tr></thead>
<tbody>${deliveries.map((d) => html`<tr><td>${formatDate(d.created_at)}</td><td><code>${d.event_type}</code><br><span class="muted small">${d.event_id}</span></td>
<td>${d.status}${d.error ? html`<br><span class="small warning-text">${d.error}</span>` : null}</td><td class="num">${d.attempts}</td>
<td class="opt">${d.response_status ?? '–'}${d.response_excerpt ? html`<details><summary>Answer</summary><pre>${d.response_excerpt}</pre></details>` : null}</td>
<td class="opt">${formatDate(d.next_attempt_at)}</td></tr>`)}</tbody>
</table></div>`}`;
  r.page(200, appPage({ title: 'Delivery log', viewer: r.viewer, section: 'projects', body }));
}

export const webhookRoutes: Route[] = [
  { method: 'GET', pattern: /^\/app\/projects\/([^/]+)\/webhooks\/([^/]+)$/, handle: deliveryLogPage },
  {
    method: 'POST',
    pattern: /^\/app\/projects\/([^/]+)\/webhooks$/,
    async handle(r) {
      const form = await r.form();
      const projectId = r.params[0]!;
      const values = { url: (form.get('url') ?? '').trim(), events: form.getAll('events') };
      try {
        const created = await r.caller.webhooks.create({ id: projectId, url: values.url, events: values.events as typeof webhookEventTypes[number][] });
        leaveFlash(r.sessionToken, NEW_SECRET, { secret: created.secret, url: created.url, rotated: false } satisfies Shown);
        redirect(r.res, `/app/projects/${projectId}?webhook=created#webhooks`);
      } catch (error) {
        const mapped = toErrorResponse(error);
        if (mapped.fault || (mapped.status !== 400 && mapped.status !== 409)) throw error;
        // What was typed comes back with the reason, on a page of its own (the project page is long).
        const body = html`<div class="page-head"><h1>Add a webhook endpoint</h1><a class="button secondary" href="/app/projects/${projectId}#webhooks">Back to the project</a></div>
${addForm(r, projectId, values, mapped.body.error)}`;
        r.page(mapped.status, appPage({ title: 'Add a webhook endpoint', viewer: r.viewer, section: 'projects', body }));
      }
    },
  },
  {
    method: 'POST',
    pattern: /^\/app\/projects\/([^/]+)\/webhooks\/([^/]+)\/rotate$/,
    async handle(r) {
      await r.form();
      const [projectId, webhookId] = [r.params[0]!, r.params[1]!];
      const { secret } = await r.caller.webhooks.rotateSecret({ id: projectId, webhookId });
      const webhook = (await r.caller.webhooks.list({ id: projectId })).webhooks.find((w) => w.id === webhookId);
      leaveFlash(r.sessionToken, NEW_SECRET, { secret, url: webhook?.url ?? '', rotated: true } satisfies Shown);
      redirect(r.res, `/app/projects/${projectId}?webhook=rotated#webhooks`);
    },
  },
  {
    method: 'POST',
    pattern: /^\/app\/projects\/([^/]+)\/webhooks\/([^/]+)\/delete$/,
    async handle(r) {
      await r.form();
      await r.caller.webhooks.delete({ id: r.params[0]!, webhookId: r.params[1]! });
      redirect(r.res, `/app/projects/${r.params[0]}?webhook=deleted#webhooks`);
    },
  },
];
