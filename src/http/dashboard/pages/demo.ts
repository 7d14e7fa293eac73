import { escapeHtml, html, type SafeHtml } from '../../pages/html.js';
import { appPage, copyField, csrfField, formatDate, noticeBox, type Viewer } from '../layout.js';
import type { DashboardRequest, Route } from '../request.js';
import { redirect } from '../send.js';
import { priceOf, type DurationTarget } from '../../../credits/index.js';
import { listVersionRestores, PHASE_LABELS } from '../../../demos/index.js';
import { phaseBadge } from './demo-cards.js';
import { refreshHistoryPanel, type RestoreEntry } from './refresh-history.js';
import { type Version, versionsPanel } from './versions.js';
import type { DemoAnalytics } from '../../../analytics/index.js';
import { analyticsPanel } from './analytics-panel.js';
import { narrationPanel } from './narration.js';
import { createSpeechEngine } from '../../../pipeline/narration/speech.js';
import { variantLinks } from './aspect-fields.js';

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
function stepLine(demo: Demo, words: typeof PHASE_LABELS): string {
  return words[demo.phase].line;
}

/** The run in flight is a restyle: its job is the latest, and the history names each run's kind. */
const restyling = (demo: Demo) => demo.latestJob !== null && demo.refreshHistory.some((h) => h.id === demo.latestJob!.id && h.triggered_by === 'restyle');

/**
 * A restyle plans nothing: it opens the page and plays the recorded tour again (issue 57: its status read "Analysing
 * the page"). The API's phase stays `analysing` for that stretch (one vocabulary for every client); the dashboard
 * says what a restyle does in it.
 */
function phaseWords(demo: Demo): typeof PHASE_LABELS {
  if (!restyling(demo)) return PHASE_LABELS;
  return { ...PHASE_LABELS, analysing: { badge: 'Preparing', line: 'Opening the page to play the recorded tour again' } };
}

function progressPanel(demo: Demo): SafeHtml {
  const words = phaseWords(demo);
  const heading = restyling(demo) ? 'Restyling your demo' : demo.video_key ? 'Recording the new version' : 'Recording your demo';
  return html`<section class="panel progress" data-progress="${demo.id}" data-phase-labels="${JSON.stringify(words)}" aria-live="polite">
<h2>${heading}</h2>
<p class="step" data-progress-step>${stepLine(demo, words)}</p>
<progress max="100" data-progress-bar>Working</progress>
<p class="muted small" data-progress-note>This page follows the recording live and shows the video when it is ready. You can leave and come back.</p>
</section>`;
}

/**
 * The three ways to put THIS demo on a page (issue 57: the sdk.js snippet used to ask for a new demo of whatever page
 * it was pasted into, charged, and showing its own "still being recorded" box). Each plays the demo by its id and
 * costs nothing; a demo per page of the customer's site (placeholders with a prompt and a publishable key) is the
 * dynamic-embed recipe of docs/embedding.md, not this page's.
 */
export function embedSnippets(demo: Pick<Demo, 'id' | 'project_id' | 'title'>, publicUrl: string) {
  const id = demo.id;
  // Snippets are text the customer pastes into their HTML: what a user typed is escaped for that HTML first, and the
  // whole snippet again for this page by the template. `allow` alone: with `allowfullscreen` too the host page's
  // console warns that one overrides the other.
  const iframe = `<iframe src="${publicUrl}/embed/${id}" width="960" height="540" style="border:0;max-width:100%;aspect-ratio:16/9;height:auto" allow="fullscreen; picture-in-picture" title="${escapeHtml(demo.title ?? 'Product demo')}"></iframe>`;
  const sdk = `<script src="${publicUrl}/sdk.js" async></script>\n<div data-showreel data-demo="${id}"></div>`;
  const runtime = `SHOWREEL_SIGNING_SECRET=<project signing secret> npx showreel embed-url --base-url ${publicUrl} --project ${demo.project_id} --payload '{"demoId":"${id}"}' --ttl 86400`;
  return { iframe, sdk, runtime };
}

function snippet(id: string, label: string, hint: SafeHtml | string, value: string, rows = 3): SafeHtml {
  return html`<label for="${id}">${label}</label>
<p class="hint">${hint}</p>
<div class="copy-row"><textarea id="${id}" readonly rows="${rows}" spellcheck="false">${value}</textarea><button type="button" class="secondary" data-copy="${id}">Copy</button></div>`;
}

/**
 * The player, and while an upload's thumbnail and GIF are still being made by the worker (issue 57: the poster was a
 * 404 over a black player), no poster and no links to them: a line says they are coming, and the script watches for
 * the thumbnail, then sets it as the poster and shows the links.
 */
function readyPanels(demo: Demo, publicUrl: string, previewsPending: boolean): SafeHtml {
  const id = demo.id;
  const snippets = embedSnippets(demo, publicUrl);
  const thumb = `/thumb/${id}.png?v=${demo.version}`;
  const poster = demo.thumbnail_key && !previewsPending ? html` poster="${thumb}"` : null;
  const hiddenUntilReady = previewsPending ? html` hidden data-previews-link` : null;
  return html`<div class="player"><video controls playsinline preload="${previewsPending ? 'auto' : 'metadata'}" src="/video/${id}.${demo.format}?v=${demo.version}"${poster} data-player></video></div>
<p class="watching" role="status" data-watching hidden><span data-watching-text></span><a href="#" data-watch-current>Back to the current version</a></p>
${previewsPending ? html`<p class="muted" role="status" data-previews-pending="${thumb}">The video is ready to play and share. Its thumbnail and GIF are being made from it and appear here in a moment (reload the page if they do not).</p>` : null}
<div class="columns">
<section class="panel">
<h2>Share</h2>
${copyField('share-url', 'Share link', `${publicUrl}/share/${id}`)}
<p class="links"><a href="/share/${id}" target="_blank" rel="noopener">Open the share page</a><span${hiddenUntilReady}> · <a href="/gif/${id}.gif" target="_blank" rel="noopener">GIF</a> · <a href="/thumb/${id}.png" target="_blank" rel="noopener">Thumbnail</a></span> · <a href="/video/${id}.${demo.format}" download>Download the video</a></p>
${variantLinks(demo, publicUrl)}
</section>
<section class="panel" data-embed-snippets>
<h2>Embed</h2>
<p class="muted small">Each of these plays this demo, and always its current version. Showing it costs nothing.</p>
${snippet('embed-iframe', 'Iframe', 'Paste it anywhere HTML goes.', snippets.iframe, 4)}
${snippet('embed-sdk', 'Script (sdk.js)', html`Responsive 16:9, with <code>showreel:*</code> events for your page’s code. No key needed. For a demo of each page of your site instead, see the dynamic embeds in the embedding guide (docs/embedding.md).`, snippets.sdk, 4)}
${snippet('embed-runtime', 'Signed runtime URL', html`For a server that signs its embed URLs: run this with the signing secret from <a href="/app/projects/${demo.project_id}">the project</a>; the URL it prints works for a day (at most 30).`, snippets.runtime, 5)}
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

const creditWords = (n: number) => `${n} credit${n === 1 ? '' : 's'}`;

/**
 * Refresh asks first, in the page (issue 57: it charged without a word, while Restyle says "Restyle for 1 credit"):
 * the button opens a small confirmation with the cost, the balance and what happens, and only its own button posts.
 * A <details>, so it works without script; the script adds Cancel and Escape. A failed demo's Try again is one
 * click, its cost on the button: the user is retrying what they already chose, and the failure was refunded.
 */
function refreshControl(demo: Demo, viewer: Viewer, cost: number, balance: number | null): SafeHtml {
  const price = creditWords(cost);
  const form = (label: string, primary: boolean) =>
    html`<form method="post" action="/app/demos/${demo.id}/refresh">${csrfField(viewer)}<button type="submit" class="${primary ? '' : 'secondary'}" data-refresh-submit>${label}</button></form>`;
  if (demo.status === 'failed') return form(`Try again for ${price}`, true);
  const short = balance !== null && balance < cost;
  return html`<details class="confirm" data-refresh>
<summary class="button secondary">Refresh…</summary>
<div class="confirm-box" role="group" aria-label="Refresh this demo">
<p><strong>Re-record this demo from the live page for ${price}?</strong></p>
<p class="muted small">It is planned and recorded again, so it shows the page as it is now. The current version stays online until the new one is ready, and stays listed under Versions. If the recording fails, the credit is refunded.</p>
${balance !== null ? html`<p class="small" data-refresh-balance>Your balance: <strong>${creditWords(balance)}</strong>${short ? html` · <a href="/app/credits">buy credits</a>` : null}</p>` : null}
<div class="actions">${form(`Refresh for ${price}`, true)}<button type="button" class="secondary" data-close-details>Cancel</button></div>
</div>
</details>`;
}

function actions(demo: Demo, viewer: Viewer, balance: number | null): SafeHtml {
  const generated = demo.source !== 'upload';
  const canRerecord = generated && !BUSY.has(demo.status);
  const cost = priceOf((demo.duration_target ?? '10s') as DurationTarget);
  return html`<div class="actions inline">
${canRerecord ? refreshControl(demo, viewer, cost, balance) : null}
${canRerecord && demo.action_script ? html`<a class="button secondary" href="/app/demos/${demo.id}/restyle">Restyle</a>` : null}
<form method="post" action="/app/demos/${demo.id}/delete" data-confirm="Delete this demo and its video? Share links and embeds stop working.">${csrfField(viewer)}<button type="submit" class="danger">Delete</button></form>
</div>`;
}

export function demoPage(
  demo: Demo, projectName: string, viewer: Viewer, publicUrl: string, notice: string | null, versions: Version[] = [], stats: DemoAnalytics | null = null,
  balance: number | null = null, previewsPending = false, restores: RestoreEntry[] = [], narration: SafeHtml | null = null,
): string {
  const busy = BUSY.has(demo.status);
  const body = html`<p class="crumbs"><a href="/app/">Demos</a> / <a href="/app/projects/${demo.project_id}">${projectName}</a></p>
<div class="page-head"><h1>${demo.title ?? demo.prompt}</h1>${phaseBadge(demo.phase, busy ? phaseWords(demo)[demo.phase].badge : undefined)}</div>
${noticeBox(notice)}
${demo.title ? html`<p class="muted" data-prompt>Asked for: ${demo.prompt}</p>` : null}
${renameForm(demo, viewer)}
${demo.status === 'failed' ? html`<p class="error" role="alert">The recording failed: ${(demo.error ?? 'no reason was given').replace(/[.\s]+$/, '')}. ${demo.source !== 'upload' ? 'Press Try again to record it again; the credit was refunded.' : ''}</p>` : null}
${warningsBox(demo)}
${busy ? progressPanel(demo) : null}
${busy && demo.video_key ? html`<p class="muted">The current version below stays online until the new one is ready.</p>` : null}
${demo.video_key ? readyPanels(demo, publicUrl, previewsPending) : null}
${actions(demo, viewer, balance)}
${narration}
${stats && demo.video_key ? analyticsPanel(stats) : null}
${versions.length > 0 ? versionsPanel(demo.id, versions, viewer, !BUSY.has(demo.status)) : null}
${refreshHistoryPanel(demo.id, demo.refreshHistory, restores, new Map(versions.map((v) => [v.version, v.variants.map((variant) => variant.aspect)])))}
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

const STARTED = new Set(['refreshing', 'restyling']);
const NOTICES: Record<string, string> = {
  refreshing: 'Refresh started: the demo is re-planned and re-recorded.',
  restyling: 'Restyle started: the demo is re-recorded with the new look.',
  uploaded: 'Uploaded and published.',
  restored: 'Version restored: it is the one your share link and embeds show now. Nothing was charged.',
  renamed: 'Title saved.',
  narration: 'Narration script saved: you hear it from the next restyle with narration on, or refresh.',
};

export const demoRoutes: Route[] = [
  {
    method: 'GET',
    pattern: /^\/app\/demos\/([^/]+)$/,
    async handle(r) {
      const [demo, { versions }, stats, { balance }] = await Promise.all([
        r.caller.demos.get({ id: r.params[0]! }),
        r.caller.demoVersions.list({ id: r.params[0]! }),
        r.caller.analytics.demo({ id: r.params[0]! }),
        r.caller.credits.get(),
      ]);
      const { projects } = await r.caller.projects.list();
      const projectName = projects.find((p) => p.id === demo.project_id)?.name ?? 'Project';
      // An upload's thumbnail is named at once but made by the worker a moment later (derive-upload.ts).
      const previewsPending = demo.source === 'upload' && demo.thumbnail_key !== null && (await r.services.storage.stat(demo.thumbnail_key)) === null;
      const done = r.url.searchParams.get('done') ?? '';
      // "Refresh started…" and "Restyle started…" are news while the run goes on; once it is over (the page reloads
      // itself with the same address) the demo's state and its History say how it went.
      const notice = (STARTED.has(done) && !BUSY.has(demo.status) ? null : NOTICES[done]) ?? null;
      // The demo was read through the API above, so it is the viewer's own.
      const restores = await listVersionRestores(r.services.sql, demo.id);
      // Issue 59: the narration script, once the demo has chapters (an upload, or a demo still being made, has none).
      const script = demo.source === 'upload' ? null : await r.caller.narration.script({ id: demo.id }).catch(() => null);
      const narration = narrationPanel({ demoId: demo.id, viewer: r.viewer, script, spoken: demo.narration, engine: createSpeechEngine(r.services.config) !== null });
      r.page(200, demoPage(demo, projectName, r.viewer, r.services.config.PUBLIC_URL, notice, versions, stats, balance, previewsPending, restores, narration));
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
