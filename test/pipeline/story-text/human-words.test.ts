import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { compileScript } from '../../../src/pipeline/plan/compile.js';
import { planDemo } from '../../../src/pipeline/plan/heuristic-planner.js';
import { headlineTarget } from '../../../src/pipeline/plan/targets.js';
import { storyBeats } from '../../../src/pipeline/story-text/beats.js';
import { timeStory } from '../../../src/pipeline/story-text/chapters.js';
import type { TimedStory } from '../../../src/pipeline/story-text/types.js';
import type { DemoPlan, InteractionTimeline, OutlineAction, OutlineSection, PageOutline, SectionKind } from '../../../src/pipeline/types.js';

/**
 * Issue 55, "human words on screen": what a viewer reads in the chapters and captions of a demo is the page's own
 * words, said once, from the moment the section they name can be read.
 */

const section = (id: string, kind: SectionKind, heading: string | null, y: number, text: string, kicker?: string): OutlineSection => ({
  id, kind, heading, text, ...(kicker ? { kicker } : {}), label: heading ?? kind, selector: `#${id}`, fallbackSelectors: [],
  rect: { x: 0, y, width: 1440, height: 760 }, ...(heading ? { headingRect: { x: 320, y: y + 48, width: 800, height: 56 } } : {}),
});

const button = (label: string, y: number, selector: string): OutlineAction => ({
  label, kind: 'cta', href: '/signup', selector, fallbackSelectors: [], rect: { x: 1200, y, width: 160, height: 44 },
});

/** A new user's page: a product with its rewards and its team, a sticky header with a sign-up button. */
function rewardsOutline(): PageOutline {
  return {
    url: 'http://localhost/cardly/', title: 'Cardly — the card that pays you back', description: null,
    viewport: { width: 1440, height: 810 }, documentHeight: 4200, stickyHeaderHeight: 64,
    navigation: [],
    sections: [
      section('top', 'hero', 'The card that pays you back', 0, 'Cardly is a debit card with rewards on every purchase.'),
      section('rewards', 'features', 'Earn on everything you buy', 1000, 'Up to 5% back at 2,000 shops.', 'REWARDS'),
      section('numbers', 'content', null, 1800, 'Trusted by 40,000 members. Rated 4.8 in the app stores.'),
      section('team', 'content', 'Our Team', 2600, 'Eight people in Leeds who answer every message.'),
    ],
    actions: [button('Get your card', 16, 'header a.signup'), button('Meet us', 3100, '#team a.meet')],
    forms: [], media: [], dismissedOverlays: [],
  };
}

/** A plan by hand, as the templates write them: frame each section in turn, then the given ending. */
function planOf(sectionIds: string[], ending: DemoPlan['steps']): DemoPlan {
  const steps: DemoPlan['steps'] = [{ action: 'pause', label: 'Open on the page' }];
  for (const id of sectionIds) {
    steps.push({ action: 'scroll', sectionId: id, toY: 0, label: `Scroll to ${id}` });
    steps.push({ action: 'focus', sectionId: id, label: `Focus on ${id}` });
    steps.push({ action: 'pause', label: `Read ${id}` });
  }
  return { templateId: 'section-focus', autoSelection: null, sectionHint: null, durationMs: 10_000, source: 'heuristic', steps: [...steps, ...ending] };
}

/**
 * The timeline the recorder writes for a plan: each script step as run, the page scrolling a frame at a time with
 * the recorder's ease, and the framed box (the section's element, or the hovered thing) when the cursor sets off.
 */
function recorded(plan: DemoPlan, outline: PageOutline): InteractionTimeline {
  const script = compileScript(plan, outline, { url: outline.url, viewport: 'desktop' });
  const scrolls = [{ t: 0, y: 0 }];
  const focus: InteractionTimeline['focus'] = [];
  let y = 0;
  for (const step of script.steps) {
    if (step.kind === 'scroll') {
      const from = y;
      const frames = Math.max(1, Math.floor(step.durationMs / 40));
      for (let k = 1; k <= frames; k++) {
        const p = k / frames;
        const ease = p < 0.5 ? 4 * p * p * p : 1 - (-2 * p + 2) ** 3 / 2;
        scrolls.push({ t: step.startMs + k * 40, y: Math.round(from + (step.toY - from) * ease) });
      }
      y = step.toY;
    }
    if (step.kind === 'move' || step.kind === 'hover' || step.kind === 'click') {
      const box = outline.sections.find((s) => s.selector === step.target.selector)?.rect ?? step.target.rect;
      focus.push({ t: step.startMs, rect: { ...box, y: box.y - y }, label: step.target.label });
    }
  }
  return {
    viewport: { width: outline.viewport.width, height: outline.viewport.height, deviceScaleFactor: 1 }, durationMs: script.durationMs,
    cursor: [], clicks: [], keystrokes: [], scrolls, focus,
    steps: script.steps.map((step, index) => ({ index, label: step.label, kind: step.kind, startMs: step.startMs, endMs: step.startMs + step.durationMs })),
  };
}

/** Nothing a viewer reads is one of the plan's own names, and nothing is said twice. */
function assertHumanWords(timed: TimedStory): void {
  // The planner's names for what it points at, selectors, and section kinds.
  const internal = /^(Heading|Button|Image|Card|Tier|Quote|Item)\b.*"|(^|\s)[#.][a-z][\w-]*(\s|$)|\[[\w-]+[=\]]|:nth-child|^(content|hero|features|cta|media|footer)$/i;
  const chapters = timed.chapters.map((chapter) => chapter.title);
  const captions = timed.captions.map((caption) => caption.lines.join(' '));
  for (const text of [...chapters, ...captions]) assert.doesNotMatch(text, internal, `"${text}" is a label of ours, not the page's words`);
  const same = (text: string) => text.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, ' ').trim();
  assert.equal(new Set(chapters.map(same)).size, chapters.length, `a chapter said twice: ${JSON.stringify(chapters)}`);
  assert.equal(new Set(captions.map(same)).size, captions.length, `a caption said twice: ${JSON.stringify(captions)}`);
}

describe('chapters and captions say what the page says, once', () => {
  it('a demo that ends by tracing the team’s heading ends on the team, not on `Heading "Our Team"`', () => {
    const outline = rewardsOutline();
    const team = outline.sections[3]!;
    const plan = planOf(['rewards', 'team'], [{ action: 'hover', target: headlineTarget(team), label: 'Trace the heading "Our Team"' }, { action: 'pause', label: 'Hold' }]);
    const timed = timeStory(storyBeats(plan, outline, 'en'), recorded(plan, outline));
    assert.deepEqual(timed.chapters.map((c) => c.title), ['Cardly — the card that pays you back', 'Rewards', 'Our Team']);
    assertHumanWords(timed);
  });

  it('a demo that ends on the header’s sign-up button names it by its words; one inside the section just shown is that section still', () => {
    const outline = rewardsOutline();
    const [header, inTeam] = outline.actions as [OutlineAction, OutlineAction];
    const toHeader = planOf(['rewards', 'team'], [{ action: 'hover', target: { ...header }, label: 'End on "Get your card"' }, { action: 'pause', label: 'Hold' }]);
    const timed = timeStory(storyBeats(toHeader, outline, 'en'), recorded(toHeader, outline));
    assert.deepEqual(timed.chapters.map((c) => c.title), ['Cardly — the card that pays you back', 'Rewards', 'Our Team', 'Get your card']);
    assertHumanWords(timed);
    const inside = planOf(['rewards', 'team'], [{ action: 'click', target: { ...inTeam }, label: 'Click "Meet us"' }]);
    const inSection = timeStory(storyBeats(inside, outline, 'en'), recorded(inside, outline));
    assert.deepEqual(inSection.chapters.map((c) => c.title), ['Cardly — the card that pays you back', 'Rewards', 'Our Team']);
    assertHumanWords(inSection);
  });

  it('a section without a heading is named by its own first words, and one named like a section already shown is not a new chapter', () => {
    const outline = rewardsOutline();
    // A second part whose kicker reads as the first's: the same words again, so the first runs on over it.
    outline.sections.push(section('more', 'features', 'More ways to earn', 3400, 'Refer a friend.', 'Rewards'));
    outline.documentHeight = 5000;
    const plan = planOf(['rewards', 'numbers', 'more'], [{ action: 'pause', label: 'Hold' }]);
    const story = storyBeats(plan, outline, 'en');
    assert.deepEqual(story.beats.map((b) => b.title), ['Cardly — the card that pays you back', 'Rewards', 'Trusted by 40,000 members']);
    assertHumanWords(timeStory(story, recorded(plan, outline)));
  });

  it('the heuristic planner’s demos of a two-part prompt, ending on the team, hold no label of ours and no repeat', () => {
    const outline = rewardsOutline();
    for (const prompt of ['Show the rewards, then end on the team', 'Show the team', 'Show the rewards and finish on the sign-up button']) {
      for (const durationTarget of ['5s', '10s', '30s'] as const) {
        const plan = planDemo({ prompt, outline, durationTarget, template: { id: 'auto' }, mode: 'script' });
        assertHumanWords(timeStory(storyBeats(plan, outline, 'en'), recorded(plan, outline)));
      }
    }
  });
});

describe('a chapter starts when its section can be read', () => {
  /** When the section's heading is in the view (below the sticky header) from then on, by the scroll samples. */
  function headingInViewMs(timeline: InteractionTimeline, outline: PageOutline, s: OutlineSection, untilMs: number): number {
    const heading = s.headingRect!;
    const inView = (y: number) => heading.y - y >= outline.stickyHeaderHeight && heading.y + heading.height - y <= outline.viewport.height;
    let from = untilMs;
    for (const sample of [...timeline.scrolls].reverse()) {
      if (sample.t > untilMs) continue;
      if (!inView(sample.y)) break;
      from = sample.t;
    }
    return from;
  }

  it('the team’s chapter and caption start once the scroll has brought its heading into view, not when the travel sets off', () => {
    const outline = rewardsOutline();
    const plan = planOf(['rewards', 'team'], [{ action: 'pause', label: 'Hold' }]);
    const timeline = recorded(plan, outline);
    const timed = timeStory(storyBeats(plan, outline, 'en'), timeline);
    for (const id of ['rewards', 'team']) {
      const s = outline.sections.find((x) => x.id === id)!;
      const title = id === 'rewards' ? 'Rewards' : 'Our Team';
      const chapter = timed.chapters.find((c) => c.title === title)!;
      const framed = timeline.steps.find((step) => step.label === `Focus on ${id}`)!;
      const travel = timeline.steps.find((step) => step.label === `Scroll to ${id}`)!;
      const readableMs = headingInViewMs(timeline, outline, s, framed.endMs);
      assert.ok(chapter.startMs >= readableMs, `"${title}" starts at ${chapter.startMs} ms, before its heading is in view at ${readableMs} ms`);
      assert.ok(chapter.startMs > travel.startMs + (travel.endMs - travel.startMs) / 2, `"${title}" starts past the middle of the scroll to it (${travel.startMs}–${travel.endMs} ms)`);
      assert.ok(chapter.startMs <= framed.startMs, `"${title}" starts by the time the recorder frames it (${framed.startMs} ms), at ${chapter.startMs} ms`);
      const caption = timed.captions.find((c) => c.lines.join(' ').startsWith(title));
      assert.ok(caption && caption.startMs >= readableMs, `its caption from ${caption?.startMs} ms`);
    }
  });

  it('a section on screen for under a second is passed through: the chapter before runs on, the next keeps its own start', () => {
    const outline = rewardsOutline();
    const plan = planOf(['rewards', 'numbers', 'team'], [{ action: 'pause', label: 'Hold' }]);
    // The recorder reaches "numbers" and sets off for the team at once: 0.8 s between the two being readable.
    const steps = [
      ['wait', 'Open on the page', 0, 1500], ['scroll', 'Scroll to rewards', 1500, 2200], ['move', 'Focus on rewards', 2200, 2600],
      ['wait', 'Read rewards', 2600, 4000], ['scroll', 'Scroll to numbers', 4000, 4600], ['move', 'Focus on numbers', 4600, 4800],
      ['scroll', 'Scroll to team', 4800, 5400], ['move', 'Focus on team', 5400, 5800], ['wait', 'Read team', 5800, 10_000],
    ] as const;
    const framed = { x: 0, y: 64, width: 1440, height: 760 };
    const timeline: InteractionTimeline = {
      viewport: { width: 1440, height: 810, deviceScaleFactor: 1 }, durationMs: 10_000, cursor: [], clicks: [], keystrokes: [],
      scrolls: [[0, 0], [1900, 600], [2100, 900], [2200, 936], [4300, 1500], [4500, 1736], [5100, 2300], [5300, 2536]].map(([t, y]) => ({ t: t!, y: y! })),
      focus: [2200, 4600, 5400].map((t) => ({ t, rect: framed, label: 'section' })),
      steps: steps.map(([kind, label, startMs, endMs], index) => ({ index, kind, label, startMs, endMs })),
    };
    const timed = timeStory(storyBeats(plan, outline, 'en'), timeline);
    // Rewards: readable at 2.1 s (36 px left to scroll, gliding 360 px a second), not at 1.9 s (a third of a screen
    // away, 1,500 px a second); the numbers at 4.5 s (at 4.3 s the page still glides 1,180 px a second) and the team
    // at 5.3 s, 0.8 s later: the numbers are a pass-through and the rewards run on to the team.
    assert.deepEqual(timed.chapters.map((c) => [c.title, c.startMs, c.endMs]), [
      ['Cardly — the card that pays you back', 0, 2100],
      ['Rewards', 2100, 5300],
      ['Our Team', 5300, 10_000],
    ]);
  });
});
