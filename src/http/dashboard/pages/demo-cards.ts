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
  duration_ms: number | null;
  created_at: string;
  updated_at: string;
  version: number;
  project_name?: string;
  /** views since it was made (issue 38), where the list counts them */
  views?: number;
}

/** The demo's phase in the shared vocabulary (demos/phase.ts), the same word the progress line and the CLI use. */
/** `label`: other words for the phase (a restyle's "Preparing" for `analysing`); the phase's own by default. */
export function phaseBadge(phase: DemoPhase, label?: string): SafeHtml {
  const kind = phase === 'ready' ? 'ok' : phase === 'failed' ? 'bad' : 'busy';
  return html`<span class="badge ${kind}" data-phase="${phase}">${label ?? PHASE_LABELS[phase].badge}</span>`;
}

/** A video's length as players show it: "0:10", "1:05" (whole seconds, rounded). */
export function formatLength(ms: number): string {
  const seconds = Math.max(0, Math.round(ms / 1000));
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
}

/**
 * The grid of demos (issue 35: demos of one page could not be told apart): a thumbnail once there is one, the
 * status, the title, the prompt that was asked, and the length and date, so two demos of one page differ at a glance.
 */
export function demoGrid(demos: DemoCard[]): SafeHtml {
  return html`<ul class="grid">${demos.map((d) => {
    const project = d.project_name;
    const facts = [d.duration_ms ? html`<span data-length>${formatLength(d.duration_ms)}</span>` : null, html`<time datetime="${d.created_at}">${d.created_at.slice(0, 10)}</time>`, project ? html`<span>${project}</span>` : null, d.views !== undefined ? html`<span data-views>${d.views} ${d.views === 1 ? 'view' : 'views'}</span>` : null]
      .filter((fact) => fact !== null);
    return html`<li class="tile"><a href="/app/demos/${d.id}">
<div class="thumb">${d.thumbnail_key ? html`<img src="/thumb/${d.id}.png?v=${d.version}" alt="" loading="lazy">` : html`<span class="placeholder">${d.status === 'failed' ? 'No video' : 'Recording…'}</span>`}</div>
<div class="tile-body">${phaseBadge(d.phase ?? demoPhase(d.status, null))}<span class="tile-title">${truncateText(d.title ?? d.prompt, 80)}</span>${d.title ? html`<span class="tile-prompt small" data-prompt>${truncateText(d.prompt, 100)}</span>` : null}<span class="muted small">${facts.map((fact, i) => html`${i > 0 ? ' · ' : ''}${fact}`)}</span></div>
</a></li>`;
  })}</ul>`;
}
