import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { plannerForChangedPage } from '../../../src/pipeline/change-check.js';
import { fingerprintOf, keepPlan } from '../../../src/pipeline/fingerprint/index.js';
import { createPlanner } from '../../../src/pipeline/plan/planner.js';
import type { DemoPlan, OutlineAction, OutlineSection, PageOutline, PlanStep, Target } from '../../../src/pipeline/types.js';

/**
 * Issue 37: a refresh of a changed page keeps the plan the demo was made with. Told on the invoicing site of the
 * deploy story (test/demos/change-aware-refresh.test.ts): a guided tour that points at a menu item, goes to its
 * section and frames it, for the integrations and the pricing, and traces the pricing's heading.
 */
function section(id: string, heading: string, body: string, y: number, kind: OutlineSection['kind'] = 'content'): OutlineSection {
  return { id, kind, heading, text: body.slice(0, 200), body, label: heading, selector: `#${id}`, fallbackSelectors: [], rect: { x: 0, y, width: 1280, height: 600 } };
}
function link(label: string, href: string, index: number): OutlineAction {
  return { kind: 'nav-link', label, href, selector: `header nav a:nth-of-type(${index})`, fallbackSelectors: [], rect: { x: 300 + 120 * index, y: 20, width: 100, height: 24 } };
}
const integrations = (y = 700) => section('integrations', 'Integrations', 'Stripe: card payments land on the invoice. Xero: ledgers stay in step. Slack: a message when a client pays.', y);
const pricing = ({ pro = '$12', heading = 'Pricing', id = 'pricing', y = 1400 } = {}) =>
  section(id, heading, `Solo $0 one user. Pro ${pro} per user unlimited clients and reminders. Studio $29 per user shared inbox and approvals.`, y, 'pricing');
function outline(sections: OutlineSection[], navigation = [link('Integrations', '#integrations', 1), link('Pricing', '#pricing', 2)]): PageOutline {
  return {
    url: 'https://tidewater.example/', title: 'Tidewater', description: null, viewport: { width: 1280, height: 720 }, documentHeight: 2400,
    stickyHeaderHeight: 64, navigation, sections, forms: [], media: [], dismissedOverlays: [],
    actions: [{ kind: 'primary-cta', label: 'Start free trial', href: '/signup', selector: 'header a.button', fallbackSelectors: [], rect: { x: 1100, y: 12, width: 150, height: 40 } }],
  };
}
const target = (a: Target): Target => ({ label: a.label, selector: a.selector, fallbackSelectors: a.fallbackSelectors, rect: a.rect });
const page = outline([section('hero', 'Invoices that send and chase themselves', 'Tidewater sends your invoices on time.', 0, 'hero'), integrations(), pricing()]);
const stored: DemoPlan = {
  templateId: 'guided-tour', autoSelection: null, sectionHint: null, durationMs: 10_000, source: 'ai',
  steps: [
    { action: 'pause', label: 'Open on Tidewater' },
    { action: 'hover', target: target(page.navigation[0]!), label: 'Point at "Integrations" in the navigation' },
    { action: 'scroll', sectionId: 'integrations', toY: 620, label: 'Go to "Integrations"' },
    { action: 'focus', sectionId: 'integrations', label: 'Focus on "Integrations"' },
    { action: 'hover', target: target(page.navigation[1]!), label: 'Point at "Pricing" in the navigation' },
    { action: 'scroll', sectionId: 'pricing', toY: 1320, label: 'Go to "Pricing"' },
    { action: 'focus', sectionId: 'pricing', label: 'Focus on "Pricing"' },
    { action: 'hover', target: { label: 'Heading "Pricing"', selector: '#pricing h2', fallbackSelectors: ['#pricing h1', '#pricing'], rect: { x: 48, y: 1496, width: 300, height: 46 } }, label: 'Trace the heading "Pricing"' },
    { action: 'hover', target: target(page.actions[0]!), label: 'End on "Start free trial"' },
  ],
  mainShot: { sectionId: 'pricing', stepLabel: 'Focus on "Pricing"' },
};
const before = fingerprintOf(page, stored, new Map());
const labels = (plan: DemoPlan | null) => plan?.steps.map((step) => step.label);
const step = (plan: DemoPlan | null, label: string): PlanStep | undefined => plan?.steps.find((s) => s.label === label);

describe('a changed page keeps the plan its demo was made with', () => {
  it('a price change keeps every step, placed where the page has them now', () => {
    // The new price takes a line more above the pricing: the section is 40 px further down.
    const kept = keepPlan(stored, before, outline([page.sections[0]!, integrations(), pricing({ pro: '$15', y: 1440 })]));
    assert.deepEqual(labels(kept), labels(stored), 'the same steps, in the same order');
    assert.equal(kept!.source, 'ai', 'the plan the owner approved, not one planned again');
    const heading = step(kept, 'Trace the heading "Pricing"');
    assert.equal(heading?.action === 'hover' && heading.target.rect.y, 1536, 'the heading is traced where it is now');
    assert.equal(kept!.mainShot, null, 'the main shot and the story are made again from the new page');
  });

  it('a renamed heading keeps the other steps and re-targets that section\'s', () => {
    const kept = keepPlan(stored, before, outline([page.sections[0]!, integrations(), pricing({ heading: 'Plans and prices', id: 'plans-and-prices' })]));
    assert.deepEqual(labels(kept), [
      'Open on Tidewater',
      'Point at "Integrations" in the navigation',
      'Go to "Integrations"',
      'Focus on "Integrations"',
      'Point at "Pricing" in the navigation',
      'Go to "Plans and prices"',
      'Focus on "Plans and prices"',
      'Trace the heading "Pricing"',
      'End on "Start free trial"',
    ]);
    const framed = step(kept, 'Focus on "Plans and prices"');
    assert.equal(framed?.action === 'focus' && framed.sectionId, 'plans-and-prices', 'the step follows the section under its new name');
  });

  it('a renamed button is followed by its link', () => {
    const renamed = outline(page.sections);
    renamed.actions = [{ ...renamed.actions[0]!, label: 'Try it free', selector: 'header a.cta' }];
    const kept = keepPlan(stored, before, renamed);
    const end = kept?.steps.at(-1);
    assert.equal(end?.label, 'End on "Try it free"');
    assert.equal(end?.action === 'hover' && end.target.selector, 'header a.cta');
  });

  it('a removed section drops only its steps, with the menu item that led to it', () => {
    const kept = keepPlan(stored, before, outline([page.sections[0]!, pricing({ y: 700 })]));
    assert.deepEqual(labels(kept), labels(stored)!.filter((label) => !label.includes('"Integrations"')));
  });

  it('nothing left to show, or a fingerprint from before section ids: the page is planned again', () => {
    // Both sections gone (the menu still names them, the button still closes): the tour would be a button alone.
    assert.equal(keepPlan(stored, before, outline([page.sections[0]!])), null);
    const older = { ...before, shots: before.shots.map(({ id: _id, selector: _selector, rect: _rect, ...shot }) => shot) };
    assert.equal(keepPlan(stored, older, page), null);
  });

  it('the refresh plans with the kept plan, unless another length or template is asked for now', async () => {
    const planner = createPlanner({ SHOWREEL_PLANNER: 'heuristic', OPENAI_API_KEY: undefined, OPENAI_BASE_URL: undefined, OPENAI_MODEL: undefined } as never);
    const changed = outline([page.sections[0]!, integrations(), pricing({ pro: '$15' })]);
    const input = { prompt: 'A tour of the site', outline: changed, template: { id: 'auto' as const }, mode: 'script' as const, pageContext: null };
    const kept = await plannerForChangedPage(planner, stored, before, changed, 'auto').plan({ ...input, durationTarget: '10s' });
    assert.equal(kept.steps[0]?.label, 'Open on Tidewater');
    const longer = await plannerForChangedPage(planner, stored, before, changed, 'auto').plan({ ...input, durationTarget: '30s' });
    assert.equal(longer.durationMs, 30_000, 'planned again for the new length');
    const other = await plannerForChangedPage(planner, stored, before, changed, 'pricing-focus').plan({ ...input, durationTarget: '10s', template: { id: 'pricing-focus' } });
    assert.equal(other.templateId, 'pricing-focus', 'planned again with the template asked for');
  });
});
