import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { endOnNavigate, isFlow, legsOf } from '../../../src/pipeline/record/record-flow.js';
import type { ActionScript, Target } from '../../../src/pipeline/types.js';

/** Issue 56: a stored flow's script, split back into the legs it was recorded in (a restyle replays them). */
const link: Target = { label: 'Sign in', selector: 'a.sign-in', fallbackSelectors: [], rect: { x: 1000, y: 20, width: 80, height: 30 } };
const field: Target = { label: 'Email', selector: '#email', fallbackSelectors: [], rect: { x: 400, y: 300, width: 300, height: 40 } };

const flow: ActionScript = {
  version: 1,
  url: 'http://shop.example/',
  viewport: 'desktop',
  durationMs: 9000,
  templateId: 'guided-tour',
  steps: [
    { kind: 'wait', label: 'Look', startMs: 0, durationMs: 1000 },
    { kind: 'move', target: link, label: 'Move to "Sign in"', startMs: 1000, durationMs: 800 },
    { kind: 'navigate', target: link, href: '/login', label: 'Open "Sign in"', startMs: 1800, durationMs: 1200 },
    { kind: 'wait', label: 'Arrive on "Sign in"', startMs: 3000, durationMs: 500, url: 'http://shop.example/login' },
    { kind: 'type', target: field, text: 'dana@example.com', label: 'Type', startMs: 3500, durationMs: 2000, url: 'http://shop.example/login' },
    { kind: 'wait', label: 'Hold', startMs: 5500, durationMs: 3500, url: 'http://shop.example/login' },
  ],
};

describe('a stored flow, leg by leg', () => {
  it('splits after each click that leads to another page, each leg timed from its own start', () => {
    const legs = legsOf(flow);
    assert.equal(legs.length, 2);
    assert.deepEqual(legs.map((leg) => leg.durationMs), [3000, 6000]);
    assert.equal(legs[1]!.url, 'http://shop.example/login', 'the second leg runs on the page the link opened');
    assert.deepEqual(legs[1]!.steps.map((step) => step.startMs), [0, 500, 2500]);
    assert.ok(isFlow(flow));
  });

  it('a one-page script is one leg, unchanged', () => {
    const onePage = { ...flow, steps: flow.steps.slice(0, 2), durationMs: 1800 };
    assert.deepEqual(legsOf(onePage), [onePage]);
    assert.equal(isFlow(onePage), false);
  });

  it('a leg that leaves ends on its click: the hold after it becomes the click step', () => {
    const leg: ActionScript = { ...flow, durationMs: 4000, steps: [...flow.steps.slice(0, 3), { kind: 'wait', label: 'Hold', startMs: 3000, durationMs: 1000 }] };
    const ended = endOnNavigate(leg);
    assert.equal(ended.steps.at(-1)?.kind, 'navigate');
    assert.equal(ended.steps.at(-1)?.durationMs, 2200);
  });
});
