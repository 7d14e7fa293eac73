import { html, type SafeHtml } from '../../pages/html.js';
import { appPage, copyField, csrfField, errorBox, formatDate, noticeBox, option, type Viewer } from '../layout.js';
import type { DashboardRequest, Route } from '../request.js';
import { redirect } from '../send.js';
import { toErrorResponse } from '../../errors.js';
import { demoGrid } from './demo-cards.js';
import { webhooksSection } from './webhooks.js';
import { saveAccess, siteAccessSection, type AccessFormState } from './site-access.js';

/**
 * Projects: the list with demo counts and the create form; a project's page with its settings, its deploy webhook
 * (URL and secret) and its signing secret (revealed or rotated on request, by a form post: never in a URL).
 */

const VIEWPORTS = ['desktop', 'tablet', 'mobile'] as const;
const SCHEDULES: readonly [string, string][] = [
  ['manual', 'Manual'], ['daily', 'Daily'], ['weekly', 'Weekly'], ['on-deploy', 'On deploy (webhook)'],
];

interface ProjectFields { name: string; url: string; viewport: string; refresh_schedule: string; recording?: { allow_submit: boolean } }

function projectFields(values: Partial<ProjectFields>): SafeHtml {
  return html`<label for="p-name">Name</label>
<input id="p-name" name="name" required maxlength="100" value="${values.name ?? ''}" placeholder="Marketing site">
<label for="p-url">Page URL</label>
<input id="p-url" name="url" type="url" required maxlength="2048" value="${values.url ?? ''}" placeholder="https://example.com/">
<div class="row">
<div><label for="p-viewport">Viewport</label>
<select id="p-viewport" name="viewport">${VIEWPORTS.map((v) => option(v, v[0]!.toUpperCase() + v.slice(1), v === (values.viewport ?? 'desktop')))}</select></div>
<div><label for="p-schedule">Refresh</label>
<select id="p-schedule" name="refresh_schedule">${SCHEDULES.map(([v, l]) => option(v, l, v === (values.refresh_schedule ?? 'manual')))}</select></div>
</div>
<label class="check"><input type="checkbox" name="allow_submit"${values.recording?.allow_submit ? html` checked` : null}> Let recordings submit forms (for staging sites: a submitted form may change real data)</label>`;
}

export function createProjectForm(viewer: Viewer, values: Partial<ProjectFields> = {}, error?: string | null): SafeHtml {
  return html`<form method="post" action="/app/projects" class="panel">
<h2>New project</h2>
<p class="muted">A project is one site: the page to record, its viewport and how often its demos are re-recorded.</p>
${errorBox(error)}
${csrfField(viewer)}
${projectFields(values)}
<div class="actions"><button type="submit">Create project</button></div>
</form>`;
}

function fieldsOf(form: URLSearchParams): ProjectFields {
  return {
    name: form.get('name') ?? '',
    url: (form.get('url') ?? '').trim(),
    viewport: form.get('viewport') ?? 'desktop',
    refresh_schedule: form.get('refresh_schedule') ?? 'manual',
    recording: { allow_submit: form.get('allow_submit') === 'on' },
  };
}

async function listPage(r: DashboardRequest, status: number, form?: { values: Partial<ProjectFields>; error: string }) {
  const { projects } = await r.caller.projects.list();
  const body = html`<div class="page-head"><h1>Projects</h1></div>
${projects.length === 0 ? html`<p class="panel empty">No projects yet. Create one below: it takes a name and the URL of the page to record.</p>` : html`<div class="table-wrap"><table>
<thead><tr><th>Name</th><th>Page</th><th class="opt">Viewport</th><th class="opt">Refresh</th><th class="num">Demos</th></tr></thead>
<tbody>${projects.map((p) => html`<tr><td><a href="/app/projects/${p.id}">${p.name}</a></td><td class="url">${p.url}</td><td class="opt">${p.viewport}</td><td class="opt">${p.refresh_schedule}</td><td class="num">${p.demo_count}</td></tr>`)}</tbody>
</table></div>`}
${createProjectForm(r.viewer, form?.values, form?.error)}`;
  r.page(status, appPage({ title: 'Projects', viewer: r.viewer, section: 'projects', body }));
}

async function projectPage(r: DashboardRequest, status: number, extra: { signingSecret?: string; rotated?: boolean; error?: string; values?: ProjectFields; access?: AccessFormState } = {}) {
  const project = await r.caller.projects.get({ id: r.params[0]! });
  const publicUrl = r.services.config.PUBLIC_URL;
  const queued = r.url.searchParams.get('queued');
  const notice = queued !== null ? `${queued} demo${queued === '1' ? '' : 's'} queued for re-recording.` : r.url.searchParams.get('saved') ? 'Saved.' : r.url.searchParams.get('created') ? 'Project created. Add its first demo.' : extra.rotated ? 'The signing secret was rotated: URLs signed with the old one no longer work.' : null;
  const base = `/app/projects/${project.id}`;
  const body = html`<div class="page-head"><h1>${project.name}</h1><a class="button" href="/app/demos/new?project_id=${project.id}">New demo</a></div>
${noticeBox(notice)}
<section><h2>Demos</h2>
${project.demos.length === 0 ? html`<p class="panel empty">No demos in this project yet. <a href="/app/demos/new?project_id=${project.id}">Create the first one</a> or <a href="/app/demos/upload?project_id=${project.id}">upload a recording</a>.</p>` : demoGrid(project.demos)}
</section>
<div class="columns">
<form method="post" action="${base}" class="panel">
<h2>Settings</h2>
${errorBox(extra.error)}
${csrfField(r.viewer)}
${projectFields(extra.values ?? project)}
<p class="muted small">Created ${formatDate(project.created_at)} · updated ${formatDate(project.updated_at)}</p>
<div class="actions"><button type="submit">Save changes</button></div>
</form>
<div>
<section class="panel">
<h2>Deploy webhook</h2>
<p class="muted">Call this from your deployment pipeline to re-record the project\u2019s ready demos: <code>POST</code> with the secret in <code>X-Webhook-Secret</code>.</p>
${copyField('webhook-url', 'Webhook URL', `${publicUrl}/api/v1/webhooks/projects/${project.id}/refresh`)}
${project.webhook_secret ? html`<details><summary>Show the webhook secret</summary>${copyField('webhook-secret', 'Webhook secret', project.webhook_secret)}</details>` : null}
<form method="post" action="${base}/refresh" class="actions" data-confirm="Re-record every ready demo of this project now? Each costs a credit.">${csrfField(r.viewer)}<button type="submit" class="secondary">Re-record all ready demos now</button></form>
</section>
<section class="panel">
<h2>Signing secret</h2>
<p class="muted">Your server signs runtime embed URLs with it. Keep it server-side; rotate it if it leaks.</p>
${extra.signingSecret ? copyField('signing-secret', 'Signing secret', extra.signingSecret) : null}
<div class="actions">
<form method="post" action="${base}/signing-secret">${csrfField(r.viewer)}<button type="submit" class="secondary">Reveal</button></form>
<form method="post" action="${base}/signing-secret/rotate" data-confirm="Rotate the signing secret? Embed URLs signed with the current one stop working.">${csrfField(r.viewer)}<button type="submit" class="danger">Rotate</button></form>
</div>
</section>
${siteAccessSection(r.viewer, base, project.access, extra.access)}
</div>
</div>
${await webhooksSection(r, project.id)}`;
  r.page(status, appPage({ title: project.name, viewer: r.viewer, section: 'projects', body }));
}

/** A refused form comes back with what was typed and the API's message; anything else is the generic error page. */
function formError(error: unknown): string {
  const mapped = toErrorResponse(error);
  if (mapped.fault || mapped.status !== 400) throw error;
  return mapped.body.error;
}

export const projectRoutes: Route[] = [
  { method: 'GET', pattern: /^\/app\/projects$/, handle: (r) => listPage(r, 200) },
  {
    method: 'POST',
    pattern: /^\/app\/projects$/,
    async handle(r) {
      const values = fieldsOf(await r.form());
      try {
        const created = await r.caller.projects.create(values as Parameters<typeof r.caller.projects.create>[0]);
        redirect(r.res, `/app/projects/${created.id}?created=1`);
      } catch (error) {
        await listPage(r, 400, { values, error: formError(error) });
      }
    },
  },
  { method: 'GET', pattern: /^\/app\/projects\/([^/]+)$/, handle: (r) => projectPage(r, 200) },
  {
    method: 'POST',
    pattern: /^\/app\/projects\/([^/]+)$/,
    async handle(r) {
      const values = fieldsOf(await r.form());
      try {
        await r.caller.projects.update({ id: r.params[0]!, ...values } as Parameters<typeof r.caller.projects.update>[0]);
        redirect(r.res, `/app/projects/${r.params[0]}?saved=1`);
      } catch (error) {
        await projectPage(r, 400, { values, error: formError(error) });
      }
    },
  },
  {
    method: 'POST',
    pattern: /^\/app\/projects\/([^/]+)\/access$/,
    handle: (r) => saveAccess(r, (status, access) => projectPage(r, status, { access }), formError),
  },
  {
    method: 'POST',
    pattern: /^\/app\/projects\/([^/]+)\/refresh$/,
    async handle(r) {
      await r.form();
      const { queued } = await r.caller.projectRefresh.refreshProject({ id: r.params[0]! });
      redirect(r.res, `/app/projects/${r.params[0]}?queued=${queued}`);
    },
  },
  {
    method: 'POST',
    pattern: /^\/app\/projects\/([^/]+)\/signing-secret$/,
    async handle(r) {
      await r.form();
      const { signing_secret } = await r.caller.projects.signingSecret({ id: r.params[0]! });
      await projectPage(r, 200, { signingSecret: signing_secret });
    },
  },
  {
    method: 'POST',
    pattern: /^\/app\/projects\/([^/]+)\/signing-secret\/rotate$/,
    async handle(r) {
      await r.form();
      const { signing_secret } = await r.caller.projects.rotateSigningSecret({ id: r.params[0]! });
      await projectPage(r, 200, { signingSecret: signing_secret, rotated: true });
    },
  },
];
