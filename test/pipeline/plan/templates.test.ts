import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { templateIds, type TemplateId } from '../../../src/demos/presentation.js';
import { compileScript } from '../../../src/pipeline/plan/compile.js';
import { planDemo } from '../../../src/pipeline/plan/heuristic-planner.js';
import type { DemoPlan, DurationTarget, PageOutline, PlanStep } from '../../../src/pipeline/types.js';
import { isVisible } from '../../../src/pipeline/plan/outline-query.js';
import { assertPlan, assertScript, maxScroll } from './checks.js';
import { allOutlines, docsOutline, formAppOutline, minimalOutline, saasOutline } from './outlines.js';

const targets: DurationTarget[] = ['5s', '10s', '30s'];

function plan(id: TemplateId, outline: PageOutline, durationTarget: DurationTarget = '10s', options: { prompt?: string; sectionHint?: string } = {}): DemoPlan {
  return planDemo({ prompt: options.prompt ?? 'make a demo', outline, durationTarget, template: { id, sectionHint: options.sectionHint }, mode: 'script' });
}

const scrolls = (steps: PlanStep[]) => steps.filter((step) => step.action === 'scroll');
const sectionsScrolledTo = (steps: PlanStep[]) => scrolls(steps).flatMap((step) => (step.sectionId ? [step.sectionId] : []));
const hovered = (steps: PlanStep[]) => steps.flatMap((step) => (step.action === 'hover' ? [step.target.label] : []));
const typed = (steps: PlanStep[]) => steps.flatMap((step) => (step.action === 'type' ? [[step.target.label, step.text]] : []));

describe('recording templates', () => {
  it('every template, on every page, for every duration: a non-empty plan and a script of exactly that length', () => {
    for (const id of templateIds) {
      for (const [name, make] of Object.entries(allOutlines)) {
        for (const target of targets) {
          const outline = make();
          const context = `${id} on ${name} for ${target}`;
          const result = plan(id, outline, target);
          assert.equal(result.templateId, id, context);
          assert.equal(result.source, 'heuristic');
          assert.equal(result.autoSelection, null, 'a chosen template has no auto selection');
          assertPlan(result, outline, context);
          const script = compileScript(result, outline, { url: outline.url, viewport: 'desktop' });
          assertScript(script, outline, result.durationMs, context);
          assert.equal(script.templateId, id);
          // Deterministic: the same input gives the same plan and script.
          assert.deepEqual(plan(id, outline, target), result, `${context}: plan is deterministic`);
          assert.deepEqual(compileScript(result, outline, { url: outline.url, viewport: 'desktop' }), script, `${context}: script is deterministic`);
        }
      }
    }
  });

  it('longer budgets show more', () => {
    for (const id of ['cinematic', 'guided-tour', 'feature-sweep', 'conversion-flow'] as const) {
      const short = plan(id, saasOutline(), '5s').steps.length;
      const long = plan(id, saasOutline(), '30s').steps.length;
      assert.ok(long > short, `${id}: ${long} steps in 30 s > ${short} in 5 s`);
    }
  });

  it('cinematic opens on the hero, dwells on the strongest section and ends on a call to action', () => {
    for (const target of targets) {
      const { steps } = plan('cinematic', saasOutline(), target);
      assert.deepEqual(steps.find((step) => step.action === 'focus'), { action: 'focus', sectionId: 'hero', label: 'Linger on the hero "Ship product demos in minutes"' }, target);
      assert.ok(sectionsScrolledTo(steps).includes('features'), `${target}: the features (strongest) are shown`);
      assert.ok(steps.some((step) => step.action === 'focus' && step.sectionId === 'features'), `${target}: and dwelt on`);
      const last = steps.filter((step) => step.action === 'hover').at(-1);
      assert.ok(last && ['Get started', 'Start free trial'].includes(last.target.label), `${target}: ends on a call to action`);
    }
    const long = plan('cinematic', saasOutline(), '30s').steps;
    const order = sectionsScrolledTo(long);
    assert.deepEqual(order, [...order].sort((a, b) => saasOutline().sections.findIndex((s) => s.id === a) - saasOutline().sections.findIndex((s) => s.id === b)), 'in page order');
    assert.ok(order.length >= 5, '30 s glides through most of the page');
  });

  it('cinematic on a page that does not scroll: no scrolling, the call to action still', () => {
    const { steps } = plan('cinematic', minimalOutline(), '10s');
    assert.equal(scrolls(steps).length, 0);
    assert.deepEqual(hovered(steps), ['Join the waitlist']);
  });

  it('guided tour with a sticky header: each navigation item, then its section, in menu order', () => {
    const { steps } = plan('guided-tour', saasOutline(), '30s');
    const sequence = steps.filter((step) => step.action === 'hover' || step.action === 'scroll').map((step) =>
      step.action === 'hover' ? `nav:${step.target.label}` : `go:${(step as { sectionId: string }).sectionId}`,
    );
    assert.deepEqual(sequence, [
      'nav:Features', 'go:features', 'nav:Integrations', 'go:integrations', 'nav:Pricing', 'go:pricing', 'nav:Customers', 'go:testimonials',
    ]);
    assert.ok(!hovered(steps).includes('Sign in'), 'a link to another page is not part of the tour');
  });

  it('guided tour with a header that scrolls away: points at the menu first, then visits the sections', () => {
    const { steps } = plan('guided-tour', docsOutline(), '30s');
    const firstScroll = steps.findIndex((step) => step.action === 'scroll');
    assert.deepEqual(hovered(steps.slice(0, firstScroll)), ['Installation', 'Configuration', 'API reference']);
    assert.deepEqual(hovered(steps.slice(firstScroll)), [], 'no hover on the menu once it has scrolled away');
    assert.deepEqual(sectionsScrolledTo(steps), ['installation', 'configuration', 'api']);
  });

  it('guided tour in 5 s still makes one stop; without navigation it tours the named sections', () => {
    const short = plan('guided-tour', saasOutline(), '5s').steps;
    assert.deepEqual(sectionsScrolledTo(short), ['features']);
    const outline = docsOutline();
    outline.navigation = [];
    assert.deepEqual(sectionsScrolledTo(plan('guided-tour', outline, '30s').steps), ['installation', 'configuration', 'api', 'faq']);
  });

  it('plain scroll goes top to bottom in one steady scroll that takes most of the video', () => {
    for (const [name, make] of [['saas', saasOutline], ['docs', docsOutline]] as const) {
      const outline = make();
      for (const target of targets) {
        const result = plan('plain-scroll', outline, target);
        const all = scrolls(result.steps);
        assert.equal(all.length, 1, `${name} ${target}`);
        assert.equal(all[0]!.toY, maxScroll(outline));
        const script = compileScript(result, outline, { url: outline.url, viewport: 'desktop' });
        const scroll = script.steps.find((step) => step.kind === 'scroll')!;
        assert.ok(scroll.durationMs >= result.durationMs * 0.5, `${name} ${target}: the scroll takes ${scroll.durationMs} of ${result.durationMs} ms`);
      }
    }
  });

  it('section focus goes to the section the hint names, dwells and hovers its actions', () => {
    for (const target of targets) {
      const { steps } = plan('section-focus', saasOutline(), target, { sectionHint: 'Integrations' });
      assert.deepEqual(sectionsScrolledTo(steps), ['integrations'], target);
      assert.ok(steps.some((step) => step.action === 'focus' && step.sectionId === 'integrations'));
      assert.ok(hovered(steps).includes('Browse integrations'), `${target}: the section's button is hovered`);
    }
    assert.deepEqual(sectionsScrolledTo(plan('section-focus', docsOutline(), '10s', { sectionHint: 'configuration' }).steps), ['configuration']);
    // From the prompt when there is no hint.
    assert.deepEqual(sectionsScrolledTo(plan('section-focus', docsOutline(), '10s', { prompt: 'Zoom in on the "API reference"' }).steps).slice(0, 1), ['api']);
  });

  it('section focus on a section taller than the screen holds its heading and first screen: it never scrolls on past them', () => {
    const outline = docsOutline();
    const { steps } = plan('section-focus', outline, '30s', { sectionHint: 'API reference' });
    const section = outline.sections.find((s) => s.heading === 'API reference')!;
    const after = scrolls(steps).filter((step) => step.toY > section.rect.y);
    assert.deepEqual(after, [], 'no scroll leaves the heading behind');
  });

  it('section focus with a hint that matches nothing falls back to the strongest section', () => {
    const { steps } = plan('section-focus', saasOutline(), '10s', { sectionHint: 'Quantum teleportation' });
    assert.deepEqual(sectionsScrolledTo(steps), ['features']);
  });

  it('hero spotlight stays on the first screen: headline, secondary button, then the primary call to action', () => {
    const { steps } = plan('hero-spotlight', saasOutline(), '30s');
    assert.equal(scrolls(steps).length, 0, 'no scrolling');
    assert.ok(!steps.some((step) => step.action === 'click'), 'nothing is clicked');
    assert.deepEqual(hovered(steps), ['Heading "Ship product demos in minutes"', 'Watch the video', 'Get started']);
    const headline = steps.find((step) => step.action === 'hover')!;
    assert.ok(headline.action === 'hover' && headline.target.selector === '#hero h1');
    assert.deepEqual(hovered(plan('hero-spotlight', saasOutline(), '5s').steps), ['Heading "Ship product demos in minutes"', 'Get started']);
  });

  it('feature sweep scrolls through the features and hovers the cards', () => {
    const { steps } = plan('feature-sweep', saasOutline(), '10s');
    assert.equal(sectionsScrolledTo(steps)[0], 'features');
    const cards = steps.flatMap((step) => (step.action === 'hover' ? [step.target.selector] : []));
    assert.ok(cards.filter((selector) => selector.startsWith('#features .card')).length >= 2, 'feature cards are hovered');
    // A page without a features section sweeps its content sections instead.
    assert.deepEqual(sectionsScrolledTo(plan('feature-sweep', docsOutline(), '10s').steps).slice(0, 1), ['installation']);
  });

  it('conversion flow fills the form with demo text and never submits', () => {
    for (const target of targets) {
      const result = plan('conversion-flow', formAppOutline(), target);
      const fields = typed(result.steps);
      assert.ok(fields.length >= 1, target);
      assert.deepEqual(fields[0], ['First name', 'Ada'], target);
      assert.ok(!result.steps.some((step) => step.action === 'click'), `${target}: nothing is clicked in the plan`);
      const outline = formAppOutline();
      const script = compileScript(result, outline, { url: outline.url, viewport: 'desktop' });
      const clicks = script.steps.filter((step) => step.kind === 'click');
      assert.ok(clicks.every((step) => step.kind === 'click' && step.target.selector.startsWith('[name=')), `${target}: the only clicks are into fields`);
    }
    const long = plan('conversion-flow', formAppOutline(), '30s').steps;
    assert.deepEqual(typed(long), [
      ['First name', 'Ada'], ['Last name', 'Lovelace'], ['Email', 'ada@example.com'], ['Phone', '+44 20 7946 0958'],
      ['Message', "Hi! We'd love a quick demo for our team."],
    ]);
    assert.equal(hovered(long).at(-1), 'Send request', 'the submit button is hovered, not clicked');
    assert.ok(!typed(long).some(([label]) => label === 'Preferred date' || label === 'I agree to the terms'), 'dates and checkboxes are left alone');
  });

  it('conversion flow fills the form in the section the prompt named, not the biggest one on the page', () => {
    // A restaurant's newsletter box (one email field) above its contact form (name, email, message): "subscribe to
    // their news" must type into the newsletter box, not the contact form.
    const outline = formAppOutline();
    const subscribe = { ...outline.sections[1]!, id: 'news', kind: 'cta' as const, heading: 'Subscribe to our newsletter', label: 'Subscribe to our newsletter', text: 'News by email.', selector: '#news' };
    outline.sections.splice(1, 1, subscribe);
    const join = { label: 'Subscribe', kind: 'button' as const, href: null, selector: '#news button', fallbackSelectors: [], rect: { x: 840, y: 1000, width: 160, height: 48 } };
    outline.forms.unshift({
      label: 'Subscribe', selector: '#news form', fallbackSelectors: [], rect: { x: 400, y: 1000, width: 600, height: 48 },
      fields: [{ label: 'Enter your email to subscribe', type: 'text', name: 'news_email', selector: '[name="news_email"]', fallbackSelectors: [], rect: { x: 400, y: 1000, width: 420, height: 48 } }],
      submit: join,
    });
    const hinted = plan('conversion-flow', outline, '10s', { prompt: 'show me where I can subscribe to their news', sectionHint: 'Subscribe to our newsletter' });
    assert.deepEqual(typed(hinted.steps), [['Enter your email to subscribe', 'ada@example.com']]);
    assert.equal(hovered(hinted.steps).at(-1), 'Subscribe', 'the newsletter\'s button is hovered, not the contact form\'s');
    // Without a hint the form with the most to fill is still the one shown.
    assert.deepEqual(typed(plan('conversion-flow', outline, '10s').steps)[0], ['First name', 'Ada']);
  });

  it('conversion flow frames a named part that has no form rather than fill a form elsewhere', () => {
    // picnic: "the three-step sign-up form demo" is a part whose steps are no <form>; the page's first form, in another
    // part, was filled instead.
    const { steps } = plan('conversion-flow', formAppOutline(), '10s', { prompt: 'Show the sign-up demo that runs without JavaScript', sectionHint: 'Why Clinicly' });
    assert.deepEqual(typed(steps), [], 'nothing typed into the form of another part');
    assert.deepEqual(sectionsScrolledTo(steps), ['why']);
  });

  it("conversion flow keeps the form's heading below the sticky header", () => {
    // kv-portfolio: "Contact Me" over a tall form at the page's end sat under the fixed menu for the whole video.
    const outline = formAppOutline();
    const contact = outline.sections[2]!;
    outline.sections[2] = { ...contact, headingRect: { x: 400, y: 1320, width: 400, height: 40 } };
    outline.forms[0] = { ...outline.forms[0]!, rect: { x: 400, y: 1400, width: 640, height: 700 } };
    const { steps } = plan('conversion-flow', outline, '10s', { prompt: 'Show me the contact form' });
    const y = scrolls(steps).at(-1)!;
    assert.equal(y.action, 'scroll');
    assert.ok(isVisible(outline, outline.sections[2]!.headingRect!, y.action === 'scroll' ? y.toY : 0), `the heading is in view below the header at ${y.action === 'scroll' ? y.toY : '?'}`);
  });

  it('conversion flow without a form hovers the main call to action', () => {
    assert.deepEqual(hovered(plan('conversion-flow', docsOutline(), '10s').steps), ['Read the quickstart']);
    assert.deepEqual(hovered(plan('conversion-flow', minimalOutline(), '10s').steps), ['Join the waitlist']);
  });

  it('pricing focus hovers the tiers left to right and dwells on the highlighted one', () => {
    for (const target of ['10s', '30s'] as const) {
      const { steps } = plan('pricing-focus', saasOutline(), target);
      assert.deepEqual(sectionsScrolledTo(steps), ['pricing'], target);
      // "Pro $29 per month, most popular": the Pro tier is the highlighted one.
      assert.deepEqual(hovered(steps), ['Start free', 'Start Pro trial', 'Contact sales', 'Start Pro trial'], target);
      const xs = steps.flatMap((step) => (step.action === 'hover' ? [step.target.rect.x] : [])).slice(0, 3);
      assert.deepEqual(xs, [...xs].sort((a, b) => a - b), 'left to right');
    }
    // 5 s has no time for a comparison after the long scroll: straight to the highlighted tier.
    const short = plan('pricing-focus', saasOutline(), '5s').steps;
    assert.deepEqual(sectionsScrolledTo(short), ['pricing']);
    assert.deepEqual(hovered(short), ['Start Pro trial']);
  });

  it('pricing focus goes to the pricing section the hint names, and frames its heading with the tiers\' buttons', () => {
    const outline = saasOutline();
    // A conference page prices hotel rooms before its passes; the passes' buttons sit below the first screen of them.
    const passes = outline.sections.find((section) => section.id === 'pricing')!;
    const rooms = { ...passes, id: 'rooms', heading: 'Where to stay', label: 'Where to stay', selector: '#rooms', rect: { ...passes.rect, y: passes.rect.y - 900, height: 850 } };
    Object.assign(passes, { heading: 'Pick your berth before the tide turns', rect: { ...passes.rect, height: 852 }, headingRect: { x: 174, y: passes.rect.y + 117, width: 1092, height: 48 } });
    outline.sections.push(rooms);
    outline.documentHeight = Math.max(outline.documentHeight, passes.rect.y + 3000);
    const tierButtons = outline.actions.filter((action) => action.selector.startsWith('#pricing'));
    for (const action of tierButtons) action.rect = { ...action.rect, y: passes.rect.y + 720 };
    const { steps } = plan('pricing-focus', outline, '10s', { sectionHint: 'Pick your berth before the tide turns' });
    const arrival = scrolls(steps)[0]!;
    assert.ok(arrival.action === 'scroll');
    const top = arrival.toY + outline.stickyHeaderHeight;
    const bottom = arrival.toY + outline.viewport.height;
    assert.ok(passes.headingRect!.y >= top, `the heading (${passes.headingRect!.y}) is below the header (${top})`);
    for (const button of tierButtons) assert.ok(button.rect.y + button.rect.height <= bottom, `"${button.label}" is on the same screen`);
    assert.ok(steps.every((step) => step.action !== 'scroll' || step.toY === arrival.toY), 'no scroll away from the heading to reach a tier');
    assert.ok(hovered(steps).length >= 2);
  });

  it('section focus on a tall section points only at what is on screen with its heading, never at buttons further down', () => {
    const outline = saasOutline();
    const features = outline.sections.find((section) => section.id === 'features')!;
    features.rect = { ...features.rect, height: 1100 };
    outline.documentHeight = Math.max(outline.documentHeight, features.rect.y + 3000);
    // Its buttons sit below its first screen.
    outline.actions.push(
      { label: 'View room', kind: 'cta', href: null, selector: '#features a.one', fallbackSelectors: [], rect: { x: 200, y: features.rect.y + 860, width: 120, height: 40 } },
      { label: 'View suite', kind: 'cta', href: null, selector: '#features a.two', fallbackSelectors: [], rect: { x: 600, y: features.rect.y + 860, width: 120, height: 40 } },
    );
    const { steps } = plan('section-focus', outline, '10s', { sectionHint: features.heading ?? 'features' });
    const focusAt = steps.findIndex((step) => step.action === 'focus' && step.sectionId === 'features');
    assert.ok(focusAt >= 0, 'the section is framed');
    assert.ok(!steps.slice(focusAt).some((step) => step.action === 'scroll'), 'no scroll after the framing: the heading stays');
    assert.ok(!hovered(steps).includes('View room') && !hovered(steps).includes('View suite'), 'the buttons below the first screen are not pointed at');
  });

  it('section focus ends on the header button the ending names, where the page is, without scrolling back up', () => {
    // A shop's header keeps "Reserve your table" on screen; the prompt asks to end on reserving a table.
    const outline = saasOutline();
    outline.actions.push({ label: 'Reserve your table', kind: 'cta', href: '#book', selector: 'header a.reserve', fallbackSelectors: [], rect: { x: 1200, y: 16, width: 180, height: 40 } });
    const { steps } = plan('section-focus', outline, '10s', { prompt: 'Walk through the integrations and end on how to reserve a table' });
    const last = steps.findLastIndex((step) => step.action === 'hover');
    assert.equal(hovered(steps).at(-1), 'Reserve your table');
    assert.ok(steps.slice(last + 1).every((step) => step.action === 'pause'), 'it rests on the button to the end');
    assert.deepEqual(sectionsScrolledTo(steps), ['integrations']);
    const ys = scrolls(steps).map((step) => step.toY);
    assert.deepEqual(ys, [...ys].sort((a, b) => a - b), `never back up to the header: ${ys.join(' ')}`);
    // The same words in a section's heading make that section the ending instead: a closing band that says so.
    outline.sections.find((section) => section.id === 'signup')!.heading = 'Reserve a table tonight';
    const banded = plan('section-focus', outline, '10s', { prompt: 'Walk through the integrations and end on how to reserve a table' });
    assert.ok(!hovered(banded.steps).includes('Reserve your table'));
    assert.equal(sectionsScrolledTo(banded.steps).at(-1), 'signup');
  });

  it('pricing focus on a page without pricing degrades to a tour of what is there', () => {
    const { steps } = plan('pricing-focus', docsOutline(), '10s');
    assert.ok(steps.length > 2);
    assert.ok(!sectionsScrolledTo(steps).includes('pricing'));
  });

  it('proof scroll shows the logos and the testimonials, quote by quote', () => {
    const { steps } = plan('proof-scroll', saasOutline(), '10s');
    assert.deepEqual(sectionsScrolledTo(steps), ['logos', 'testimonials']);
    assert.ok(steps.filter((step) => step.action === 'hover' && step.target.selector.startsWith('#testimonials .quote')).length >= 2);
    // In 5 s the testimonials win over the logos.
    assert.deepEqual(sectionsScrolledTo(plan('proof-scroll', saasOutline(), '5s').steps), ['testimonials']);
  });

  it('resolves auto through the selection and records it', () => {
    const outline = saasOutline();
    const result = planDemo({ prompt: 'Show our pricing plans', outline, durationTarget: '5s', template: { id: 'auto' }, mode: 'script' });
    assert.equal(result.templateId, 'pricing-focus');
    assert.equal(result.autoSelection?.selectedId, 'pricing-focus');
    assert.equal(result.autoSelection?.source, 'heuristic');
    assert.equal(result.durationMs, 5000);
    const focus = planDemo({ prompt: 'Focus on the Integrations section', outline, durationTarget: '30s', template: { id: 'auto' }, mode: 'agent' });
    assert.equal(focus.templateId, 'section-focus');
    assert.equal(focus.sectionHint, 'Integrations');
    assert.equal(focus.durationMs, 30_000);
    assert.deepEqual(sectionsScrolledTo(focus.steps), ['integrations']);
  });
});
