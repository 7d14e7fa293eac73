import { html, truncateText, type SafeHtml } from '../../pages/html.js';

export interface DemoCard {
  id: string;
  title: string | null;
  prompt: string;
  status: string;
  thumbnail_key: string | null;
  updated_at: string;
  version: number;
  project_name?: string;
}

const STATUS_LABELS: Record<string, string> = {
  pending: 'Queued', recording: 'Recording', refreshing: 'Refreshing', ready: 'Ready', failed: 'Failed',
};

export function statusBadge(status: string): SafeHtml {
  const kind = status === 'ready' ? 'ok' : status === 'failed' ? 'bad' : 'busy';
  return html`<span class="badge ${kind}">${STATUS_LABELS[status] ?? status}</span>`;
}

/** The grid of demos: a thumbnail once there is one, the status, the title or the prompt. */
export function demoGrid(demos: DemoCard[]): SafeHtml {
  return html`<ul class="grid">${demos.map((d) => {
    const project = d.project_name;
    return html`<li class="tile"><a href="/app/demos/${d.id}">
<div class="thumb">${d.thumbnail_key ? html`<img src="/thumb/${d.id}.png?v=${d.version}" alt="" loading="lazy">` : html`<span class="placeholder">${d.status === 'failed' ? 'No video' : 'Recording…'}</span>`}</div>
<div class="tile-body">${statusBadge(d.status)}<span class="tile-title">${truncateText(d.title ?? d.prompt, 80)}</span>${project ? html`<span class="muted small">${project}</span>` : null}</div>
</a></li>`;
  })}</ul>`;
}
