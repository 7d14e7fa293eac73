import { html, type SafeHtml } from '../../pages/html.js';
import { csrfField, formatDate, type Viewer } from '../layout.js';
import type { DashboardRequest, Route } from '../request.js';
import { redirect } from '../send.js';
import { cutChange } from './cut-words.js';

/**
 * The Versions panel of a demo's page (issue 35): every version with its media, Play (the page's player switches to
 * it; without script the link opens the video) and Restore (an event: nothing is recorded, nothing charged).
 */

export type Version = Awaited<ReturnType<DashboardRequest['caller']['demoVersions']['list']>>['versions'][number];

const MADE_BY: Record<string, string> = { generate: 'First recording', refresh: 'Refresh', restyle: 'Restyle', upload: 'Upload' };
const seconds = (ms: number) => (ms > 0 ? `${(ms / 1000).toFixed(1)} s` : '—');

/**
 * What made a version. Issue 59: a restyle that only changed the cuts recorded nothing, and a new user read its
 * "Restyle" as a new recording; it says which cut it made and whose recording it was cut from, in the History's words.
 */
function madeBy(v: Version, versions: readonly Version[]): string {
  if (v.cut_from_version === null) return MADE_BY[v.made_by] ?? v.made_by;
  const source = v.cut_from_version;
  const before = versions.find((other) => other.version === source);
  if (!before) return `Cuts from v${source}’s recording`;
  const { made, gone } = cutChange(before.variants.map((variant) => variant.aspect), v.variants.map((variant) => variant.aspect));
  if (made) return `${made} from v${source}’s recording${gone ? `; ${gone}` : ''}`;
  return `Same recording as v${source}, ${gone ?? 'same cuts'}`;
}

export function versionsPanel(demoId: string, versions: Version[], viewer: Viewer, canRestore: boolean): SafeHtml {
  const rows = versions.map((v) => {
    const play = v.video_url ? html`<a href="${new URL(v.video_url).pathname + new URL(v.video_url).search}" data-play-version="${v.version}" target="_blank" rel="noopener">Play</a>` : null;
    const restore =
      v.current || !v.kept || !canRestore
        ? null
        : html`<form method="post" action="/app/demos/${demoId}/versions/${v.version}/restore" class="inline-form">${csrfField(viewer)}<button type="submit" class="secondary small">Restore</button></form>`;
    const state = v.current ? html`<span class="badge ok">Current</span>` : v.kept ? null : html`<span class="muted small">media removed</span>`;
    return html`<tr data-version="${v.version}"${v.current ? html` data-current` : null}><td data-label="Version">v${v.version} ${state}</td><td data-label="Made by">${madeBy(v, versions)}</td><td data-label="When">${formatDate(v.created_at)}</td><td data-label="Length">${seconds(v.duration_ms)}</td><td class="version-actions">${play} ${restore}</td></tr>`;
  });
  return html`<section class="panel" data-versions><h2>Versions</h2><div class="table-wrap"><table class="stack">
<thead><tr><th>Version</th><th>Made by</th><th>When</th><th>Length</th><th></th></tr></thead>
<tbody>${rows}</tbody>
</table></div><p class="muted small">Restoring makes an earlier version the one your share link and embeds show; nothing is recorded and no credit is charged. The last few versions are kept.</p></section>`;
}

export const versionRoutes: Route[] = [
  {
    method: 'POST',
    pattern: /^\/app\/demos\/([^/]+)\/versions\/(\d+)\/restore$/,
    async handle(r) {
      await r.form();
      await r.caller.demoVersions.restore({ id: r.params[0]!, version: r.params[1]! });
      redirect(r.res, `/app/demos/${r.params[0]}?done=restored`);
    },
  },
];
