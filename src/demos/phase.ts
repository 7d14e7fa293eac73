/**
 * One vocabulary for where a demo stands (issue 35), used by the dashboard's badge and progress line, the API's
 * `phase` field and its docs, and the CLI: queued → analysing → recording → composing → ready, or failed. The demo's
 * `status` stays the spec's free string (pending, refreshing, recording, ready, failed); the pipeline's job steps
 * (loading, analyzing, planning, recording, rendering, publishing, retrying) are mapped onto this here and nowhere else.
 * No imports: the CLI client takes it as it is.
 */
export const demoPhases = ['queued', 'analysing', 'recording', 'composing', 'ready', 'failed'] as const;
export type DemoPhase = (typeof demoPhases)[number];

const STEP_PHASES: Record<string, DemoPhase> = {
  queued: 'queued',
  retrying: 'queued',
  loading: 'analysing',
  analyzing: 'analysing',
  planning: 'analysing',
  recording: 'recording',
  rendering: 'composing',
  publishing: 'composing',
  ready: 'ready',
  failed: 'failed',
};

const BUSY = new Set(['pending', 'refreshing', 'recording']);

/** `status`: the demo's; `step`: its latest job's (null when it has none). */
export function demoPhase(status: string, step: string | null | undefined): DemoPhase {
  if (!BUSY.has(status)) return status === 'ready' ? 'ready' : 'failed';
  // A job in flight: its step says how far it got; a step of a finished job (a demo queued again) is not this one's.
  const phase = step ? STEP_PHASES[step] : undefined;
  return phase === undefined || phase === 'ready' || phase === 'failed' ? 'queued' : phase;
}

/** The words a person reads for each phase: the badge's, and the progress line's while it runs. */
export const PHASE_LABELS: Record<DemoPhase, { badge: string; line: string }> = {
  queued: { badge: 'Queued', line: 'Queued: waiting for a worker…' },
  analysing: { badge: 'Analysing', line: 'Analysing the page' },
  recording: { badge: 'Recording', line: 'Recording' },
  composing: { badge: 'Composing', line: 'Composing the video' },
  ready: { badge: 'Ready', line: 'Ready' },
  failed: { badge: 'Failed', line: 'Failed' },
};

export const PHASE_DESCRIPTION =
  'Where the demo stands, in one vocabulary: queued (waiting for a worker), analysing (the page is read and the tour planned), recording, composing (the video is rendered and published), ready, failed (see `error`). While a refresh or restyle runs, the phase is the job\u2019s; the last good version stays online.';
