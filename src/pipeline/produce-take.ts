import path from 'node:path';
import type { Page } from 'puppeteer-core';
import type { Presentation } from '../demos/presentation.js';
import { extractOutline } from './analyse/outline.js';
import { checkTake, takeCheckEntry, type TakeCheck } from './compose/take-check.js';
import { mainSection } from './plan/main-section.js';
import { compileScript, compileStep } from './plan/compile.js';
import type { PlanInput } from './plan/heuristic-planner.js';
import type { Planner } from './plan/planner.js';
import { recordScript, type RecordResult, type RecordWatcher } from './record/recorder.js';
import { asRecorded, discardTake, layoutFindings, measureLayout, retakeEntry, sameScript, takeScore } from './retake.js';
import { storyBeats } from './story-text/beats.js';
import type { StoryText } from './story-text/types.js';
import type { ActionScript, DemoPlan, OutlineSection, PageOutline, PlanStep, Resolution, ScriptStep, ViewportName } from './types.js';

/**
 * Takes (produce-recording.ts's recording stage): one take of a script on the page, and the service's check of its
 * own take, with a second take when the first missed its bar because the page's layout was not the one planned for.
 */

/** Records one take of a script on the page; `retake` for a second take (or a flow's later leg). */
export type TakeOnce = (script: ActionScript, outFile: string, retake?: boolean) => Promise<RecordResult>;

/**
 * The take recorder of one demo. A second take reports no progress of its own: the job's bar holds where the first
 * take left it, not back to 0. In agent mode (a plan made as it records), each step after the plan's is planned on
 * the page as it is then, until time runs out.
 */
export function takeRecorder(options: {
  page: Page;
  request: { prompt: string; resolution: Resolution };
  captureSize: { width: number; height: number };
  planner: Planner;
  /** the agent's plan, or null when the script is recorded as it is */
  agentPlan: DemoPlan | null;
  /** the compose-ahead watcher fed by the first take, while there is one (compose-ahead.ts) */
  live: () => RecordWatcher | null;
  report: (fraction: number) => void;
}): TakeOnce {
  const { page, request, planner, agentPlan: plan } = options;
  const history: PlanStep[] = [...(plan?.steps ?? [])];
  const pending: ScriptStep[] = [];
  return (takeScript, outFile, retake = false) => {
    const live = retake ? null : options.live();
    return recordScript(page, takeScript, {
      format: 'capture',
      ...(live ? { live } : {}),
      resolution: request.resolution,
      captureSize: options.captureSize,
      outFile,
      onProgress: (fraction) => void (retake ? undefined : options.report(fraction)),
      ...(plan
        ? {
            nextAgentStep: async (context) => {
              if (pending.length > 0) return pending.shift()!;
              const observed = await extractOutline(page);
              const step = planner.nextStep({
                prompt: request.prompt,
                outline: observed,
                history,
                remainingMs: context.remainingMs,
                template: { id: plan.templateId, sectionHint: plan.sectionHint },
              });
              if (!step) return null;
              history.push(step);
              const compiled = compileStep(step, observed, { remainingMs: context.remainingMs, templateId: plan.templateId });
              pending.push(...compiled.steps);
              return pending.shift() ?? null;
            },
          }
        : {}),
    });
  };
}

/** The take as it stands after its check: the second take's plan, script and files when that one was kept. */
export interface CheckedTake<V> {
  outline: PageOutline;
  plan: DemoPlan;
  /** the main section of the second take's plan, when it was kept; undefined when the first take stands */
  main?: OutlineSection | null;
  script: ActionScript;
  cleanFile: string;
  recording: RecordResult;
  check: TakeCheck;
  /** the second take's spoken lines, when it was kept and narrated */
  voiced?: V;
}

/**
 * The service checks its own take as the story evaluation would, where the headings really were when it ended, and
 * says so in the recording log. A take below the bar is planned once more on that layout and recorded again
 * (retake.ts); the better of the two is kept. Agent mode plans as it records, so it has no plan to redo.
 */
export async function checkAndRetake<V>(options: {
  page: Page;
  request: { url: string; viewport: ViewportName; presentation?: Presentation | null; resolution: Resolution };
  planner: Planner;
  planInput: PlanInput;
  outline: PageOutline;
  plan: DemoPlan;
  script: ActionScript;
  cleanFile: string;
  recording: RecordResult;
  agent: boolean;
  language: string | null;
  workDir: string;
  takeOnce: TakeOnce;
  /** drops what was composed of the first take: of no use to the second (composed in one pass, as before) */
  dropAhead: () => Promise<void>;
  /** Issue 59: the second take's story may differ from the first's: its lines are spoken again for it (null: none) */
  voice: ((story: StoryText) => Promise<V>) | null;
  /** the script given room for the spoken lines (narration/stretch.ts) */
  roomFor: (script: ActionScript, voiced: V) => ActionScript;
}): Promise<CheckedTake<V>> {
  const { page, request, planner, planInput, outline: planned, plan } = options;
  let { recording } = options;
  const measured = await measureLayout(page, planned).catch(() => null);
  const scoreOn = (layout: PageOutline, takePlan: DemoPlan, take: RecordResult) =>
    checkTake({ outline: layout, plan: takePlan, timeline: take.timeline, presentation: request.presentation ?? null, resolution: request.resolution });
  const check = scoreOn(measured ? asRecorded(planned, measured) : planned, plan, recording);
  let taken: CheckedTake<V> = { outline: planned, plan, script: options.script, cleanFile: options.cleanFile, recording, check };
  // Only what the score found is worth a second take: a layout that moved, a taller header. A take that missed
  // its bar on the layout it was planned for would be planned the same way again.
  const findings = measured && !check.passed && !options.agent ? layoutFindings(planned, measured, check) : [];
  if (measured && findings.length > 0) {
    const replanned = await planner.plan({ ...planInput, outline: measured });
    const rescript = compileScript(replanned, measured, { url: request.url, viewport: request.viewport });
    if (!sameScript(options.script, rescript)) {
      // Kept, the second take's log follows the first take's steps and score; otherwise the first take's log stands.
      const firstLog = [...recording.log, takeCheckEntry(check, recording.log.length, recording.durationMs)];
      await page.evaluate(() => (document.scrollingElement ?? document.documentElement).scrollTo({ top: 0, left: 0, behavior: 'instant' }));
      await options.dropAhead();
      const retakeFile = path.join(options.workDir, 'clean-retake.mkv');
      const retakeVoiced = options.voice ? await options.voice(storyBeats(replanned, measured, options.language, planInput.prompt)) : null;
      const second = await options.takeOnce(retakeVoiced ? options.roomFor(rescript, retakeVoiced) : rescript, retakeFile, true);
      const remeasured = await measureLayout(page, measured).catch(() => measured);
      const secondCheck = scoreOn(asRecorded(measured, remeasured), replanned, second);
      const keepSecond = takeScore(secondCheck) > takeScore(check);
      await discardTake(keepSecond ? recording : second, keepSecond ? options.cleanFile : retakeFile);
      if (keepSecond) {
        const chosen = mainSection(replanned, measured);
        recording = { ...second, log: [...firstLog, ...second.log.map((entry, i) => ({ ...entry, index: firstLog.length + i }))] };
        taken = {
          outline: measured,
          main: chosen?.section ?? null,
          plan: { ...replanned, mainShot: chosen?.shot ?? null, story: storyBeats(replanned, measured, options.language, planInput.prompt) },
          script: rescript,
          cleanFile: retakeFile,
          recording,
          check: secondCheck,
          ...(retakeVoiced ? { voiced: retakeVoiced } : {}),
        };
      }
      recording.log.push(retakeEntry(recording.log.length, findings, keepSecond ? 'second' : 'first', recording.durationMs));
    }
  }
  recording.log.push(takeCheckEntry(taken.check, recording.log.length, recording.durationMs));
  return taken;
}
