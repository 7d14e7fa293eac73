import type { ActionScript, ScriptStep, Target } from '../../../src/pipeline/types.js';

/**
 * A 6.4 s demo of the saas fixture (cheap to paint, unlike glasshouse): two scrolls, a hover the camera zooms on, and
 * a click that opens an FAQ answer in a single frame (a cut the compositor dissolves).
 */
export function saasDemoScript(url: string): ActionScript {
  const steps: ScriptStep[] = [
    { kind: 'wait', label: 'Opening', startMs: 0, durationMs: 900 },
    { kind: 'scroll', label: 'To the features', toY: 700, startMs: 900, durationMs: 1200 },
    { kind: 'hover', label: 'A feature', target: target('#features h2'), startMs: 2100, durationMs: 1300 },
    { kind: 'scroll', label: 'To the FAQ', toY: 3000, startMs: 3400, durationMs: 1200 },
    { kind: 'click', label: 'A question', target: target('.faq__item:nth-of-type(2) summary'), startMs: 4600, durationMs: 900 },
    { kind: 'wait', label: 'Closing', startMs: 5500, durationMs: 900 },
  ];
  return { version: 1, url, viewport: 'desktop', durationMs: 6400, templateId: 'guided-tour', steps };
}

function target(selector: string): Target {
  return { label: selector, selector, fallbackSelectors: [], rect: { x: 0, y: 0, width: 10, height: 10 } };
}
