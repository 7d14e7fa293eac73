import { escapeHtml, html, type SafeHtml } from '../../pages/html.js';
import { appPage, copyField, csrfField, formatDate, noticeBox, type Viewer } from '../layout.js';
import type { DashboardRequest, Route } from '../request.js';
import { redirect } from '../send.js';
import { PHASE_LABELS } from '../../../demos/index.js';
import { phaseBadge } from './demo-cards.js';
import { refreshHistoryPanel } from './refresh-history.js';
import { type Version, versionsPanel } from './versions.js';
import type { DemoAnalytics } from '../../../analytics/index.js';
import { analyticsPanel } from './analytics-panel.js';

/**
 * A demo's page: while it records, the live progress (the script follows the API's WebSocket, polling if the socket
 * is refused, and a no-script refresh otherwise); once ready, the player, the share link, the embed snippets, the
 * GIF and thumbnail, and actions. The version history is the API's refreshHistory.
 */

type Demo = Awaited<ReturnType<DashboardRequest['caller']['demos']['get']>>;

const BUSY = new Set(['pending', 'recording', 'refreshing']);

/**
 * The phase's words (demos/phase.ts), as the page's script shows them for each progress message (it reads them
 * from data-phase-labels), so the first paint, the live updates and the badge agree.
 */
function stepLine(demo: Demo): string {
  return PHASE_LABELS[demo.phase].line;
}
const PHASE_WORDS = JSON.stringify(PHASE_LABELS);

function progressPanel(demo: Demo): SafeHtml {
  return html`<section class="panel progress" data-progress="${demo.id}" data-phase-labels="${PHASE_WORDS}" aria-live="polite">
<h2>Recording your demo</h2>
<p class="step" data-progress-step>${stepLine(demo)}</p>
<progress max="100" data-progress-bar>Working</progress>
<p class="muted small" data-progress-note>This page follows the recording live and shows the video when it is ready. You can leave and come back.</p>
</section>`;
}

function readyPanels(demo: Demo, publicUrl: string): SafeHtml {
  const id = demo.id;
  // Snippets are text the customer pastes into their HTML: what a user typed is escaped for that HTML first, and the
  // whole snippet again for this page by the template.
  const iframe = `<iframe src="${publicUrl}/embed/${id}" width="960" height="540" style="border:0;max-width:100%;aspect-ratio:16/9;height:auto" allow="fullscreen; picture-in-picture" allowfullscreen title="${escapeHtml(demo.title ?? 'Product demo')}"></iframe>`;
  const sdk = `<script src="${publicUrl}/sdk.js" data-showreel-key="YOUR_PUBLISHABLE_KEY" data-project="${demo.project_id}" async></script>\n<div data-showreel data-prompt="${escapeHtml(demo.prompt)}"></div>`;
  return html`<div class="player"><video controls playsinline preload="metadata" src="/video/${id}.${demo.format}?v=${demo.version}" poster="${demo.thumbnail_key ? `/thumb/${id}.png?v=${demo.version}` : ''}" data-player></video></div>
<div class="columns">
<section class="panel">
<h2>Share</h2>
${copyField('share-url', 'Share link', `${publicUrl}/share/${id}`)}
<p class="links"><a href="/share/${id}" target="_blank" rel="noopener">Open the share page</a> · <a href="/gif/${id}.gif" target="_blank" rel="noopener">GIF</a> · <a href="/thumb/${id}.png" target="_blank" rel="noopener">Thumbnail</a> · <a href="/video/${id}.${demo.format}" download>Download the video</a></p>
</section>
<section class="panel">
<h2>Embed</h2>
<label for="embed-iframe">Iframe</label>
<div class="copy-row"><textarea id="embed-iframe" readonly rows="3" spellcheck="false">${iframe}</textarea><button type="button" class="secondary" data-copy="embed-iframe">Copy</button></div>
<label for="embed-sdk">Script (sdk.js)</label>
<p class="hint">Put it on a page of your site with a publishable key from <a href="/app/keys">API keys</a>: it shows a demo of that page for this prompt, recorded once and then reused.</p>
<div class="copy-row"><textarea id="embed-sdk" readonly rows="3" spellcheck="false">${sdk}</textarea><button type="button" class="secondary" data-copy="embed-sdk">Copy</button></div>
</section>
</div>`;
}


/** Renaming (issue 35): the default title is made from the prompt and the section shown; its owner may change it. */
function renameForm(demo: Demo, viewer: Viewer): SafeHtml {
  return html`<details class="rename"><summary>Rename</summary>
<form method="post" action="/app/demos/${demo.id}/rename" class="inline">${csrfField(viewer)}
<label for="demo-title">Title</label>
<input id="demo-title" name="title" required maxlength="120" value="${demo.title ?? demo.prompt}">
<button type="submit" class="secondary">Save title</button>
</form></details>`;
}

function actions(demo: Demo, viewer: Viewer): SafeHtml {
  const generated = demo.source !== 'upload';
  const canRerecord = generated && !BUSY.has(demo.status);
  return html`<div class="actions inline">
${canRerecord ? html`<form method="post" action="/app/demos/${demo.id}/refresh">${csrfField(viewer)}<button type="submit" class="${demo.status === 'failed' ? '' : 'secondary'}">${demo.status === 'failed' ? 'Try again' : 'Refresh'}</button></form>` : null}
${canRerecord && demo.action_script ? html`<a class="button secondary" href="/app/demos/${demo.id}/restyle">Restyle</a>` : null}
<form method="post" action="/app/demos/${demo.id}/delete" data-confirm="Delete this demo and its video? Share links and embeds stop working.">${csrfField(viewer)}<button type="submit" class="danger">Delete</button></form>
</div>`;
}

export function demoPage(demo: Demo, projectName: string, viewer: Viewer, publicUrl: string, notice: string | null, versions: Version[] = [], stats: DemoAnalytics | null = null): string {
  const busy = BUSY.has(demo.status);
  const body = html`<p class="crumbs"><a href="/app/">Demos</a> / <a href="/app/projects/${demo.project_id}">${projectName}</a></p>
<div class="page-head"><h1>${demo.title ?? demo.prompt}</h1>${phaseBadge(demo.phase)}</div>
${noticeBox(notice)}
${demo.title ? html`<p class="muted">${demo.prompt}</p>` : null}
${renameForm(demo, viewer)}
${demo.status === 'failed' ? html`<p class="error" role="alert">The recording failed: ${(demo.error ?? 'no reason was given').replace(/[.\s]+$/, '')}. ${demo.source !== 'upload' ? 'Press Try again to record it again; the credit was refunded.' : ''}</p>` : null}
${warningsBox(demo)}
${busy ? progressPanel(demo) : null}
${busy && demo.video_key ? html`<p class="muted">The current version below stays online until the new one is ready.</p>` : null}
${demo.video_key ? readyPanels(demo, publicUrl) : null}
${actions(demo, viewer)}
${stats && demo.video_key ? analyticsPanel(stats) : null}
${versions.length > 0 ? versionsPanel(demo.id, versions, viewer, !BUSY.has(demo.status)) : null}
${refreshHistoryPanel(demo.id, demo.refreshHistory)}
<p class="muted small">${demo.source === 'upload' ? 'Uploaded' : 'Generated'} · ${demo.format.toUpperCase()} · ${demo.resolution} · version ${demo.version} · created ${formatDate(demo.created_at)}</p>`;
  // Without script, a page in progress reloads itself every 5 s instead of following the socket.
  const head = busy ? html`<noscript><meta http-equiv="refresh" content="5"></noscript>` : undefined;
  return appPage({ title: demo.title ?? 'Demo', viewer, section: 'demos', body, head });
}

/**
 * Issue 55: what the prompt asked for that the page did not have (the shown version's warnings), so the owner knows
 * why the video shows what it shows and can reword the prompt. Each sentence quotes the prompt: escaped like any text.
 */
function warningsBox(demo: Demo): SafeHtml | null {
  if (demo.warnings.length === 0) return null;
  return html`<div class="warning" role="status" data-warnings><strong>Not everything the prompt asks for is on the page.</strong>
<ul>${demo.warnings.map((warning) => html`<li>${warning}</li>`)}</ul></div>`;
}

const NOTICES: Record<string, string> = {
  refreshing: 'Refresh started: the demo is re-planned and re-recorded.',
  restyling: 'Restyle started: the demo is re-recorded with the new look.',
  uploaded: 'Uploaded and published.',
  restored: 'Version restored: it is the one your share link and embeds show now. Nothing was charged.',
  renamed: 'Title saved.',
};

export const demoRoutes: Route[] = [
  {
    method: 'GET',
    pattern: /^\/app\/demos\/([^/]+)$/,
    async handle(r) {
      const [demo, { versions }, stats] = await Promise.all([
        r.caller.demos.get({ id: r.params[0]! }),
        r.caller.demoVersions.list({ id: r.params[0]! }),
        r.caller.analytics.demo({ id: r.params[0]! }),
      ]);
      const { projects } = await r.caller.projects.list();
      const projectName = projects.find((p) => p.id === demo.project_id)?.name ?? 'Project';
      r.page(200, demoPage(demo, projectName, r.viewer, r.services.config.PUBLIC_URL, NOTICES[r.url.searchParams.get('done') ?? ''] ?? null, versions, stats));
    },
  },
  {
    method: 'POST',
    pattern: /^\/app\/demos\/([^/]+)\/refresh$/,
    async handle(r) {
      await r.form();
      await r.caller.demos.refresh({ id: r.params[0]! });
      redirect(r.res, `/app/demos/${r.params[0]}?done=refreshing`);
    },
  },
  {
    method: 'POST',
    pattern: /^\/app\/demos\/([^/]+)\/rename$/,
    async handle(r) {
      const form = await r.form();
      // The API's own check (1 to 120 characters, trimmed): a blank title is its 400, shown as a page.
      await r.caller.demos.update({ id: r.params[0]!, title: form.get('title') ?? '' });
      redirect(r.res, `/app/demos/${r.params[0]}?done=renamed`);
    },
  },
  {
    method: 'POST',
    pattern: /^\/app\/demos\/([^/]+)\/delete$/,
    async handle(r) {
      await r.form();
      await r.caller.demos.delete({ id: r.params[0]! });
      redirect(r.res, '/app/?deleted=1');
    },
  },
];
