import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { planLeg } from '../../../src/pipeline/plan/plan-leg.js';
import { namedValues } from '../../../src/pipeline/plan/named-values.js';
import { heuristicPlanner } from '../../helpers/recording-rig.js';
import { docsOutline, madeUpPage, madeUpSection } from './outlines.js';

/** Issue 56: a leg planned on a page the prompt sent the demo to. */
describe('the leg on a page a flow arrived at', () => {
  it('reads the page\'s title, then shows the part asked for, not the title again for a beat that only names the page', async () => {
    const outline = docsOutline();
    // A docs page's title is a part like the others, not a hero (materialize's "Grid").
    outline.sections[0] = { ...outline.sections[0]!, kind: 'content' };
    const prompt = 'How do I set my key and create a client? Show me the SDK docs';
    const leg = await planLeg({
      planner: heuristicPlanner(), outline, prompt, values: namedValues(prompt), purpose: 'page', sameSite: () => true, allowSubmit: false,
      remainingMs: 6_000, mayLeave: false,
      base: { prompt, outline, durationTarget: '10s', template: { id: 'auto' }, mode: 'script', pageContext: null, language: 'en' },
    });
    const focused = leg.plan.steps.filter((step) => step.action === 'focus').map((step) => (step.action === 'focus' ? step.sectionId : null));
    assert.equal(focused[0], 'intro', 'the arrival reads the page\'s title first');
    assert.equal(focused.at(-1), 'configuration', `it ends on the part asked for: ${JSON.stringify(focused)}`);
  });

  it('spends the time on the beat that needs the camera, not on one the arrival already answered (datta-able)', async () => {
    // The "Color" page: its title part is what "show me the colour swatches" means, and the arrival reads it; the
    // darkest teal text is its "Text Color" card, far below the background swatches.
    const outline = madeUpPage([
      madeUpSection('color', 'content', 'Color', 0, 'Colour classes of the theme'),
      madeUpSection('background', 'content', 'Background Color', 200, 'bg-blue-100 bg-blue-200 bg-indigo-900 bg-purple-900', { rect: { x: 0, y: 200, width: 1440, height: 1200 } }),
      madeUpSection('text', 'content', 'Text Color', 1400, 'text-blue-900 text-teal-900 text-purple-900'),
    ], 'http://localhost/admin/elements/bc_color.html', 'Color | Datta able');
    const prompt = 'Which class do I use for the darkest teal text? Show me the colour swatches';
    const leg = await planLeg({
      planner: heuristicPlanner(), outline, prompt, values: namedValues(prompt), purpose: 'page', sameSite: () => true, allowSubmit: false,
      remainingMs: 6_900, mayLeave: false,
      base: { prompt, outline, durationTarget: '10s', template: { id: 'auto' }, mode: 'script', pageContext: null, language: 'en' },
    });
    const focused = leg.plan.steps.filter((step) => step.action === 'focus').map((step) => (step.action === 'focus' ? step.sectionId : null));
    assert.equal(focused[0], 'color', 'the arrival reads the page\'s title');
    assert.equal(focused.at(-1), 'text', `and the demo ends on the text colours: ${JSON.stringify(focused)}`);
  });
});
