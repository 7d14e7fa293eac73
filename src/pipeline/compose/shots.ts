import type { InteractionTimeline, Rect } from '../types.js';
import { stepUnderWay } from '../timeline-steps.js';

/**
 * The shot planner: which moments of the recording the camera follows (clicks, typing, hovered targets, and the
 * sections the plan framed), and how they group into shots. A shot is the time the plan spends on one focused
 * section, until the page next scrolls; everything done inside it becomes one zoom (asShots). Where and how the view
 * moves to show them is the zoom path's business (zoom-path.ts).
 */

/** An action's zoom lasts at most this long past its arrival (then the hold and the way out): ~2 s per action. */
const MAX_ACTION_MS = 800;

export interface ZoomAction {
  t: number;
  until: number;
  /** composed-frame pixels */
  x: number;
  y: number;
  kind: 'click' | 'type' | 'hover' | 'focus';
  /** the focused element's size (viewport px), for a zoom that keeps it whole */
  fit?: { width: number; height: number };
  /** a slow push-in: how long the zoom takes to come in (else the style's transition) */
  inMs?: number;
}

/**
 * A shot's push-in comes in over half the shot (at least the style's transition, at most PUSH_MAX_MS), and
 * holds until just before the page travels on: a slow push that keeps the picture alive while the beat is read,
 * where a quick zoom in and out left the rest of a long hold still.
 */
const PUSH_SHARE = 0.75;
const PUSH_MAX_MS = 5500;
/** the zoom's hold and way out after `until` (zoom-path.ts: HOLD_MS plus the default transition) */
const OUT_MS = 1600;
/** as the camera's OVERVIEW_TAIL_MS: the last shot is back on the whole window this long before the end */
const TAIL_MS = 700;

/** The actions the camera follows, in viewport coordinates, in time order. */
export function zoomActions(timeline: InteractionTimeline): ZoomAction[] {
  const actions: ZoomAction[] = [];
  // The step under way at t; at a boundary the one starting then (a focus is reported as its step begins).
  const stepAt = (t: number) => stepUnderWay(timeline, t);
  // When the page changed: the end of each step that followed a link (record/follow-link.ts).
  const pageChanges = timeline.steps.filter((s) => s.kind === 'navigate').map((s) => s.endMs).sort((a, b) => a - b);
  // The sections the plan framed: each is a shot, and the zooms inside it become one (asShots).
  const sectionFocus = focusedSections(timeline, stepAt);
  // An action the plan then holds on (a wait right after its step: the finished list, the filled form): the zoom
  // stays on what was just done until the hold ends, instead of drifting out while the viewer reads it.
  const heldUntil = (t: number, fallback: number): number => {
    const step = stepAt(t);
    const next = step ? timeline.steps.find((s) => s.index === step.index + 1) : undefined;
    return next?.kind === 'wait' ? Math.max(fallback, next.endMs - 300) : fallback;
  };
  for (const click of timeline.clicks) actions.push({ t: click.t, until: heldUntil(click.t, click.t), x: click.x, y: click.y, kind: 'click' });
  // Typing: runs of keystrokes, centred on the field being typed into.
  let run: { t: number; until: number } | null = null;
  const flush = () => {
    if (!run) return;
    const field = [...timeline.focus].reverse().find((f) => f.t <= run!.t);
    const click = [...timeline.clicks].reverse().find((c) => c.t <= run!.t);
    // Centred on the field, as before, and only as close as keeps its form's title in view when the recorder found
    // one (InteractionTimeline.focus `frame`), with as much room below the field as above: what the typing adds to
    // (an app's list under its box) stays in view as the title does.
    const point = field ? { x: field.rect.x + field.rect.width / 2, y: field.rect.y + field.rect.height / 2 } : click ?? null;
    const frame = field?.frame;
    const fit = frame && point
      ? {
          width: 2 * Math.max(point.x - frame.x, frame.x + frame.width - point.x) + 96,
          height: 2 * Math.max(point.y - frame.y, frame.y + frame.height - point.y) + 48,
        }
      : undefined;
    if (point) actions.push({ t: run.t, until: heldUntil(run.until, Math.min(run.until, run.t + MAX_ACTION_MS * 2)), x: point.x, y: point.y, kind: 'type', ...(fit ? { fit } : {}) });
    run = null;
  };
  for (const key of timeline.keystrokes) {
    if (run && key.t - run.until < 800) run.until = key.t;
    else {
      flush();
      run = { t: key.t, until: key.t };
    }
  }
  flush();
  // Hovers (the target the cursor rests on) and focused sections (the cursor moves to the section's focal
  // element, then the plan dwells there; zoomed only as far as the element stays whole).
  for (const focus of timeline.focus) {
    const step = stepAt(focus.t);
    if (!step) continue;
    const next = timeline.steps.find((s) => s.index === step.index + 1);
    const hover = step.kind === 'hover';
    const dwell = step.kind === 'move' && next?.kind === 'wait' ? next : null;
    if (!hover && !dwell) continue;
    const arrive = timeline.cursor.filter((c) => c.t >= focus.t && c.t <= step.endMs).at(-1)?.t ?? focus.t;
    const until = hover ? heldUntil(focus.t, Math.min(Math.max(arrive, step.endMs - 300), arrive + MAX_ACTION_MS)) : Math.min(Math.max(arrive, (dwell ?? step).endMs - 300), arrive + MAX_ACTION_MS);
    const centre = { x: focus.rect.x + focus.rect.width / 2, y: focus.rect.y + focus.rect.height / 2 };
    // A hover too is zoomed only as far as its element stays whole: a heading's box spans its section's width, and
    // a zoom at full intensity on its middle cut the words at its start off (seen on a sponsors heading).
    const fit = { width: focus.rect.width, height: focus.rect.height };
    if (hover) actions.push({ t: arrive, until, ...centre, kind: 'hover', fit });
    else actions.push({ t: arrive, until, ...centre, kind: 'focus', fit });
  }
  // The button pointed at after a form is filled ("Send message", not pressed) is shown with the form, not alone: a
  // zoom on the button by itself cut the form's title and the typed values off for the whole closing hold.
  for (const hover of actions) {
    if (hover.kind !== 'hover') continue;
    const typed = actions.filter((a) => a.kind === 'type' && a.t < hover.t && hover.t - a.until < 3000).at(-1);
    if (!typed) continue;
    const box = (a: ZoomAction) => ({ left: a.x - (a.fit?.width ?? 0) / 2, right: a.x + (a.fit?.width ?? 0) / 2, top: a.y - (a.fit?.height ?? 0) / 2, bottom: a.y + (a.fit?.height ?? 0) / 2 });
    const [a, b] = [box(typed), box(hover)];
    const union = { left: Math.min(a.left, b.left), right: Math.max(a.right, b.right), top: Math.min(a.top, b.top), bottom: Math.max(a.bottom, b.bottom) };
    hover.x = (union.left + union.right) / 2;
    hover.y = (union.top + union.bottom) / 2;
    hover.fit = { width: union.right - union.left, height: union.bottom - union.top };
  }
  // A zoom never holds across a page change (a flow's link followed): the new page comes in on the whole window, and
  // its own shot pushes in from there. Held on, the zoom on the clicked link ran into the next page's shot as one
  // pan, and the arrival, already magnified, stood still for seven seconds.
  for (const action of actions) {
    const change = pageChanges.find((at) => at > action.t);
    if (change !== undefined) action.until = Math.min(action.until, Math.max(action.t, change - 1));
  }
  // A click that is part of typing (clicking into the field) is not a zoom of its own.
  const zooms = actions
    .filter((a) => a.kind !== 'click' || !actions.some((b) => b.kind === 'type' && b.t >= a.t && b.t - a.t < 1500))
    .sort((a, b) => a.t - b.t);
  return asShots(zooms, sectionFocus, timeline);
}

/**
 * One zoom per shot. A shot is the time the plan spends on a focused section, from the moment it frames it until
 * the page next scrolls. The hovers, clicks and typing inside it do not each zoom in and out (in, out, in, out
 * within six seconds, cropping the heading and the outer cards): they become one zoom whose view keeps the
 * section's framed part (its heading and key content) and every action whole, and so magnifies only as far as
 * all of them fit. A section that fills most of the view (a pricing table's row of plans) is not zoomed at all.
 */
function asShots(actions: ZoomAction[], focused: Array<{ t: number; rect: Rect }>, timeline: InteractionTimeline): ZoomAction[] {
  const shots = focused.map((focus) => ({
    from: focus.t,
    to: timeline.scrolls.find((s) => s.t > focus.t)?.t ?? Infinity,
    rect: focus.rect,
  }));
  const out: ZoomAction[] = [];
  const taken = new Set<ZoomAction>();
  for (const shot of shots) {
    const inside = actions.filter((a) => !taken.has(a) && a.t >= shot.from && a.t < shot.to);
    if (inside.length === 0) continue;
    for (const a of inside) taken.add(a);
    const box = { left: shot.rect.x, top: shot.rect.y, right: shot.rect.x + shot.rect.width, bottom: shot.rect.y + shot.rect.height };
    for (const a of inside) {
      const half = { x: (a.fit?.width ?? 0) / 2 + 48, y: (a.fit?.height ?? 0) / 2 + 24 };
      box.left = Math.min(box.left, a.x - half.x);
      box.right = Math.max(box.right, a.x + half.x);
      box.top = Math.min(box.top, a.y - half.y);
      box.bottom = Math.max(box.bottom, a.y + half.y);
    }
    const width = box.right - box.left;
    const height = box.bottom - box.top;
    const kind = inside.some((a) => a.kind === 'type') ? 'type' : inside.some((a) => a.kind === 'click') ? 'click' : inside[0]!.kind;
    // The push-in lasts the shot: in slowly from the arrival, out before the page travels on (or the video ends).
    const start = inside[0]!.t;
    const end = Number.isFinite(shot.to) ? shot.to : timeline.durationMs - TAIL_MS;
    out.push({
      t: start,
      until: Math.max(...inside.map((a) => a.until), end - OUT_MS),
      x: box.left + width / 2,
      y: box.top + height / 2,
      kind,
      fit: { width, height },
      inMs: Math.min(PUSH_MAX_MS, Math.max(0, (end - start) * PUSH_SHARE)),
    });
  }
  return [...out, ...actions.filter((a) => !taken.has(a))].sort((a, b) => a.t - b.t);
}

/** Sections the plan focused on (a move followed by a dwell): when, and the part of the view framed (its heading on). */
function focusedSections(
  timeline: InteractionTimeline,
  stepAt: (t: number) => InteractionTimeline['steps'][number] | null,
): Array<{ t: number; rect: Rect }> {
  return timeline.focus.flatMap((focus) => {
    const step = stepAt(focus.t);
    const next = step ? timeline.steps.find((s) => s.index === step.index + 1) : undefined;
    if (step?.kind !== 'move' || next?.kind !== 'wait') return [];
    return [{ t: focus.t, rect: focus.rect }];
  });
}
