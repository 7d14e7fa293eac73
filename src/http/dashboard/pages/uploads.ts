import { ForbiddenError } from '../../../platform/errors.js';
import { constantTimeEqual } from '../../../platform/secrets.js';
import { html } from '../../pages/html.js';
import { handleBackgroundUpload } from '../../uploads/background-upload.js';
import { handleLocalUpload } from '../../uploads/local-upload.js';
import { checkSameOrigin, csrfTokenFor } from '../forms.js';
import { appPage, csrfField, option } from '../layout.js';
import type { DashboardRequest, Route } from '../request.js';

/**
 * Uploads from the dashboard: a local recording (published as a ready demo) and a presentation background. The
 * bodies are binary, so the script sends them with fetch, the CSRF token in `X-CSRF-Token`; the handlers are the
 * API's own (same checks, limits and answers), reached only after the token and the Origin are checked.
 */

function checkUploadCsrf(r: DashboardRequest): void {
  checkSameOrigin(r.req, r.services.config.PUBLIC_URL);
  const sent = r.req.headers['x-csrf-token'];
  if (typeof sent !== 'string' || !constantTimeEqual(sent, csrfTokenFor(r.sessionToken))) {
    throw new ForbiddenError('This form has expired; reload the page and try again.');
  }
}

export const uploadRoutes: Route[] = [
  {
    method: 'GET',
    pattern: /^\/app\/demos\/upload$/,
    async handle(r) {
      const { projects } = await r.caller.projects.list();
      const chosen = r.url.searchParams.get('project_id');
      const maxMb = Math.floor(r.services.config.SHOWREEL_MAX_UPLOAD_BYTES / 1024 / 1024);
      const body = html`<h1>Upload a recording</h1>
${projects.length === 0 ? html`<p class="panel empty">Uploads belong to a project. <a href="/app/projects">Create a project</a> first.</p>` : html`<form class="panel narrow" data-upload method="post" action="/app/demos/upload">
${csrfField(r.viewer)}
<p class="muted">An MP4 or WebM you recorded yourself, published at once as a ready demo with a thumbnail and a GIF (up to ${maxMb} MB).</p>
<label for="u-project">Project</label>
<select id="u-project" name="project_id" required>${projects.map((p) => option(p.id, p.name, p.id === chosen))}</select>
<label for="u-prompt">Description</label>
<input id="u-prompt" name="prompt" required maxlength="500" placeholder="Onboarding walkthrough">
<label for="u-title">Title (optional)</label>
<input id="u-title" name="title" maxlength="200">
<label for="u-file">Video file</label>
<input id="u-file" name="file" type="file" required accept="video/mp4,video/webm">
<progress max="100" value="0" hidden data-upload-progress></progress>
<p class="hint" data-upload-status>Uploading needs JavaScript.</p>
<p class="error" role="alert" data-upload-error hidden></p>
<div class="actions"><button type="submit">Upload</button></div>
</form>`}`;
      r.page(200, appPage({ title: 'Upload a recording', viewer: r.viewer, section: 'demos', body }));
    },
  },
  {
    method: 'POST',
    pattern: /^\/app\/demos\/upload$/,
    json: true,
    async handle(r) {
      checkUploadCsrf(r);
      // The API's handler reads the session cookie itself and the query names the project, prompt and title.
      await handleLocalUpload(r.services, r.req, r.res, r.url);
    },
  },
  {
    method: 'POST',
    pattern: /^\/app\/backgrounds\/upload$/,
    json: true,
    async handle(r) {
      checkUploadCsrf(r);
      await handleBackgroundUpload(r.services, r.req, r.res);
    },
  },
];
