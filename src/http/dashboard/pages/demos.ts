import { viewsPerDemo } from '../../../analytics/index.js';
import { html, type SafeHtml } from '../../pages/html.js';
import { toErrorResponse } from '../../errors.js';
import { appPage, csrfField, errorBox, option, type Viewer } from '../layout.js';
import type { DashboardRequest, Route } from '../request.js';
import { redirect } from '../send.js';
import { demoGrid } from './demo-cards.js';
import { createProjectForm } from './projects.js';
import { PLANNING_HINT, TOUR_STYLES } from './tour-styles.js';
import { type DurationTarget, priceOf } from '../../../credits/index.js';
import type { AspectRatio } from '../../../demos/index.js';
import { aspectChoices, aspectsFromForm } from './aspect-fields.js';

/**
 * The dashboard's home: every demo as a grid of thumbnails with its status, or, for a new account, the first steps.
 * The create form posts to the API's demo create; the demo's page then follows the progress live.
 */


interface DemoFields { project_id: string; prompt: string; format: string; resolution: string; duration_target: string; mode: string; template: string; aspect?: AspectRatio[] | undefined }

const LENGTHS: DurationTarget[] = ['5s', '10s', '30s'];
const credits = (n: number) => `${n} credit${n === 1 ? '' : 's'}`;

function createDemoForm(viewer: Viewer, projects: { id: string; name: string }[], values: Partial<DemoFields>, balance: number, error?: string | null): SafeHtml {
  const cost = priceOf((LENGTHS as string[]).includes(values.duration_target ?? '') ? (values.duration_target as DurationTarget) : '10s');
  // Issue 57: one column the page's width (it was half of it, beside a far-right upload link), the long "Style of
  // tour" choices on a line of their own (they were cut off in a half-width cell), the help apart from the cost.
  return html`<form method="post" action="/app/demos" class="panel new-demo">
${errorBox(error)}
${csrfField(viewer)}
<label for="d-project">Project</label>
<select id="d-project" name="project_id" required>${projects.map((p) => option(p.id, p.name, p.id === values.project_id))}</select>
<label for="d-prompt">What should the demo show?</label>
<textarea id="d-prompt" name="prompt" required maxlength="500" rows="3" placeholder="Show how to start a free trial, then the pricing">${values.prompt ?? ''}</textarea>
<label for="d-template">Style of tour</label>
<select id="d-template" name="template">${TOUR_STYLES.map((t) => option(t.id, t.label, t.id === (values.template ?? 'auto')))}</select>
<div class="row">
<div><label for="d-duration">Length</label><select id="d-duration" name="duration_target">${LENGTHS.map((v) => option(v, `${v.replace('s', ' s')} · ${credits(priceOf(v))}`, v === (values.duration_target ?? '10s')))}</select></div>
<div><label for="d-format">Format</label><select id="d-format" name="format">${['mp4', 'webm'].map((v) => option(v, v.toUpperCase(), v === (values.format ?? 'mp4')))}</select></div>
<div><label for="d-resolution">Resolution</label><select id="d-resolution" name="resolution">${['1080p', '720p'].map((v) => option(v, v, v === (values.resolution ?? '1080p')))}</select></div>
<div><label for="d-mode">Planning</label><select id="d-mode" name="mode" aria-describedby="d-mode-hint">${[['script', 'Scripted'], ['agent', 'Agent']].map(([v, l]) => option(v!, l, v === (values.mode ?? 'script')))}</select></div>
</div>
<p class="hint" id="d-mode-hint">${PLANNING_HINT}</p>
${aspectChoices(values.aspect ?? [])}
<p class="cost" data-cost>This demo costs ${credits(cost)} (1 credit for each 10 s started). Your balance: <strong data-balance>${credits(balance)}</strong>${balance < cost ? html` · <a href="/app/credits">buy credits</a>` : null}.</p>
<p class="muted small">Recording takes a minute or two; you can leave the page and come back.</p>
<div class="actions"><button type="submit">Create demo</button></div>
</form>`;
}

async function newDemoPage(r: DashboardRequest, status: number, values: Partial<DemoFields>, error?: string) {
  const [{ projects }, { balance }] = await Promise.all([r.caller.projects.list(), r.caller.credits.get()]);
  const body =
    projects.length === 0
      ? html`<h1>New demo</h1><p class="panel empty">A demo records a page of one of your projects. Create a project first.</p>${createProjectForm(r.viewer)}`
      : html`<h1>New demo</h1>
<p class="muted">Describe what a visitor should see, and Showreel opens the page and records it. Have a video of it already? <a href="/app/demos/upload${values.project_id ? `?project_id=${values.project_id}` : ''}" data-upload-instead>Upload a recording instead</a>.</p>
${createDemoForm(r.viewer, projects, values, balance, error)}`;
  r.page(status, appPage({ title: 'New demo', viewer: r.viewer, section: 'demos', body }));
}

export const demosRoutes: Route[] = [
  {
    method: 'GET',
    pattern: /^\/app\/$/,
    async handle(r) {
      const [{ projects }, { demos }] = await Promise.all([r.caller.projects.list(), r.caller.demos.list({})]);
      const names = new Map(projects.map((p) => [p.id, p.name]));
      // Views per demo (issue 38), for the demos just listed as the owner's.
      const views = await viewsPerDemo(r.services.sql, demos.map((d) => d.id));
      let body: SafeHtml;
      if (projects.length === 0) {
        body = html`<section class="welcome">
<h1>Welcome to Showreel</h1>
<p>Three steps to your first demo video:</p>
<ol class="steps"><li><strong>Create a project</strong> with the URL of the page to show.</li><li><strong>Describe the demo</strong> in a sentence: what a visitor should see.</li><li><strong>Share or embed it</strong> once it is recorded.</li></ol>
</section>
${createProjectForm(r.viewer)}`;
      } else {
        body = html`${r.url.searchParams.get('deleted') ? html`<p class="notice" role="status">The demo was deleted.</p>` : null}<div class="page-head"><h1>Demos</h1><div class="actions inline"><a class="button secondary" href="/app/demos/upload">Upload</a><a class="button" href="/app/demos/new">New demo</a></div></div>
${demos.length === 0 ? html`<p class="panel empty">No demos yet. <a href="/app/demos/new">Create your first demo</a>: describe what a visitor should see, and Showreel records it.</p>` : demoGrid(demos.map((d) => ({ ...d, project_name: names.get(d.project_id), views: views.get(d.id) ?? 0 })))}`;
      }
      r.page(200, appPage({ title: 'Demos', viewer: r.viewer, section: 'demos', body }));
    },
  },
  { method: 'GET', pattern: /^\/app\/demos\/new$/, handle: (r) => newDemoPage(r, 200, { project_id: r.url.searchParams.get('project_id') ?? undefined }) },
  {
    method: 'POST',
    pattern: /^\/app\/demos$/,
    async handle(r) {
      const form = await r.form();
      const values: DemoFields = {
        project_id: form.get('project_id') ?? '', prompt: form.get('prompt') ?? '', format: form.get('format') ?? 'mp4', resolution: form.get('resolution') ?? '1080p',
        duration_target: form.get('duration_target') ?? '10s', mode: form.get('mode') ?? 'script', template: form.get('template') ?? 'auto',
        aspect: aspectsFromForm(form),
      };
      const presentation = {
        ...(values.template === 'auto' ? {} : { recordingTemplate: { id: values.template } }),
        ...(values.aspect ? { aspect: values.aspect } : {}),
      };
      try {
        const created = await r.caller.demos.create({
          project_id: values.project_id, prompt: values.prompt, format: values.format, resolution: values.resolution,
          duration_target: values.duration_target, mode: values.mode,
          presentation: Object.keys(presentation).length > 0 ? presentation : undefined,
        } as Parameters<typeof r.caller.demos.create>[0]);
        redirect(r.res, `/app/demos/${created.id}`);
      } catch (error) {
        const mapped = toErrorResponse(error);
        if (mapped.fault || ![400, 402, 403, 429].includes(mapped.status)) throw error;
        const hint = mapped.status === 402 || /credit/i.test(mapped.body.error) ? ' Buy credits on the Credits page, then try again.' : '';
        await newDemoPage(r, mapped.status, values, mapped.body.error + hint);
      }
    },
  },
];
