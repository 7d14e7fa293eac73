import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { planDemo } from '../../../src/pipeline/plan/heuristic-planner.js';
import { storyBeats } from '../../../src/pipeline/story-text/beats.js';
import { captionsOffReason, factsOnPage, offlineCaption, pageLanguage, wrapCaption } from '../../../src/pipeline/story-text/captions.js';
import { timeStory } from '../../../src/pipeline/story-text/chapters.js';
import { CAPTION_LIMITS } from '../../../src/pipeline/story-text/types.js';
import { captionsVtt, chaptersVtt } from '../../../src/pipeline/story-text/webvtt.js';
import type { InteractionTimeline, OutlineSection, PageOutline, SectionKind } from '../../../src/pipeline/types.js';

const section = (id: string, kind: SectionKind, heading: string, y: number, text: string): OutlineSection => ({
  id, kind, heading, text, label: heading, selector: `#${id}`, fallbackSelectors: [], rect: { x: 0, y, width: 1440, height: 700 },
});

/** A studio page: a hero, its team, its rates and a contact form. */
function studioOutline(): PageOutline {
  return {
    url: 'http://localhost/studio/', title: 'Fernhill studio', description: null, viewport: { width: 1440, height: 810 },
    documentHeight: 5000, stickyHeaderHeight: 64,
    navigation: [],
    sections: [
      section('intro', 'hero', 'Brands that feel like somebody made them', 0, 'An independent studio for identity and websites.'),
      section('people', 'content', 'The studio', 1400, 'Seven designers, writers and developers in Bristol. 98% of clients return.'),
      section('rates', 'pricing', 'Rates', 2100, 'Fixed quotes: Sprint £6k, Project £18k, Retainer £4k a month.'),
      section('hello', 'form', 'Say hello', 2800, 'Tell us about your project; we answer every message.'),
    ],
    actions: [], forms: [], media: [], dismissedOverlays: [],
  };
}

/** A timeline as the recorder writes it for a two-section plan: scroll, move (the plan step's label), dwell, each. */
function twoSectionTimeline(): InteractionTimeline {
  const steps = [
    ['wait', 'Open on the page', 0, 1500],
    ['scroll', 'Scroll to "The studio"', 1500, 2100],
    ['move', 'Focus on "The studio"', 2100, 2600],
    ['wait', 'Read "The studio"', 2600, 5000],
    ['scroll', 'Scroll to "Say hello"', 5000, 6000],
    ['move', 'Focus on "Say hello"', 6000, 6400],
    ['wait', 'Hold on "Say hello"', 6400, 10_000],
  ] as const;
  return {
    viewport: { width: 1440, height: 810, deviceScaleFactor: 1 }, durationMs: 10_000,
    cursor: [], clicks: [], keystrokes: [], scrolls: [{ t: 1500, y: 0 }, { t: 2100, y: 1336 }, { t: 6000, y: 2736 }],
    focus: [{ t: 2600, rect: { x: 100, y: 80, width: 600, height: 90 }, label: 'The studio' }, { t: 6400, rect: { x: 100, y: 80, width: 500, height: 90 }, label: 'Say hello' }],
    steps: steps.map(([kind, label, startMs, endMs], index) => ({ index, kind, label, startMs, endMs })),
  };
}

describe('chapters and captions from the plan and the recording', () => {
  it('a two-part prompt gives the opening and one chapter a section, timed by the recorded steps, not the plan', () => {
    const outline = studioOutline();
    const plan = planDemo({ prompt: 'Show the team and how to get in touch', outline, durationTarget: '10s', template: { id: 'auto' }, mode: 'script' });
    const story = storyBeats(plan, outline, 'en');
    assert.deepEqual(story.beats.map((beat) => beat.title), ['Fernhill studio', 'The studio', 'Say hello']);
    const timed = timeStory(story, twoSectionTimeline());
    // Each chapter starts when the scroll has brought its section in (issue 55), not when the scroll sets off: the
    // travel is the end of the chapter being left.
    assert.deepEqual(timed.chapters, [
      { title: 'Fernhill studio', startMs: 0, endMs: 2100 },
      { title: 'The studio', startMs: 2100, endMs: 6000 },
      { title: 'Say hello', startMs: 6000, endMs: 10_000 },
    ]);
  });

  it('captions keep the timed-text limits and show while their section is framed, with its box to keep clear of', () => {
    const outline = studioOutline();
    const plan = planDemo({ prompt: 'Show the team and how to get in touch', outline, durationTarget: '10s', template: { id: 'auto' }, mode: 'script' });
    const timed = timeStory(storyBeats(plan, outline, 'en-GB'), twoSectionTimeline());
    assert.ok(timed.captions.length >= 2, JSON.stringify(timed.captions));
    for (const caption of timed.captions) {
      assert.ok(caption.lines.length >= 1 && caption.lines.length <= CAPTION_LIMITS.lines);
      for (const line of caption.lines) assert.ok(line.length <= CAPTION_LIMITS.lineChars, line);
      const ms = caption.endMs - caption.startMs;
      assert.ok(ms >= CAPTION_LIMITS.minMs && ms <= CAPTION_LIMITS.maxMs, `${ms} ms`);
    }
    const studio = timed.captions.find((c) => c.lines.join(' ').startsWith('The studio'))!;
    assert.deepEqual([studio.startMs, studio.endMs], [2100, 5000], 'from the moment the section is on screen until the page sets off again');
    assert.deepEqual(studio.avoid, { x: 100, y: 80, width: 600, height: 90 });
    const hello = timed.captions.find((c) => c.lines.join(' ').startsWith('Say hello'))!;
    assert.deepEqual([hello.startMs, hello.endMs], [6000, 10_000], 'until the video ends');
  });

  it('a beat the recording never reached has no chapter, and a chapter under a second gives way to the next', () => {
    const outline = studioOutline();
    const plan = planDemo({ prompt: 'Show the team and how to get in touch', outline, durationTarget: '10s', template: { id: 'auto' }, mode: 'script' });
    const timeline = twoSectionTimeline();
    // The studio is on screen 0.4 s in: the opening is a pass-through and the studio's chapter starts the video.
    timeline.steps = timeline.steps.filter((step) => !step.label.includes('Say hello')).map((step) => (step.index === 0 ? { ...step, endMs: 200 } : step));
    timeline.steps[1] = { ...timeline.steps[1]!, startMs: 200, endMs: 400 };
    timeline.scrolls = [{ t: 0, y: 0 }, { t: 400, y: 1336 }];
    const timed = timeStory(storyBeats(plan, outline, 'en'), timeline);
    assert.deepEqual(timed.chapters.map((c) => [c.title, c.startMs]), [['The studio', 0]]);
  });

  it('offline captions name the section and its key fact in the page’s words: a price range, a figure', () => {
    const outline = studioOutline();
    assert.deepEqual(offlineCaption(outline.sections[2]!), ['Rates: £4k to £18k']);
    assert.deepEqual(offlineCaption(outline.sections[1]!), ['The studio: 98% of clients return']);
    assert.deepEqual(offlineCaption(outline.sections[3]!), ['Say hello'], 'no figure on the page: the name alone');
    for (const s of outline.sections) {
      const caption = offlineCaption(s)!.join(' ');
      assert.ok(factsOnPage(caption, `${s.heading} ${s.text}`), caption);
    }
  });

  it('never invents a fact: a number or a name the page does not have fails the check', () => {
    const page = 'Rates. Fixed quotes: Sprint £6k, Project £18k.';
    assert.equal(factsOnPage('Rates: £6k to £18k', page), true);
    assert.equal(factsOnPage('Rates: 3 plans', page), false, 'a count the page does not write');
    assert.equal(factsOnPage('Rates: £5k to £18k', page), false);
    assert.equal(factsOnPage('Rates for Acme', page), false, 'a name that is not on the page');
  });

  it('wraps at a word into two lines of at most 42 characters, shortening the rest with an ellipsis', () => {
    const lines = wrapCaption('Everything your team needs to plan, track and ship great software together, every single day of the week');
    assert.equal(lines.length, 2);
    for (const line of lines) assert.ok(line.length <= 42, line);
    assert.ok(lines[1]!.endsWith('…'));
    assert.deepEqual(wrapCaption('Pricing'), ['Pricing']);
    assert.deepEqual(wrapCaption('Simple pricing that scales with you: $0 to $29'), ['Simple pricing that scales', 'with you: $0 to $29'], 'balanced, not "$29" alone');
  });

  it('follows the page’s language: offline captions are English only, so a French page has none and says why', () => {
    assert.equal(pageLanguage('FR-ca'), 'fr-ca');
    assert.equal(pageLanguage('"><script>'), null);
    assert.equal(captionsOffReason('en-GB', 'rules'), null);
    assert.equal(captionsOffReason(null, 'rules'), null);
    assert.equal(captionsOffReason('fr', 'model'), null, 'a model writes in the page’s language');
    const outline = studioOutline();
    const plan = planDemo({ prompt: 'Show the team and how to get in touch', outline, durationTarget: '10s', template: { id: 'auto' }, mode: 'script' });
    const story = storyBeats(plan, outline, 'fr');
    assert.match(story.captionsOff ?? '', /"fr".*English only/);
    assert.ok(story.beats.every((beat) => beat.caption === null));
    const timed = timeStory(story, twoSectionTimeline());
    assert.equal(timed.captions.length, 0);
    assert.equal(timed.chapters.length, 3, 'chapters are the page’s own headings, in any language');
  });

  it('writes WebVTT with escaped cue text, so a heading is shown as written and never read as markup', () => {
    const vtt = chaptersVtt({ language: 'en', captionsOff: null, captions: [], chapters: [{ title: '<b>Price</b> & "plans" -->', startMs: 0, endMs: 61_500 }] });
    assert.equal(vtt, 'WEBVTT\n\nchapter-1\n00:00:00.000 --> 00:01:01.500\n&lt;b&gt;Price&lt;/b&gt; &amp; "plans" --&gt;\n');
    const captions = captionsVtt({ language: 'en', captionsOff: null, chapters: [], captions: [{ startMs: 1000, endMs: 3500, lines: ['Rates: £4k', 'to £18k'], avoid: null }] });
    assert.equal(captions, 'WEBVTT\n\ncaption-1\n00:00:01.000 --> 00:00:03.500\nRates: £4k\nto £18k\n');
  });
});
