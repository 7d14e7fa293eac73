import { type DemoPhase, demoPhase, PHASE_LABELS } from '../../../demos/index.js';
import { html, truncateText, type SafeHtml } from '../../pages/html.js';

export interface DemoCard {
  id: string;
  title: string | null;
  prompt: string;
  status: string;
  /** absent where the list has no job steps (a project's demos): read from the status alone */
  phase?: DemoPhase;
  thumbnail_key: string | null;
  updated_at: string;
  version: number;
  project_name?: string;
}

/** The demo's phase in the shared vocabulary (demos/phase.ts), the same word the progress line and the CLI use. */
export function phaseBadge(phase: DemoPhase): SafeHtml {
  const kind = phase === 'ready' ? 'ok' : phase === 'failed' ? 'bad' : 'busy';
  return html`<span class="badge ${kind}" data-phase="${phase}">${PHASE_LABELS[phase].badge}</span>`;
}

/** The grid of demos: a thumbnail once there is one, the status, the title or the prompt. */
export function demoGrid(demos: DemoCard[]): SafeHtml {
  return html`<ul class="grid">${demos.map((d) => {
    const project = d.project_name;
    return html`<li class="tile"><a href="/app/demos/${d.id}">
<div class="thumb">${d.thumbnail_key ? html`<img src="/thumb/${d.id}.png?v=${d.version}" alt="" loading="lazy">` : html`<span class="placeholder">${d.status === 'failed' ? 'No video' : 'Recording…'}</span>`}</div>
<div class="tile-body">${phaseBadge(d.phase ?? demoPhase(d.status, null))}<span class="tile-title">${truncateText(d.title ?? d.prompt, 80)}</span>${project ? html`<span class="muted small">${project}</span>` : null}</div>
</a></li>`;
  })}</ul>`;
}
