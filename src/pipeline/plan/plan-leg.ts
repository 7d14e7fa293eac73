import type { DemoPlan, LinkedPage, OutlineForm, PageOutline, PlanStep } from '../types.js';
import { type FlowExit, type FlowPurpose, flowExit } from './flow-exit.js';
import { answerElsewhere } from './linked-answer.js';
import { appActions } from './app-actions.js';
import { appForms } from './app-forms.js';
import { estimatePlan } from './fit.js';
import { beatsOf } from './not-found.js';
import { fillForm } from './form-fill.js';
import { panelAsked, panelSteps } from './panel-toggle.js';
import { stop } from './lexicon.js';
import { promptWords, stem } from './prompt-words.js';
import { promptSubjects } from './section-meaning.js';
import { type NamedValues, namesValues } from './named-values.js';
import { keywords } from './text-match.js';
import type { PlanInput } from './heuristic-planner.js';
import type { Planner } from './planner.js';

/**
 * Issue 56: a flow is planned a page at a time, on the page as the recording finds it (the next page is analysed
 * only once the link to it has been followed). Each leg is one of:
 *   leave    the beats this page answers (if any), then the link to the next page (flow-exit.ts);
 *   fill     the form the prompt names values for, or that its purpose needs (form-fill.ts); or the app's own
 *            actions it asks for, in order (app-actions.ts: add items, tick one off, clear the finished ones; app-forms.ts:
 *            an app's forms sent one after another, a budget set, then an expense logged);
 *   show     the rest of the prompt on this page, as a one-page demo plans it.
 * The first leg that neither leaves nor fills is not a flow: the demo is planned as it always was.
 */
export interface LegPlan {
  plan: DemoPlan;
  kind: 'leave' | 'fill' | 'show';
  /** leave: what the next page is to show */
  exit?: FlowExit;
  /** fill: the values typed that the video should show (passwords excepted) */
  shown?: string[];
  /** fill: the form is sent and the prompt goes on on its answer ("… and land on the analytics dashboard") */
  after?: string;
  /** fill: the form sent is a search: its results are held as the demo's end */
  searched?: boolean;
}

export interface LegInput {
  planner: Planner;
  base: PlanInput;
  outline: PageOutline;
  /** the prompt's part for this page */
  prompt: string;
  values: NamedValues;
  /** why the previous page came here (the purpose of the link followed), null on the first page */
  purpose: FlowPurpose | null;
  sameSite(url: string): boolean;
  allowSubmit: boolean;
  /** the video's time not yet spent by the legs before: a leg that leaves takes a share, the last one the rest */
  remainingMs: number;
  /** legs left after this one, counting none: a page at the limit shows its part instead of leaving */
  mayLeave: boolean;
  /** what the pages its menu links to say (analyse/linked-pages.ts), when they were read */
  linked?: LinkedPage[];
}

/** A look at the page before the cursor sets off (the direction's opening: the page is readable, ~1 s). */
const LOOK_MS = 900;
/** What leaving takes at least: the cursor to the link, a beat on it, the click. */
export const LEAVE_MS = 2_200;
/** Opening a closed menu first: the cursor to its control, the click, the menu unfolding. */
const MENU_MS = 1_300;
/** What a beat shown before leaving needs: the shot, readable, and the travel to it. */
const BEAT_MS = 3_200;

/** Whether the prompt asks for a flow on this page at all: a link to follow, or values to type into a form here. */
export function startsFlow(prompt: string, outline: PageOutline, values: NamedValues, sameSite: (url: string) => boolean, linked: LinkedPage[] = []): boolean {
  if (flowExit(prompt, outline, sameSite)) return true;
  if (appActions(prompt, outline) || appForms(prompt, outline, values)) return true;
  if (namesValues(values) && fillForm(outline, values, null, { allowSubmit: false }) !== null) return true;
  if (panelAsked(prompt, outline)) return true;
  return answerElsewhere(prompt, outline, sameSite, linked) !== null;
}

/** A leg that leaves: the beats this page answers first (if any), a closed menu opened, then the link followed. */
async function leave(input: LegInput, exit: FlowExit): Promise<LegPlan> {
  const { outline } = input;
  const beforeSteps: PlanStep[] = [];
  let basePlan: DemoPlan | null = null;
  let budgetMs = LOOK_MS + LEAVE_MS + (exit.link.opener ? MENU_MS * (1 + (exit.link.thenOpen?.length ?? 0)) : 0);
  if (exit.before) {
    const beats = exit.before.split(', then ').length;
    budgetMs = Math.round(Math.max(LEAVE_MS + BEAT_MS, Math.min(input.remainingMs * 0.6, LEAVE_MS + BEAT_MS * beats)));
    basePlan = await input.planner.plan({ ...input.base, outline, prompt: exit.before, durationTarget: budgetMs - LEAVE_MS });
    beforeSteps.push(...basePlan.steps);
  } else {
    beforeSteps.push({ action: 'pause', label: `Look at "${outline.title || 'the page'}"`, holdMs: LOOK_MS });
  }
  // A link in a closed menu: the menu is opened on camera first (a real click: it only opens the menu; or the pointer
  // rests on a dropdown's link, which a click would follow).
  const opening: PlanStep[] = [exit.link.opener, ...(exit.link.thenOpen ?? [])].flatMap((control) => {
    if (!control) return [];
    const { hover, ...target } = control as typeof control & { hover?: true };
    return [{ action: hover ? ('hover' as const) : ('click' as const), target, label: `Open the menu "${control.label}"` }];
  });
  const { opener: _opener, thenOpen: _thenOpen, ...link } = exit.link;
  const steps: PlanStep[] = [...beforeSteps, ...opening, { action: 'navigate', target: link, href: exit.link.href, label: `Open "${exit.link.label}"` }];
  return { kind: 'leave', exit, plan: legPlan(basePlan, steps, budgetMs, basePlan?.templateId ?? 'guided-tour') };
}

export async function planLeg(input: LegInput): Promise<LegPlan> {
  const { outline, values } = input;
  const exit = input.mayLeave ? flowExit(input.prompt, outline, input.sameSite) : null;
  if (exit) return leave(input, exit);
  const app = appActions(input.prompt, outline) ?? appForms(input.prompt, outline, values);
  if (app) {
    const steps: PlanStep[] = [{ action: 'pause', label: `Look at "${outline.title || 'the page'}"`, holdMs: LOOK_MS }, ...app.steps];
    const plan = legPlan(null, steps, 0, 'conversion-flow');
    return { kind: 'fill', shown: app.shown, plan: { ...plan, durationMs: lastLegMs(plan, outline, input.remainingMs) } };
  }
  const fill = namesValues(values) || input.purpose === 'sign-in' || input.purpose === 'sign-up' || input.purpose === 'contact'
    ? fillForm(outline, values, input.purpose, { allowSubmit: input.allowSubmit, goesOn: goesOnAfter(input.prompt) !== null, creates: CREATES.test(input.prompt), prompt: input.prompt })
    : null;
  if (fill) {
    // Arrived here by a link ("go to the contact page and …"): where the demo is, is read first when the page's title
    // is a part of its own above the form (a contact page's masthead), then the form is filled.
    const arrival = input.purpose !== null ? arrivalSteps(outline).filter((step) => step.action !== 'focus' || !fill.steps.some((s) => s.action === 'focus' && s.sectionId === step.sectionId)) : [];
    // A page arrived at whose top has no heading of its own (a settings card that opens on its photo and buttons) is
    // still read before the typing starts: a glance of 0.9 s left it unread.
    const look = input.purpose !== null ? ARRIVAL_MS - 600 : LOOK_MS;
    const opening: PlanStep[] = arrival.length === 2 ? arrival : [{ action: 'pause', label: `Look at "${outline.title || 'the page'}"`, holdMs: look }];
    // After the page's title was read, the typing goes straight to the first field (which brings the form into view):
    // a shot of the whole form between them took the title out of view before it had been read for long enough.
    const typing = arrival.length === 2 && fill.steps[0]?.action === 'focus' ? fill.steps.slice(1) : fill.steps;
    const steps: PlanStep[] = [...opening, ...typing];
    const plan = legPlan(null, steps, 0, 'conversion-flow');
    const after = fill.submits ? goesOnAfter(input.prompt) : null;
    return { kind: 'fill', shown: fill.shown, ...(after ? { after } : {}), ...(fill.searches ? { searched: true } : {}), plan: { ...plan, durationMs: lastLegMs(plan, outline, input.remainingMs) } };
  }
  // "Bring up my stats": the app's "Stats" button pressed, and the panel it shows held (panel-toggle.ts).
  const panel = panelAsked(input.prompt, outline);
  if (panel) {
    const look = input.purpose !== null ? arrivalSteps(outline) : [];
    const steps: PlanStep[] = [...(look.length === 2 ? look : [{ action: 'pause' as const, label: `Look at "${outline.title || 'the page'}"`, holdMs: LOOK_MS }]), ...panelSteps(panel)];
    const plan = legPlan(null, steps, 0, 'guided-tour');
    return { kind: 'fill', shown: [], plan: { ...plan, durationMs: lastLegMs(plan, outline, input.remainingMs) } };
  }
  // "Where do I change my password?" on a settings page whose password form is behind its "Security" tab: the tab is
  // opened and the form held (nothing typed: the prompt names no values).
  const hidden = hiddenFormAsked(input.prompt, outline);
  if (hidden?.opener) {
    const look = input.purpose !== null ? arrivalSteps(outline) : [];
    const steps: PlanStep[] = [
      ...(look.length === 2 ? look : [{ action: 'pause' as const, label: `Look at "${outline.title || 'the page'}"`, holdMs: LOOK_MS }]),
      { action: 'click', target: hidden.opener, label: `Open "${hidden.opener.label}"` },
      { action: 'pause', label: `Hold on "${hidden.label}"`, holdMs: HIDDEN_HOLD_MS },
    ];
    const plan = legPlan(null, steps, 0, 'guided-tour');
    return { kind: 'fill', shown: [], plan: { ...plan, durationMs: lastLegMs(plan, outline, input.remainingMs) } };
  }
  // Nothing here answers a beat that the page behind a menu link does ("what time does the cafe open" → "Store").
  const elsewhere = input.mayLeave && input.linked ? answerElsewhere(input.prompt, outline, input.sameSite, input.linked) : null;
  if (elsewhere) return leave(input, elsewhere);
  const budgetMs = Math.max(MIN_SHOW_MS, input.remainingMs);
  // On a page the prompt sent the demo to, a beat that only names the page ("show me the grid docs") is answered by
  // arriving: the rest is planned, or the camera went down to the part asked for and back up to the title.
  // So is a beat whose answer is the part the arrival holds ("show me the colour swatches" on the "Color" page): the
  // time goes to the beats that need the camera to move ("…the darkest teal text" is its "Text Color" further down).
  const asked = input.purpose === 'page' ? beatsOf(input.prompt).filter((beat) => !namesPage(beat.text, outline) && !answeredByArrival(beat.text, outline)) : [];
  const prompt = asked.length > 0 && arrivalSteps(outline).length > 0 ? asked.map((beat) => beat.text).join(', then ') : input.prompt;
  const shown = await input.planner.plan({ ...input.base, outline, prompt, durationTarget: budgetMs });
  // A page the prompt sent the demo to ("take me to the about page", "bring up the pricing page"): where it has
  // arrived is read first (its title at the top, pushed in on), then what the prompt asks of it.
  const arrival = input.purpose === 'page' ? arrivalSteps(outline) : [];
  const arrivalMs = arrival.length > 0 ? ARRIVAL_MS : 0;
  // A beat that names the page itself ("land on the analytics dashboard" on the page titled "Dashboard - Analytics") is
  // answered by arriving there: no part of the page is missing for it.
  const notFound = input.purpose === 'page' ? shown.notFound?.filter((entry) => !namesPage(entry.clause, outline)) : shown.notFound;
  const { notFound: _notFound, ...rest } = shown;
  return { kind: 'show', plan: { ...rest, ...(notFound?.length ? { notFound } : {}), steps: [...arrival, ...shown.steps], durationMs: budgetMs + arrivalMs } };
}

/**
 * Where a prompt goes once its form is sent: "log in with … and land on the analytics dashboard", "sign in, then open
 * the reports" → "the analytics dashboard", "open the reports". Ending on the form itself ("… and end on the filled
 * form") goes nowhere.
 */
const GOES_ON = /\b(?:and|then|to)\s+((?:land(?:s|ing)?\s+(?:on|in|at)|get(?:s|ting)?\s+(?:in)?to|arriv(?:e|es|ing)\s+(?:at|on|in)|end(?:s|ing)?\s+up\s+(?:on|at|in)|reach(?:es|ing)?|go(?:es|ing)?\s+(?:on\s+)?to|open(?:s|ing)?|see(?:s|ing)?|view(?:s|ing)?)\s+.{3,})$/iu;

/** A prompt that makes something with a form: "save a note titled …", "jot down a reminder", "post a comment". */
const CREATES = /\b(?:save|add|create|post|jot(?:s|ting)? down|write down|put|make)\b[^.;]{0,40}?\b(?:notes?|tasks?|items?|entry|entries|events?|reminders?|to-?dos?|cards?|comments?)\b/i;

export function goesOnAfter(prompt: string): string | null {
  const after = GOES_ON.exec(prompt.trim())?.[1]?.replace(/[.!]+$/, '').trim() ?? null;
  return after && !/\bform\b/i.test(after) ? after : null;
}

/** Words that say a page is one, not which: "the grid docs", "the pricing page". */
const PAGE_WORDS = new Set(['doc', 'docs', 'documentation', 'guide', 'reference', 'page', 'screen', 'tab', 'view', 'section']);

function namesPage(clause: string, outline: PageOutline): boolean {
  const title = new Set(promptWords(outline.title).map(stem));
  const asked = promptWords(clause).filter((word) => !stop.has(word) && !PAGE_WORDS.has(word)).map(stem);
  return asked.length > 0 && asked.every((word) => title.has(word));
}

/** The beat's best answer on this page is the part its arrival focuses on. */
function answeredByArrival(clause: string, outline: PageOutline): boolean {
  const arrival = arrivalSteps(outline)[0];
  if (!arrival || arrival.action !== 'focus') return false;
  const meaning = promptSubjects(clause, outline);
  const best = [...meaning.subjects, ...(meaning.endsOn ? [meaning.endsOn] : [])].sort((a, b) => b.confidence - a.confidence)[0];
  return best !== undefined && best.section.id === arrival.sectionId;
}

/** How long a page arrived at is held on its title before the demo moves on: ≥ 3 s readable once the dissolve from the page before has ended. */
const ARRIVAL_MS = 3_800;

/** The page's first part, when it opens the page and has a heading: focused on and held. */
function arrivalSteps(outline: PageOutline): PlanStep[] {
  const first = [...outline.sections].sort((a, b) => a.rect.y - b.rect.y).find((section) => section.rect.y < outline.viewport.height * 0.5 && section.kind !== 'footer');
  if (!first?.heading?.trim()) return [];
  return [
    { action: 'focus', sectionId: first.id, label: `Arrive on "${first.heading.trim().slice(0, 60)}"` },
    { action: 'pause', label: `Read "${first.heading.trim().slice(0, 60)}"`, holdMs: ARRIVAL_MS - 600 },
  ];
}

/** A form opened to be read, not filled: long enough to read its title and fields. */
const HIDDEN_HOLD_MS = 5_200;

/**
 * A form hidden behind a tab or a button whose own words (its title, its fields, its opener) hold a word the prompt
 * asks about that no part in sight is headed by ("password" for the "Security" tab's "Change Password").
 */
function hiddenFormAsked(prompt: string, outline: PageOutline): OutlineForm | null {
  const asked = new Set(keywords(prompt).filter((word) => word.length > 3));
  const headed = new Set(outline.sections.flatMap((section) => keywords(section.heading ?? '')));
  return outline.forms.find((form) => {
    if (!form.opener) return false;
    const words = keywords(`${form.label} ${form.fields.map((field) => field.label).join(' ')}`);
    return words.some((word) => asked.has(word) && !headed.has(word));
  }) ?? null;
}

/** The last page shown, however little time the legs before left: its beat readable, and a moment more. */
const MIN_SHOW_MS = 4_000;

/**
 * The last leg takes the time left, or what its steps take at their natural pace when that is more (a flow runs long,
 * not rushed). Measured by the timing the script is compiled with, not guessed: a guess above it was handed out as
 * dwells and a long still hold on the filled form (a 10 s flow ran 20 s, 7 s of it on the submit button).
 */
function lastLegMs(plan: DemoPlan, outline: PageOutline, remainingMs: number): number {
  return Math.round(Math.max(remainingMs, estimatePlan(plan.steps, outline, remainingMs, plan.templateId).naturalMs));
}

function legPlan(base: DemoPlan | null, steps: PlanStep[], budgetMs: number, templateId: DemoPlan['templateId']): DemoPlan {
  return {
    templateId,
    autoSelection: base?.autoSelection ?? null,
    sectionHint: base?.sectionHint ?? null,
    durationMs: budgetMs,
    source: base?.source ?? 'heuristic',
    steps,
    ...(base?.notFound ? { notFound: base.notFound } : {}),
    ...(base?.captionDrafts ? { captionDrafts: base.captionDrafts } : {}),
  };
}
