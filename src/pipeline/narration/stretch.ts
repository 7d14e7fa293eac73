import type { ActionScript, ScriptStep } from '../types.js';

/**
 * The script with room for the narration (issue 59): each line must fit between its beat's start and the moment the
 * page sets off for the next beat, with a little air either side. Where it does not, the beat's shot is made longer
 * rather than the line cut off: its last dwell (a `wait` step) lasts the missing time, or a wait is added where the
 * beat ends when it has no dwell, and every later step starts that much later. The script's length grows by the
 * same: a narrated demo runs past its duration target when the voice needs it. Nothing else changes: the same steps,
 * targets and motion, so a restyle that turns narration on stretches the stored script and plans nothing.
 */
export interface LineToFit {
  /** the plan step that starts the beat (null: the opening, at 0 s) */
  stepLabel: string | null;
  durationMs: number;
}

export interface NarrationRoom {
  /** how long after its beat starts a line may start (the opening: once the window has risen in) */
  leadMs: (index: number) => number;
  /** the air kept after a line before the page sets off for the next beat */
  tailMs: number;
  /** the end of the video a last line must end before (its fade-out) */
  endMs: number;
}

export function stretchForNarration(script: ActionScript, lines: LineToFit[], room: NarrationRoom): ActionScript {
  if (lines.length === 0) return script;
  const steps: ScriptStep[] = script.steps.map((step) => ({ ...step }));
  let durationMs = script.durationMs;
  lines.forEach((line, i) => {
    const from = beatIndex(steps, line.stepLabel);
    if (from === null) return;
    const nextLabel = lines.slice(i + 1).map((next) => beatIndex(steps, next.stepLabel)).find((index): index is number => index !== null && index > from);
    // At least the beat's own step: a beat whose step is itself a move has no travel of the next before it.
    const to = nextLabel === undefined ? steps.length : Math.max(from + 1, travelStart(steps, nextLabel));
    const startMs = from < steps.length && line.stepLabel !== null ? steps[from]!.startMs : 0;
    const boundary = to < steps.length ? steps[to]!.startMs : durationMs - room.endMs;
    const missing = Math.ceil(startMs + room.leadMs(i) + line.durationMs + room.tailMs - boundary);
    if (missing <= 0) return;
    const dwell = lastWait(steps, from, to);
    if (dwell !== null) {
      steps[dwell]!.durationMs += missing;
      shiftAfter(steps, dwell + 1, missing);
    } else {
      const at = to < steps.length ? steps[to]!.startMs : Math.max(startMs, ...steps.map((step) => step.startMs + step.durationMs));
      const label = line.stepLabel ?? steps[0]?.label ?? 'Narration';
      shiftAfter(steps, to, missing);
      steps.splice(to, 0, { kind: 'wait', label, startMs: at, durationMs: missing });
    }
    durationMs += missing;
  });
  return { ...script, steps, durationMs };
}

/** Where a beat's steps begin: its step (by the plan's label); 0 for the opening; null when the script has none. */
function beatIndex(steps: ScriptStep[], stepLabel: string | null): number | null {
  if (stepLabel === null) return 0;
  const index = steps.findIndex((step) => step.label === stepLabel);
  return index < 0 ? null : index;
}

/** The scrolls and moves that lead to a beat's step are the travel out of the beat before (story-text/chapters.ts). */
function travelStart(steps: ScriptStep[], index: number): number {
  let start = index;
  while (start > 0 && (steps[start - 1]!.kind === 'scroll' || steps[start - 1]!.kind === 'move')) start--;
  return start;
}

function lastWait(steps: ScriptStep[], from: number, to: number): number | null {
  for (let i = to - 1; i >= from; i--) if (steps[i]!.kind === 'wait') return i;
  return null;
}

function shiftAfter(steps: ScriptStep[], from: number, byMs: number): void {
  for (let i = from; i < steps.length; i++) steps[i]!.startMs += byMs;
}
