import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { panelAsked, panelSteps } from '../../../src/pipeline/plan/panel-toggle.js';
import { startsFlow } from '../../../src/pipeline/plan/plan-leg.js';
import { namedValues } from '../../../src/pipeline/plan/named-values.js';
import type { OutlineAction, PageOutline } from '../../../src/pipeline/types.js';
import { saasOutline } from './outlines.js';

/** Flows blind batch 2026-12-04, openhabits 3: "Bring up my stats" presses the app's "Stats" button and holds its panel. */
function habitApp(): PageOutline {
  const outline = saasOutline();
  const button = (label: string, y: number, href: string | null = null): OutlineAction => ({ label, kind: href ? 'nav-link' : 'cta', href, selector: `#b${y}`, fallbackSelectors: [], rect: { x: 20, y, width: 120, height: 36 } });
  outline.actions = [button('+ Habit', 100), button('Stats', 140), button('Achievements', 180), button('Team', 220, '/team')];
  outline.sections = [...outline.sections, { ...outline.sections[1]!, id: 'stats-panel', heading: 'Stats', label: 'Stats' }];
  return outline;
}

describe("an app's panel brought up by its button", () => {
  it('presses the button the prompt names after "my", then shows and holds the panel headed the same', () => {
    const outline = habitApp();
    const panel = panelAsked('How am I doing overall? Bring up my stats', outline);
    assert.equal(panel?.control.label, 'Stats');
    assert.equal(panel?.section?.id, 'stats-panel');
    assert.deepEqual(panelSteps(panel!).map((step) => step.action), ['click', 'pause', 'focus', 'pause']);
    assert.equal(startsFlow('Bring up my stats', outline, namedValues('Bring up my stats'), () => true), true);
  });

  it('leaves a part named without "my", and a link, to the other plans', () => {
    const outline = habitApp();
    assert.equal(panelAsked('Show the stats', outline), null);
    assert.equal(panelAsked('Show me my team', outline), null, '"Team" is a link elsewhere, not a panel');
    assert.equal(panelAsked('Open my settings', outline), null, 'no button says it');
  });
});
