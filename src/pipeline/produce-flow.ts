import type { Page } from 'puppeteer-core';
import { analysePage, preparePage } from './analyse/index.js';
import { assertRecordablePage } from './analyse/recordable-page.js';
import { checkTake, type TakeCheck } from './compose/take-check.js';
import { compileScript } from './plan/compile.js';
import type { FlowPurpose } from './plan/flow-exit.js';
import type { PlanInput } from './plan/heuristic-planner.js';
import { mainSection } from './plan/main-section.js';
import type { NamedValues } from './plan/named-values.js';
import { type LegPlan, planLeg } from './plan/plan-leg.js';
import type { Planner } from './plan/planner.js';
import { endOnNavigate, legsOf, type RecordedFlow, recordFlow } from './record/record-flow.js';
import type { RecordResult } from './record/recorder.js';
import { arrivalName } from './story-text/arrival-name.js';
import { storyBeats } from './story-text/beats.js';
import { wrapCaption } from './story-text/captions.js';
import type { StoryBeat, StoryText } from './story-text/types.js';
import type { ActionScript, DemoPlan, LinkedPage, OutlineSection, PageOutline, RecordingLogEntry, Resolution, ViewportName } from './types.js';
import type { Presentation } from '../demos/presentation.js';
import type { FlowPage } from './fingerprint/index.js';

/**
 * Issue 56: a demo that goes where the prompt goes. The first page is analysed already; each leg is planned on its
 * page (plan/plan-leg.ts), recorded, and its link followed (record/record-flow.ts); the next page is analysed as the
 * first was. What a one-page demo holds of its plan (the story's beats, the main shot, the take's check) is made
 * leg by leg and joined: the check scores the flow's last beat on the page where it ends.
 */
export interface FlowStart {
  outline: PageOutline;
  language: string | null;
  base: PlanInput;
  values: NamedValues;
  viewport: ViewportName;
  totalMs: number;
  allowSubmit: boolean;
  sameSite(url: string): boolean;
  /** what the first page's menu links lead to (analyse/linked-pages.ts) */
  linked?: LinkedPage[];
}

export interface ProducedFlow {
  flow: RecordedFlow;
  /** the flow's plan, stored with the demo: every leg's steps in order, the story joined */
  plan: DemoPlan;
  /** the page the flow ends on */
  outline: PageOutline;
  mainSection: OutlineSection | null;
  check: TakeCheck;
  /** the values typed that a viewer reads (passwords excepted) */
  shown: string[];
  /**
   * The pages the flow reached by a link, from its first, each with its own leg's plan: what a refresh opens again
   * and compares (a page a submitted form led to is left out: it cannot be opened by its address alone).
   */
  pages: FlowPage[];
}

/** A flow runs as long as it needs, up to this many times the asked-for length (typing is not rushed). */
const MAX_STRETCH = 2.2;
/** How long the page a submitted form leads to is shown. */
const ANSWER_MS = 2_500;
/** How long a search's results are shown, at most. */
const SEARCH_RESULTS_MS = 6_000;

export async function produceFlow(
  page: Page,
  start: FlowStart,
  planner: Planner,
  record: (script: ActionScript, outFile: string, leg: number) => Promise<RecordResult>,
  options: { outFile: string; presentation: Presentation | null; resolution: Resolution },
): Promise<ProducedFlow> {
  const legs: Array<{ leg: LegPlan; outline: PageOutline; script: ActionScript }> = [];
  let spentMs = 0;
  const planOn = async (outline: PageOutline, prompt: string, purpose: FlowPurpose | null, index: number): Promise<ActionScript> => {
    const remainingMs = Math.max(0, start.totalMs - spentMs);
    const leg = await planLeg({
      planner, base: start.base, outline, prompt, values: start.values, purpose, sameSite: start.sameSite,
      allowSubmit: start.allowSubmit, remainingMs, mayLeave: index + 1 < 4 && spentMs < start.totalMs * 0.7,
      ...(index === 0 && start.linked ? { linked: start.linked } : {}),
    });
    const capped = Math.min(leg.plan.durationMs, Math.max(2_000, start.totalMs * MAX_STRETCH - spentMs));
    const plan = { ...leg.plan, durationMs: Math.round(capped) };
    let script = compileScript(plan, outline, { url: outline.url, viewport: start.viewport });
    script = endOnNavigate(script);
    // The first step on each later page names the page, so its chapter starts when it does.
    if (index > 0 && script.steps[0]) script = { ...script, steps: [{ ...script.steps[0], label: arrivalLabel(outline) }, ...script.steps.slice(1)] };
    spentMs += script.durationMs;
    legs.push({ leg: { ...leg, plan }, outline, script });
    return script;
  };

  const answerOn = (outline: PageOutline, index: number, searched: boolean): ActionScript => {
    // A search's results are what the prompt asked to see: held for what is left of the demo, a reader's time at least.
    const holdMs = searched ? Math.round(Math.min(SEARCH_RESULTS_MS, Math.max(ANSWER_MS + 1_500, start.totalMs - spentMs))) : ANSWER_MS;
    const plan: DemoPlan = {
      templateId: 'conversion-flow', autoSelection: null, sectionHint: null, durationMs: holdMs, source: 'heuristic',
      steps: [{ action: 'pause', label: searched ? 'Read the results' : 'Read the answer', holdMs: holdMs - 400 }],
    };
    let script = compileScript(plan, outline, { url: outline.url, viewport: start.viewport });
    if (script.steps[0]) script = { ...script, steps: [{ ...script.steps[0], label: arrivalLabel(outline) }, ...script.steps.slice(1)] };
    spentMs += script.durationMs;
    legs.push({ leg: { kind: 'show', plan }, outline, script });
    return script;
  };

  const first = await planOn(start.outline, start.base.prompt, null, 0);
  const flow = await recordFlow(page, first, {
    record,
    sameSite: start.sameSite,
    outFile: options.outFile,
    nextLeg: async (_followed, index) => {
      const previous = legs.at(-1)!;
      if (previous.leg.kind !== 'leave') {
        // A form submitted (the project allows it): the site's answer is shown when it is a page to show.
        const answered = await assertRecordablePage(page).then(() => true, () => false);
        if (!answered) return null;
      } else {
        await assertRecordablePage(page);
      }
      const { outline } = await analysePage(page);
      // Back at the top: the next leg starts where a visitor arriving on the page would.
      await page.evaluate(() => (document.scrollingElement ?? document.documentElement).scrollTo({ top: 0, left: 0, behavior: 'instant' }));
      if (previous.leg.kind === 'leave' && previous.leg.exit) return planOn(outline, previous.leg.exit.after, previous.leg.exit.purpose, index);
      // A form sent on the way ("log in … and land on the dashboard"): the rest of the prompt is shown on its answer.
      if (previous.leg.kind === 'fill' && previous.leg.after) return planOn(outline, previous.leg.after, 'page', index);
      return answerOn(outline, index, previous.leg.kind === 'fill' && previous.leg.searched === true);
    },
  });

  const last = legs[flow.legs.length - 1]!;
  const lastRecording = flow.legs.at(-1)!;
  const chosen = mainSection(last.leg.plan, last.outline);
  const plan: DemoPlan = {
    ...legs[0]!.leg.plan,
    durationMs: flow.script.durationMs,
    steps: legs.slice(0, flow.legs.length).flatMap(({ leg }) => leg.plan.steps),
    mainShot: chosen?.shot ?? null,
    story: joinStories(legs.slice(0, flow.legs.length), start.language, start.base.prompt),
    ...(legs.some(({ leg }) => leg.plan.notFound?.length) ? { notFound: legs.flatMap(({ leg }) => leg.plan.notFound ?? []) } : {}),
  };
  const check = checkTake({ outline: last.outline, plan: last.leg.plan, timeline: lastRecording.timeline, presentation: options.presentation, resolution: options.resolution });
  const reached = legs.slice(0, flow.legs.length);
  const pages: FlowPage[] = [];
  for (const [index, { leg, outline }] of reached.entries()) {
    if (index > 0 && reached[index - 1]!.leg.kind !== 'leave') break;
    pages.push({ outline, plan: leg.plan });
  }
  return { flow, plan, outline: last.outline, mainSection: chosen?.section ?? null, check, shown: legs.flatMap(({ leg }) => leg.shown ?? []), pages };
}

/** A restyle of a flow: the stored legs, in order, each on the page its link opens. */
export async function replayFlow(
  page: Page,
  script: ActionScript,
  record: (script: ActionScript, outFile: string, leg: number) => Promise<RecordResult>,
  options: { outFile: string; sameSite(url: string): boolean },
): Promise<RecordedFlow> {
  const stored = legsOf(script);
  return recordFlow(page, stored[0]!, {
    record,
    sameSite: options.sameSite,
    outFile: options.outFile,
    nextLeg: async (_followed, index) => {
      if (!stored[index]) return null;
      // The page as the first recording had it: overlays dismissed, lazy content loaded, back at the top.
      await preparePage(page);
      await assertRecordablePage(page);
      await page.evaluate(() => (document.scrollingElement ?? document.documentElement).scrollTo({ top: 0, left: 0, behavior: 'instant' }));
      return stored[index];
    },
  });
}

function arrivalLabel(outline: PageOutline): string {
  return `Arrive on "${(outline.title || new URL(outline.url).pathname).slice(0, 60)}"`;
}

/** Each page's beats, its opening starting when the page comes in; what was said once is not said again. */
function joinStories(legs: Array<{ leg: LegPlan; outline: PageOutline; script: ActionScript }>, language: string | null, prompt: string): StoryText {
  const beats: StoryBeat[] = [];
  let stickyHeaderHeight = 0;
  let captionsOff: string | null = null;
  legs.forEach(({ leg, outline, script }, index) => {
    const story = storyBeats(leg.plan, outline, language, prompt);
    if (index === 0) {
      stickyHeaderHeight = story.stickyHeaderHeight ?? 0;
      captionsOff = story.captionsOff;
    }
    for (const beat of story.beats) {
      // A page the flow arrives on is a section of the story, as one scrolled to is: named by the page (not the
      // whole <title>, which often names only the site), a chapter from its first step, and in the demo's title.
      const arrival = index > 0 && beat.kind === 'opening' ? (arrivalName(outline, legs[0]!.outline, prompt) ?? beat.title) : null;
      const placed: StoryBeat = arrival !== null ? { ...beat, kind: 'section', title: arrival, stepLabel: script.steps[0]?.label ?? null, ...(beat.sectionId === null && beat.captionBy === 'rules' ? { caption: wrapCaption(arrival) } : {}) } : beat;
      if (beats.some((b) => sameWords(b.title) === sameWords(placed.title))) continue;
      beats.push(placed);
    }
  });
  return { language, beats, captionsOff, stickyHeaderHeight };
}

const sameWords = (text: string) => text.toLocaleLowerCase('en').replace(/[^\p{L}\p{N}]+/gu, ' ').trim();

/**
 * The pages a flow may go to: the demo's own site. Its host with or without "www.", on the same scheme and port;
 * never another site a page links to.
 */
export function sameSiteAs(url: string): (candidate: string) => boolean {
  const home = new URL(url);
  const hostKey = (host: string) => host.replace(/^www\./, '');
  return (candidate) => {
    try {
      const target = new URL(candidate, url);
      return target.protocol === home.protocol && target.port === home.port && hostKey(target.hostname) === hostKey(home.hostname);
    } catch {
      return false;
    }
  };
}

/** Issue 56: each page the flow went to, in the recording log. */
export function flowEntries(pages: string[], recording: RecordResult): RecordingLogEntry[] {
  return pages.slice(1).map((url, i) => ({
    index: recording.log.length + i,
    action: 'page',
    target: `The flow went on to page ${i + 2}: ${url}`,
    startMs: 0,
    endMs: Math.round(recording.durationMs),
    ok: true,
  }));
}
