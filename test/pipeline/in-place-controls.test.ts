import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import path from 'node:path';
import { describe, it } from 'node:test';
import { analysePage } from '../../src/pipeline/analyse/analyse-page.js';
import { planDemo } from '../../src/pipeline/plan/heuristic-planner.js';
import { pageWorkBudgetMs, produceRecording, recordingCaptureSize } from '../../src/pipeline/produce-recording.js';
import type { PageOutline, PlanStep } from '../../src/pipeline/types.js';
import { heuristicPlanner, recordingRig } from '../helpers/recording-rig.js';

/**
 * Interactions that show (issue 33, item 3): a conference page whose parts change in place (test/fixtures/sites/
 * in-place): the programme's days are tabs, the questions open, the passes switch to team prices, the quotes turn.
 * The analysis finds each control, never a link away, a submit button or the menu's toggler; the plan clicks the one
 * of the part it shows, last before the dwell; and the recording clicks it, so the page answers on camera and stays
 * where it is.
 */
describe('controls that change the page in place', () => {
  const rig = recordingRig('showreel-in-place-');
  const pageOptions = { viewport: 'desktop', resolution: '720p', allowPrivate: true, captureSize: recordingCaptureSize(null, '720p', 'desktop'), timeoutMs: pageWorkBudgetMs('10s') } as const;
  let outline: PageOutline;

  it('are found in each part by role and structure: the next tab, a closed question, the prices\' switch, the next quote', async () => {
    outline = await rig.browsers.withPage(pageOptions, async (page, ctx) => {
      await ctx.goto(rig.sites.url('in-place'), { waitUntil: 'load' });
      return (await analysePage(page)).outline;
    });
    const controls = Object.fromEntries(outline.sections.map((s) => [s.id, (s.controls ?? []).map((c) => `${c.kind}: ${c.label}`)]));
    assert.deepEqual(controls.programme, ['tab: Friday'], 'the day not shown yet; not the link to the speakers\' page');
    assert.deepEqual(controls.questions, ['disclosure: Is there a livestream?']);
    assert.deepEqual(controls.passes, ['switch: Team pricing'], 'the switch, not the form\'s submit button');
    assert.deepEqual(controls.voices, ['next-slide: Next quote'], 'the next arrow, not the previous one');
    assert.ok(outline.sections.every((s) => !(s.controls ?? []).some((c) => c.label === 'Menu')), 'the header\'s menu toggler is no part\'s');
  });

  const clicks = (steps: PlanStep[]) => steps.flatMap((step) => (step.action === 'click' ? [step.target.label] : []));
  const plan = (prompt: string) => planDemo({ prompt, outline, durationTarget: '10s', template: { id: 'auto' }, mode: 'script' });

  it('are clicked by the shot of their part, after it is framed and before the dwell', () => {
    const programme = plan('Show the schedule for each day');
    assert.deepEqual(clicks(programme.steps), ['Friday']);
    // The other day's tab is no button to point at: it is part of the control.
    assert.ok(!programme.steps.some((step) => step.action === 'hover' && step.target.label === 'Thursday'));
    const actions = programme.steps.map((step) => step.action);
    assert.ok(actions.indexOf('focus') < actions.indexOf('click') && actions.lastIndexOf('pause') > actions.indexOf('click'), actions.join(' '));
    assert.deepEqual(clicks(plan('How much does it cost to come?').steps), ['Team pricing']);
    assert.deepEqual(clicks(plan('Answer what people ask before they come').steps), ['Is there a livestream?']);
    // Several parts: the one held to the end answers on camera (the others are read, each in its turn).
    const twoParts = plan('Show the schedule, then end on what people ask before they come');
    assert.deepEqual(clicks(twoParts.steps), ['Is there a livestream?']);
    assert.deepEqual(twoParts.steps.filter((step) => step.action === 'focus').map((step) => step.action === 'focus' && step.sectionId), ['programme', 'questions']);
    // A part without such a control is only looked at.
    assert.deepEqual(clicks(plan('Open on the headline').steps), []);
  });

  it('are clicked in the recording: the page answers (Friday\'s talks shown) and stays where it is', async () => {
    const workDir = path.join(rig.work, 'programme');
    await fs.mkdir(workDir, { recursive: true });
    const { produced, state } = await rig.browsers.withPage(pageOptions, async (page, ctx) => {
      await ctx.goto(rig.sites.url('in-place'), { waitUntil: 'load' });
      const produced = await produceRecording(
        page,
        {
          url: rig.sites.url('in-place'), prompt: 'Show the schedule for each day', viewport: 'desktop', format: 'mp4', resolution: '720p',
          durationTarget: '10s', mode: 'script', template: { id: 'auto' }, outFile: path.join(workDir, 'demo.mp4'), workDir,
        },
        heuristicPlanner(),
        () => undefined,
      );
      const state = await page.evaluate(() => ({
        url: location.href,
        friday: document.getElementById('tab-fri')?.getAttribute('aria-selected'),
        shown: (document.getElementById('panel-fri') as HTMLElement | null)?.hidden === false,
      }));
      return { produced, state };
    });
    const click = produced.recording.log.find((entry) => entry.action === 'click');
    assert.ok(click?.ok, `the click is in the log and succeeded: ${JSON.stringify(produced.recording.log)}`);
    assert.equal(produced.recording.timeline.clicks.length, 1, 'one click for the compositor to draw');
    assert.deepEqual(state, { url: rig.sites.url('in-place'), friday: 'true', shown: true });
  });
});
