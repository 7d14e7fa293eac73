import { html, type SafeHtml } from '../../pages/html.js';
import { formatDate } from '../layout.js';
import { cutChange } from './cut-words.js';

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
  /** issue 59: a restyle that made its cuts from the kept capture (no recording, no credit) */
  from_capture: boolean;
}

/** Issue 59: each version's cuts (its 9:16 and 1:1 variants), by version number, to name what a cut run made. */
export type CutsByVersion = ReadonlyMap<number, readonly string[]>;

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
function resultWords(entry: HistoryEntry, cuts: CutsByVersion): string {
  if (entry.from_capture) return cutWords(entry, cuts);
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
 * Issue 59: a run that made cuts from the recording kept with the version before: it recorded nothing and cost
 * nothing (the walk found it reading "Re‑recorded · 0 credits charged"). Which cuts, from the versions' variants.
 */
function cutWords(entry: HistoryEntry, cuts: CutsByVersion): string {
  if (entry.result === 'failed') return 'Failed · nothing charged';
  if (entry.result === 'queued' || entry.result === 'running') return 'In progress: cutting from the same recording · free';
  const before = entry.old_version === null ? undefined : cuts.get(entry.old_version);
  const after = entry.new_version === null ? undefined : cuts.get(entry.new_version);
  if (!before || !after) return 'New cuts from the same recording · free';
  const change = cutChange(before, after);
  const made = change.made && `${change.made} from the same recording`;
  const gone = change.gone;
  const words = made && gone ? `${made}; ${gone}` : (made ?? (gone ? `${gone[0]!.toUpperCase()}${gone.slice(1)}, nothing recorded` : 'Same cuts, from the same recording'));
  return `${words} · free`;
}

/**
 * Every refresh and restyle run, failed ones included (the Versions panel lists what they published), with what
 * changed on the page in words and the frames before and after (issue 37): the thumbnails of the version the run
 * started from and of the one it recorded, served by version (`?v=N`) from this site.
 */
/** A version made current again (issue 57: restores were missing here): no job, nothing recorded, nothing charged. */
export interface RestoreEntry {
  version: number;
  from_version: number | null;
  restored_at: Date;
}

export function refreshHistoryPanel(demoId: string, history: HistoryEntry[], restores: RestoreEntry[] = [], cuts: CutsByVersion = new Map()): SafeHtml | null {
  if (history.length === 0 && restores.length === 0) return null;
  const rows = [
    ...history.map((h) => ({ at: h.checked_at ?? h.created_at, row: runRow(demoId, h, cuts) })),
    ...restores.map((r) => ({ at: r.restored_at.toISOString(), row: restoreRow(demoId, r) })),
  ].sort((a, b) => (a.at < b.at ? 1 : a.at > b.at ? -1 : 0));
  return html`<section class="panel"><h2>History</h2><div class="table-wrap"><table class="history stack">
<thead><tr><th>When</th><th>Trigger</th><th>Result</th><th>What changed</th><th>Before → after</th></tr></thead>
<tbody>${rows.map((r) => r.row)}</tbody>
</table></div></section>`;
}

function runRow(demoId: string, h: HistoryEntry, cuts: CutsByVersion): SafeHtml {
  return html`<tr data-history="${h.id}">
<td data-label="When">${formatDate(h.checked_at ?? h.created_at)}</td>
<td data-label="Trigger">${TRIGGER_WORDS[h.triggered_by] ?? h.triggered_by}</td>
<td data-label="Result" data-result>${resultWords(h, cuts)}${h.error ? html`<span class="muted small"> — ${h.error}</span>` : null}</td>
<td data-label="What changed">${changeSummary(h)}</td>
<td data-label="Before → after" class="frames-cell">${frames(demoId, h)}</td>
</tr>`;
}

function restoreRow(demoId: string, r: RestoreEntry): SafeHtml {
  return html`<tr data-history="restore" data-restored="${r.version}">
<td data-label="When">${formatDate(r.restored_at.toISOString())}</td>
<td data-label="Trigger">Restore</td>
<td data-label="Result" data-result>v${r.version} made current again · free</td>
<td data-label="What changed">Nothing recorded: ${r.from_version !== null ? `v${r.from_version} is kept under Versions` : 'the version before stays under Versions'}</td>
<td data-label="Before → after" class="frames-cell">${frames(demoId, { old_version: r.from_version, new_version: r.version, result: 'succeeded' })}</td>
</tr>`;
}

function changeSummary(entry: HistoryEntry): SafeHtml | string {
  if (entry.from_capture) return entry.old_version ? `Nothing recorded: made from v${entry.old_version}’s recording` : 'Nothing recorded';
  if (entry.triggered_by === 'restyle') return entry.changes?.length ? html`<ul class="changes">${entry.changes.map((change) => html`<li>${change}</li>`)}</ul>` : 'New look, same page';
  if (entry.changes === null) return '—';
  // A run that re-recorded although the page looked the same was asked to (a manual or forced refresh): say both.
  if (entry.changes.length === 0) return entry.result === 'succeeded' ? 'The page looked the same; re‑recorded as asked' : 'Nothing the demo shows changed';
  return html`<ul class="changes">${entry.changes.map((change) => html`<li>${change}</li>`)}</ul>`;
}

/** The two frames side by side, each named by its version, the arrow between them (issue 57: they stacked). */
function frames(demoId: string, entry: Pick<HistoryEntry, 'old_version' | 'new_version' | 'result'>): SafeHtml | string {
  const frame = (version: number, when: string) =>
    html`<a class="frame" href="/thumb/${demoId}.png?v=${version}" target="_blank" rel="noopener"><img src="/thumb/${demoId}.png?v=${version}" width="112" height="63" loading="lazy" alt="${when}: version ${version}"><span class="small muted">v${version}</span></a>`;
  const before = entry.old_version !== null && entry.old_version > 0 ? frame(entry.old_version, 'Before') : null;
  const after = entry.new_version !== null ? frame(entry.new_version, 'After') : null;
  if (!before && !after) return `${entry.old_version ?? '—'} → ${entry.new_version ?? '—'}`;
  const pending = entry.result === 'queued' || entry.result === 'running';
  const none = html`<span class="muted small">${pending ? 'not ready yet' : entry.result === 'failed' ? 'none' : 'same as before'}</span>`;
  return html`<span class="frames">${before ?? '—'}<span class="arrow" aria-hidden="true">→</span>${after ?? none}</span>`;
}
