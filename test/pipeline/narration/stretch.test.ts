import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { narrationOn } from '../../../src/pipeline/narration/narrate.js';
import { stretchForNarration } from '../../../src/pipeline/narration/stretch.js';
import type { ActionScript, Rect, ScriptStep } from '../../../src/pipeline/types.js';

const rect: Rect = { x: 0, y: 0, width: 100, height: 40 };
const target = (label: string) => ({ selector: `#${label}`, fallbackSelectors: [], label, rect });
const step = (kind: 'wait' | 'scroll' | 'move', label: string, startMs: number, durationMs: number): ScriptStep =>
  kind === 'wait' ? { kind, label, startMs, durationMs } : kind === 'scroll' ? { kind, label, startMs, durationMs, toY: startMs } : { kind, label, startMs, durationMs, target: target(label) };

// As the planner compiles a focus: a scroll to the section, the move its step is named by, a dwell. Opening 0–1.5 s;
// travel to Features 1.5–2.5 s, dwell to 4 s; travel to Pricing 4–5 s, dwell to 10 s.
const script: ActionScript = {
  version: 1, url: 'http://example.test/', viewport: 'desktop', durationMs: 10_000, templateId: 'guided-tour',
  steps: [
    step('wait', 'Look at the page', 0, 1500),
    step('scroll', 'Scroll to "Features"', 1500, 800),
    step('move', 'Show Features', 2300, 200),
    step('wait', 'Dwell on "Features"', 2500, 1500),
    step('scroll', 'Scroll to "Pricing"', 4000, 800),
    step('move', 'Show Pricing', 4800, 200),
    step('wait', 'Dwell on "Pricing"', 5000, 5000),
  ],
};
const room = { leadMs: () => 200, tailMs: 300, endMs: 500 };

describe('room for the narration', () => {
  it('lengthens a beat’s dwell by what its line lacks, and starts everything after it that much later', () => {
    const stretched = stretchForNarration(script, [
      { stepLabel: null, durationMs: 2000 }, // 0.2 + 2 + 0.3 = 2.5 s needed, 1.5 s given: 1 s more
      { stepLabel: 'Show Features', durationMs: 1000 }, // fits in 1.7 s (the move from 2.3 s to the travel at 4 s)
      { stepLabel: 'Show Pricing', durationMs: 3000 }, // fits
    ], room);
    assert.equal(stretched.durationMs, 11_000);
    assert.deepEqual(stretched.steps.map((s) => [s.kind, s.startMs, s.durationMs]), [
      ['wait', 0, 2500],
      ['scroll', 2500, 800],
      ['move', 3300, 200],
      ['wait', 3500, 1500],
      ['scroll', 5000, 800],
      ['move', 5800, 200],
      ['wait', 6000, 5000],
    ]);
    assert.equal(script.durationMs, 10_000, 'the planned script is left as it was (it is what is stored)');
  });

  it('gives the last line room before the video’s end, and a beat with no dwell a wait of its own', () => {
    const noDwell: ActionScript = { ...script, steps: script.steps.slice(0, 6), durationMs: 5500 };
    const stretched = stretchForNarration(noDwell, [{ stepLabel: 'Show Pricing', durationMs: 2000 }], room);
    // The Pricing step starts at 4.8 s: 4.8 + 0.2 + 2 + 0.3 = 7.3 s, before the 0.5 s end: 7.8 s, 2.3 s more.
    assert.equal(stretched.durationMs, 7800);
    assert.deepEqual(stretched.steps.at(-1), { kind: 'wait', label: 'Show Pricing', startMs: 5000, durationMs: 2300 });
  });

  it('changes nothing when narration is off: no lines, the very same script', () => {
    assert.equal(stretchForNarration(script, [], room), script);
    assert.equal(narrationOn(null), false);
    assert.equal(narrationOn({}), false);
    assert.equal(narrationOn({ narration: { enabled: false, voice: 'alloy' } }), false);
    assert.equal(narrationOn({ narration: { enabled: true } }), true);
  });
});
