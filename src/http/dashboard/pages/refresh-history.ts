import { html, type SafeHtml } from '../../pages/html.js';
import { formatDate } from '../layout.js';

interface HistoryEntry {
  id: string;
  triggered_by: string;
  result: string;
  old_version: number | null;
  new_version: number | null;
  error: string | null;
  created_at: string;
  changes: string[] | null;
  checked_at: string | null;
  credits_charged: number;
}

const TRIGGER_WORDS: Record<string, string> = {
  manual: 'Refresh',
  restyle: 'Restyle',
  schedule: 'Schedule',
  webhook: 'Deploy webhook',
  project: 'Project refresh',
};

const credits = (n: number) => `${n} credit${n === 1 ? '' : 's'}`;

/**
 * What happened to a run and what it cost, in the words of the credit history beside it (issue 57: a refresh that
 * re-recorded and charged read "Nothing the demo shows changed"). "Re‑recorded" has a non-breaking hyphen: the
 * column is narrow.
 */
function resultWords(entry: HistoryEntry): string {
  switch (entry.result) {
    case 'succeeded':
      return `Re‑recorded · ${credits(entry.credits_charged)} charged`;
    case 'unchanged':
      return 'Skipped: nothing the demo shows changed · free';
    case 'failed':
      return 'Failed · refunded';
    case 'queued':
    case 'running':
      return `In progress · ${credits(entry.credits_charged)} (refunded if it fails)`;
    default:
      return entry.result;
  }
}

/**
 * Every refresh and restyle run, failed ones included (the Versions panel lists what they published), with what
 * changed on the page in words and the frames before and after (issue 37): the thumbnails of the version the run
 * started from and of the one it recorded, served by version (`?v=N`) from this site.
 */
export function refreshHistoryPanel(demoId: string, history: HistoryEntry[]): SafeHtml | null {
  if (history.length === 0) return null;
  return html`<section class="panel"><h2>History</h2><div class="table-wrap"><table>
<thead><tr><th>When</th><th>Trigger</th><th>Result</th><th>What changed</th><th>Before → after</th></tr></thead>
<tbody>${history.map((h) => html`<tr data-history="${h.id}">
<td>${formatDate(h.checked_at ?? h.created_at)}</td>
<td>${TRIGGER_WORDS[h.triggered_by] ?? h.triggered_by}</td>
<td data-result>${resultWords(h)}${h.error ? html`<span class="muted small"> — ${h.error}</span>` : null}</td>
<td>${changeSummary(h)}</td>
<td>${frames(demoId, h)}</td>
</tr>`)}</tbody>
</table></div></section>`;
}

function changeSummary(entry: HistoryEntry): SafeHtml | string {
  if (entry.triggered_by === 'restyle') return entry.changes?.length ? html`<ul class="changes">${entry.changes.map((change) => html`<li>${change}</li>`)}</ul>` : 'New look, same page';
  if (entry.changes === null) return '—';
  // A run that re-recorded although the page looked the same was asked to (a manual or forced refresh): say both.
  if (entry.changes.length === 0) return entry.result === 'succeeded' ? 'The page looked the same; re‑recorded as asked' : 'Nothing the demo shows changed';
  return html`<ul class="changes">${entry.changes.map((change) => html`<li>${change}</li>`)}</ul>`;
}

function frames(demoId: string, entry: HistoryEntry): SafeHtml | string {
  const frame = (version: number, when: string) =>
    html`<a href="/thumb/${demoId}.png?v=${version}" target="_blank" rel="noopener"><img src="/thumb/${demoId}.png?v=${version}" width="160" height="90" loading="lazy" alt="${when}: version ${version}"></a>`;
  const before = entry.old_version !== null && entry.old_version > 0 ? frame(entry.old_version, 'Before') : null;
  const after = entry.new_version !== null ? frame(entry.new_version, 'After') : null;
  if (!before && !after) return `${entry.old_version ?? '—'} → ${entry.new_version ?? '—'}`;
  return html`<span class="frames">${before ?? '—'} → ${after ?? html`<span class="muted small">same as before</span>`}</span>`;
}
