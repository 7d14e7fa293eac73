import { launchBrowser } from '../../src/pipeline/browser/launch.js';
import { readLinkedPages } from '../../src/pipeline/analyse/linked-pages.js';
import { exitLinks, flowExit } from '../../src/pipeline/plan/flow-exit.js';
import { answerElsewhere, linkedAnswer } from '../../src/pipeline/plan/linked-answer.js';
import { namedValues } from '../../src/pipeline/plan/named-values.js';
import { beatsOf } from '../../src/pipeline/plan/not-found.js';
import { planLeg, startsFlow } from '../../src/pipeline/plan/plan-leg.js';
import { createPlanner, type PlannerConfig } from '../../src/pipeline/plan/planner.js';
import { meaningTrace, promptSubjects } from '../../src/pipeline/plan/section-meaning.js';
import { planDemo } from '../../src/pipeline/plan/heuristic-planner.js';
import { analyseSite } from './score.js';

/**
 * Why a flow goes where it goes, for a person reading a miss of the flows set:
 * `node --import tsx scripts/eval-story/flow-explain.ts URL "PROMPT"` prints the page's links that may leave it,
 * what the pages behind its menu say (their parts' headings), and, beat by beat, what this page and those pages
 * answer, then where the first leg goes. Loopback URLs are allowed (the sets are served on 127.0.0.1).
 */
const [url, prompt] = process.argv.slice(2);
if (!url || !prompt) {
  console.error('Usage: flow-explain.ts URL "PROMPT"');
  process.exit(2);
}
const browser = await launchBrowser({ allowPrivate: true });
try {
  const { outline } = await analyseSite(browser, url);
  const sameSite = (candidate: string) => new URL(candidate, url).origin === new URL(url).origin;
  const reader = await browser.newPage();
  const linked = await reader
    .goto(url, { waitUntil: 'domcontentloaded' })
    .then(() => readLinkedPages(reader, outline, sameSite))
    .finally(() => reader.close());
  console.log(`Sections here: ${outline.sections.map((s) => JSON.stringify(s.heading ?? s.label)).join(', ')}`);
  console.log(`Links that may leave (${exitLinks(outline, sameSite).length}): ${exitLinks(outline, sameSite).map((l) => `"${l.label}" ${l.href ?? ''}${l.opener ? ' (in a menu)' : ''}`).join('; ')}`);
  for (const page of linked) console.log(`Behind "${page.label}" (${page.href}): ${page.parts.map((p) => JSON.stringify(p.heading)).join(', ')}`);
  for (const beat of beatsOf(prompt)) {
    // EXPLAIN_RANKS=1: how each clause ranked this page's sections (the top four, with why).
    if (process.env.EXPLAIN_RANKS) meaningTrace.on = (clause, ranked) => console.log(`  ${JSON.stringify(clause)}: ${ranked.slice(0, 4).map((r) => `"${r.section.heading ?? r.section.label}" ${r.score.toFixed(2)} (${r.why})`).join('; ')}`);
    const here = promptSubjects(beat.text, outline);
    const answers = [...here.subjects, ...(here.endsOn ? [here.endsOn] : [])].map((s) => `"${s.section.heading ?? s.section.label}" ${s.confidence.toFixed(2)}`);
    const there = linkedAnswer(beat.text, outline, linked);
    meaningTrace.on = undefined;
    console.log(`Beat ${JSON.stringify(beat.text)}: here ${answers.join(', ') || 'nothing'}${here.endsOnAction ? ' (ends on an action)' : ''}; elsewhere ${there ? `"${there.heading}" behind "${there.page.label}"` : 'nothing sure'}`);
  }
  // What a one-page demo of the prompt would show here (the last leg of a flow plans its page the same way).
  const plan = planDemo({ prompt, outline, durationTarget: Number(process.env.EXPLAIN_MS ?? 10_000), template: { id: 'auto' }, mode: 'script' });
  console.log(`Here, a one-page plan (${plan.templateId}): ${plan.steps.map((step) => `${step.action}${'holdMs' in step && step.holdMs ? ` ${step.holdMs}ms` : ''} "${step.label ?? ''}"`).join(' → ')}`);
  const exit = flowExit(prompt, outline, sameSite) ?? answerElsewhere(prompt, outline, sameSite, linked);
  const flows = startsFlow(prompt, outline, namedValues(prompt), sameSite, linked);
  // EXPLAIN_LEG=1: the leg this page would get as the first of a flow (a form filled, a link left by), step by step.
  if (process.env.EXPLAIN_LEG) {
    const base = { prompt, outline, durationTarget: Number(process.env.EXPLAIN_MS ?? 10_000), template: { id: 'auto' as const }, mode: 'script' as const };
    const leg = await planLeg({ planner: createPlanner({ SHOWREEL_PLANNER: 'heuristic' } as PlannerConfig), base, outline, prompt, values: namedValues(prompt), purpose: null, sameSite, allowSubmit: false, remainingMs: base.durationTarget, mayLeave: true, linked });
    console.log(`Leg (${leg.kind}): ${leg.plan.steps.map((step) => `${step.action}${'holdMs' in step && step.holdMs ? ` ${step.holdMs}ms` : ''} "${step.label ?? ''}"${'value' in step && step.value ? ` = ${JSON.stringify(step.value)}` : ''}`).join(' → ')}`);
  }
  console.log(exit ? `Leaves by "${exit.link.label}" (${exit.link.href}) as ${exit.purpose}; before: ${JSON.stringify(exit.before)}; after: ${JSON.stringify(exit.after)}` : flows ? 'Stays, and acts on this page (a form or an app action)' : 'Stays: a one-page demo');
} finally {
  await browser.close();
}
