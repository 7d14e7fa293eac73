import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { narratedCaptions, placeLines, type VoicedLine } from '../../../src/pipeline/narration/place.js';
import type { TimedStory } from '../../../src/pipeline/story-text/types.js';

const story: TimedStory = {
  language: 'en',
  captionsOff: null,
  chapters: [
    { title: 'Acme', startMs: 0, endMs: 3000 },
    { title: 'Pricing', startMs: 3000, endMs: 6000 },
    { title: 'Start a trial', startMs: 6000, endMs: 9000 },
  ],
  captions: [{ startMs: 3000, endMs: 5500, lines: ['Pricing: $9 to $49'], avoid: { x: 10, y: 20, width: 300, height: 200 } }],
};
const line = (beatTitle: string, durationMs: number): VoicedLine => ({ beatTitle, stepLabel: null, text: `${beatTitle}.`, by: 'rules', durationMs });

describe('placing the spoken lines in the recording', () => {
  it('starts each line once its shot is readable, and leaves unsaid a line its shot has no room for, never cut', () => {
    const placed = placeLines([line('Acme', 2000), line('Pricing', 2900), line('Start a trial', 1500), line('FAQ', 500)], story, { durationMs: 9000, openingLeadMs: 800, endMs: 500 });
    assert.deepEqual(placed.lines.map((l) => [l.beatTitle, l.startMs, l.endMs, l.shotStartMs, l.shotEndMs]), [
      ['Acme', 800, 2800, 0, 3000],
      ['Start a trial', 6150, 7650, 6000, 9000],
    ]);
    assert.deepEqual(placed.unsaid.map((l) => [l.beatTitle, l.reason]), [
      ['Pricing', 'It lasts 2.9 s and its shot left 2.8 s.'],
      ['FAQ', 'The recording never reached its shot.'],
    ]);
  });

  it('captions the spoken words while they are said, at least a second, keeping clear of what the beat’s caption kept clear of', () => {
    const placed = placeLines([line('Pricing', 600)], story, { durationMs: 9000, openingLeadMs: 800, endMs: 500 });
    assert.deepEqual(narratedCaptions(placed.lines, story), [{ startMs: 3150, endMs: 4150, lines: ['Pricing.'], avoid: { x: 10, y: 20, width: 300, height: 200 } }]);
  });
});
