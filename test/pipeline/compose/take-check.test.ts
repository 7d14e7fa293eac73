import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkTake, takeCheckEntry } from '../../../src/pipeline/compose/take-check.js';
import type { DemoPlan, InteractionTimeline } from '../../../src/pipeline/types.js';
import { saasOutline } from '../plan/outlines.js';

/** The service reads its own take as the story evaluation reads a video: the framed sections, how long each was readable. */
describe('checking a take', () => {
  const outline = saasOutline();
  const pricing = outline.sections.find((section) => section.id === 'pricing')!;
  pricing.headingRect = { x: 560, y: pricing.rect.y + 40, width: 320, height: 48 };
  const plan: DemoPlan = {
    templateId: 'section-focus', autoSelection: null, sectionHint: 'Simple pricing', durationMs: 10_000, source: 'heuristic',
    steps: [{ action: 'scroll', sectionId: 'pricing', toY: 3000, label: 'Scroll' }, { action: 'focus', sectionId: 'pricing', label: 'Focus' }, { action: 'pause', label: 'Dwell' }],
  };
  /** A 10 s take that scrolls to `toY` between 1 s and 2 s and rests there. */
  const take = (toY: number): InteractionTimeline => ({
    viewport: { width: 1440, height: 900, deviceScaleFactor: 1 },
    durationMs: 10_000,
    cursor: [{ t: 0, x: 720, y: 450 }],
    clicks: [], keystrokes: [], focus: [],
    scrolls: Array.from({ length: 11 }, (_, i) => ({ t: 1000 + i * 100, y: Math.round((toY * i) / 10) })),
    steps: [{ index: 0, label: 'Scroll', kind: 'scroll', startMs: 1000, endMs: 2000 }, { index: 1, label: 'Dwell', kind: 'wait', startMs: 2000, endMs: 10_000 }],
  });

  it('passes a take that rests with the heading below the sticky header, and says how long it was readable', () => {
    const headingTop = pricing.headingRect!.y;
    const check = checkTake({ outline, plan, timeline: take(headingTop - outline.stickyHeaderHeight - 16), presentation: null, resolution: '720p' });
    assert.equal(check.passed, true);
    assert.equal(check.targets[0]!.section, 'Simple pricing');
    assert.ok(check.targets[0]!.longestS >= 7, `readable ${check.targets[0]!.longestS} s`);
    const entry = takeCheckEntry(check, 5, 10_000);
    assert.equal(entry.ok, true);
    assert.match(entry.target ?? '', /"Simple pricing" \d+\.\d s \(bar 3\.0 s\)/);
  });

  it('fails a take whose scroll put the heading under the sticky header (a layout that moved, a header missed)', () => {
    const check = checkTake({ outline, plan, timeline: take(pricing.headingRect!.y - 20), presentation: null, resolution: '720p' });
    assert.equal(check.passed, false);
    assert.ok(check.targets[0]!.longestS < 1);
    const entry = takeCheckEntry(check, 5, 10_000);
    assert.equal(entry.ok, false);
    assert.match(entry.error ?? '', /not readable/);
  });

  /** Two sections framed in turn; the take reaches the second at 5 s and, when `leaves`, scrolls back to the top at 8.5 s. */
  const twoBeats = (leaves: boolean) => {
    const features = outline.sections.find((section) => section.id === 'features')!;
    features.headingRect = { x: 560, y: features.rect.y + 40, width: 320, height: 48 };
    const beatPlan: DemoPlan = {
      ...plan,
      steps: [
        { action: 'focus', sectionId: 'features', label: 'Features' },
        { action: 'focus', sectionId: 'pricing', label: 'Then pricing' },
        { action: 'pause', label: 'Hold' },
      ],
    };
    const at = (section: typeof features) => section.headingRect!.y - outline.stickyHeaderHeight - 16;
    const timeline: InteractionTimeline = {
      ...take(at(features)),
      scrolls: [
        ...Array.from({ length: 11 }, (_, i) => ({ t: 500 + i * 100, y: Math.round((at(features) * i) / 10) })),
        ...Array.from({ length: 11 }, (_, i) => ({ t: 5000 + i * 100, y: Math.round(at(features) + ((at(pricing) - at(features)) * i) / 10) })),
        ...(leaves ? Array.from({ length: 6 }, (_, i) => ({ t: 8500 + i * 100, y: Math.round(at(pricing) * (1 - (i + 1) / 6)) })) : []),
      ],
    };
    return { beatPlan, timeline };
  };

  it('passes a two-part take that ends on the section it was asked to end on, and logs what it ended on', () => {
    const { beatPlan, timeline } = twoBeats(false);
    const check = checkTake({ outline, plan: beatPlan, timeline, presentation: null, resolution: '720p' });
    assert.deepEqual(check.targets.map((target) => target.section), [outline.sections.find((s) => s.id === 'features')!.heading, 'Simple pricing']);
    assert.equal(check.ending?.section, 'Simple pricing');
    assert.equal(check.ending?.readableShare, 1);
    assert.equal(check.passed, true);
    assert.match(takeCheckEntry(check, 3, 10_000).target ?? '', /ends on "Simple pricing", readable 100% of the last second/);
  });

  it('fails a take that read both sections long enough but then moved away from the ending', () => {
    const { beatPlan, timeline } = twoBeats(true);
    const check = checkTake({ outline, plan: beatPlan, timeline, presentation: null, resolution: '720p' });
    assert.ok(check.targets.every((target) => target.longestS >= check.barS), 'each section read long enough');
    assert.equal(check.ending?.readableShare, 0);
    assert.equal(check.passed, false);
    assert.match(takeCheckEntry(check, 3, 10_000).error ?? '', /does not end on the section it was asked to end on/);
  });
});
