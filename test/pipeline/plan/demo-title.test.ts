import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { demoTitle, sectionLabel, shortenAtWord, shownSections } from '../../../src/pipeline/plan/demo-title.js';
import { storyBeats } from '../../../src/pipeline/story-text/beats.js';
import { mainSection } from '../../../src/pipeline/plan/main-section.js';
import { planDemo } from '../../../src/pipeline/plan/heuristic-planner.js';
import { compileScript } from '../../../src/pipeline/plan/compile.js';
import { mainShotMs } from '../../../src/pipeline/compose/main-shot.js';
import type { InteractionTimeline, OutlineSection } from '../../../src/pipeline/types.js';
import { formAppOutline, saasOutline } from './outlines.js';

const section = (heading: string | null, kicker?: string): OutlineSection => ({
  id: 's', kind: 'pricing', heading, ...(kicker ? { kicker } : {}), text: '', label: heading ?? 'pricing', selector: '#s', fallbackSelectors: [], rect: { x: 0, y: 0, width: 10, height: 10 },
});

describe('the default title of a generated demo', () => {
  /** The title a first recording gets: from the plan's story, the chapters the recording kept, and the page. */
  const titleOf = (prompt: string, outline = saasOutline()) => {
    const plan = planDemo({ prompt, outline, durationTarget: '10s', mode: 'script', template: { id: 'auto' } });
    return demoTitle({ shown: shownSections(storyBeats(plan, outline, 'en'), null), pageTitle: outline.title, prompt });
  };

  it('names what the video shows, in the page’s words, and not the prompt', () => {
    assert.equal(titleOf('show the pricing plans'), 'Simple pricing');
    assert.equal(titleOf('Answer the common questions.'), 'FAQ');
    const twoParts = titleOf('Show the pricing, then end on the FAQ')!;
    assert.equal(twoParts, 'Simple pricing and FAQ', 'a two-part demo reads "X and Y"');
    assert.doesNotMatch(twoParts, /show|then|end on/i, 'no word of the prompt’s own');
  });

  it('joins two and three names as a person would, keeps the page’s capitals, quiets capitals set by markup', () => {
    assert.equal(demoTitle({ shown: ['Rewards', 'Our team'], pageTitle: 'Cardly', prompt: 'Show the rewards, then end on the team' }), 'Rewards and our team');
    assert.equal(demoTitle({ shown: ['REWARDS', 'Our Team'], pageTitle: null, prompt: null }), 'Rewards and Our Team');
    assert.equal(demoTitle({ shown: ['Pricing', 'FAQ', 'How it works'], pageTitle: null, prompt: null }), 'Pricing, FAQ and how it works');
    assert.equal(demoTitle({ shown: ['Pricing', 'pricing', 'FAQ'], pageTitle: null, prompt: null }), 'Pricing and FAQ', 'a name said once');
  });

  it('stays within 60 characters, cutting names at a word and leaving out the middle ones first', () => {
    const shown = ['Everything your team needs to plan and ship', 'Integrations with the tools you use', 'What customers say about us', 'Simple pricing for every team'];
    const title = demoTitle({ shown, pageTitle: null, prompt: null })!;
    assert.ok(title.length <= 60, title);
    // Where the video starts and where it ends, each cut at a word; the middle of the tour left out.
    assert.equal(title, 'Everything your team… and Simple pricing for…');
    assert.equal(shortenAtWord('short enough', 20), 'short enough');
    assert.equal(shortenAtWord('one two, three', 9), 'one two…');
  });

  it('names a demo that shows only its opening by the page’s title; without one, by the prompt, shortened at a word', () => {
    assert.equal(demoTitle({ shown: [], pageTitle: 'Flowboard — Project planning', prompt: 'Show the hero' }), 'Flowboard — Project planning');
    const prompt = 'walk through the whole onboarding, from the sign-up form to the first project, and end on the invite screen';
    const title = demoTitle({ shown: [], pageTitle: null, prompt })!;
    assert.ok(title.length <= 60 && title.endsWith('…'), title);
    assert.ok(title.startsWith('Walk through the whole onboarding'), title);
    assert.equal(demoTitle({ shown: [], pageTitle: null, prompt: '' }), null);
  });

  it('names a section by its heading, not the eyebrow above it, when the prompt calls it by the heading (issue 59)', () => {
    // A studio's contact section as the analyser reads it: "Send a message" in small capitals above "Contact the
    // studio", then the form. A new user's demo of filling it was called "Send a message": the eyebrow.
    const outline = formAppOutline();
    outline.title = 'Lumen Studio';
    const contact = outline.sections.find((s) => s.id === 'contact')!;
    Object.assign(contact, { heading: 'Contact the studio', label: 'Contact the studio', kicker: 'SEND A MESSAGE', text: 'Tell us about your project and we reply within two days.' });
    outline.forms[0]!.label = 'Contact the studio';
    for (const prompt of ['Fill in the contact form', 'Fill the contact form with a short enquiry about a new logo']) {
      const plan = planDemo({ prompt, outline, durationTarget: '10s', mode: 'script', template: { id: 'auto' } });
      const story = storyBeats(plan, outline, 'en', prompt);
      assert.deepEqual(story.beats.map((beat) => beat.title), ['Lumen Studio', 'Contact the studio'], prompt);
      assert.deepEqual(story.beats[1]!.caption, ['Contact the studio'], 'the caption names it as its chapter does');
      assert.equal(demoTitle({ shown: shownSections(story, null), pageTitle: outline.title, prompt }), 'Contact the studio', prompt);
    }
    // The owner who calls it by the eyebrow's words gets those.
    assert.equal(sectionLabel(contact, 'Send us a message through the form'), 'Send a message');
  });

  it('takes the shorter of a section’s eyebrow and heading; between two as long, the eyebrow unless the prompt says otherwise', () => {
    // The eyebrow names a section whose heading is a longer line, a slogan.
    assert.equal(sectionLabel(section('Simple pricing', 'PRICING')), 'Pricing');
    assert.equal(sectionLabel(section('The voices taking the main deck this year', 'Line-up')), 'Line-up');
    // A heading shorter than its eyebrow is the name: a call above it, a breadcrumb over a product.
    assert.equal(sectionLabel(section('Contact', 'Get in touch')), 'Contact');
    assert.equal(sectionLabel(section('Precision Burr Grinder P64', 'Home / Grinders / P64')), 'Precision Burr Grinder P64');
    // As long as each other, and the prompt names neither: the eyebrow, as before.
    assert.equal(sectionLabel(section('Everyone belongs on this pier', 'CODE OF CONDUCT & ACCESS')), 'Code of conduct & access');
    assert.equal(sectionLabel(section('Contact the studio', 'SEND A MESSAGE'), 'Record a short tour'), 'Send a message');
  });

  it('is made from the chapters the recording kept: a section passed through is not in it', () => {
    const outline = saasOutline();
    const plan = planDemo({ prompt: 'Show the pricing, then end on the FAQ', outline, durationTarget: '10s', mode: 'script', template: { id: 'auto' } });
    const story = storyBeats(plan, outline, 'en');
    const kept = { language: 'en', captionsOff: null, captions: [], chapters: [{ title: outline.title, startMs: 0, endMs: 4000 }, { title: 'FAQ', startMs: 4000, endMs: 10_000 }] };
    assert.deepEqual(shownSections(story, kept), ['FAQ']);
    assert.equal(sectionLabel(section('Simple pricing', 'PRICING'))!, 'Pricing');
  });
});

describe('the main shot, where the thumbnail is taken', () => {
  it('is the middle of the time the video rests on the asked-for section, not the opening', () => {
    const outline = saasOutline();
    const plan = planDemo({ prompt: 'Show the pricing plans', outline, durationTarget: '10s', mode: 'script', template: { id: 'section-focus', sectionHint: 'pricing' } });
    const chosen = mainSection(plan, outline);
    assert.equal(chosen?.section.id, 'pricing');
    const script = compileScript(plan, outline, { url: outline.url, viewport: 'desktop' });
    // The timeline as the recorder writes it: each script step as run, and the page scrolling while a scroll runs.
    const steps = script.steps.map((step, index) => ({ index, label: step.label, kind: step.kind, startMs: step.startMs, endMs: step.startMs + step.durationMs }));
    const scrolls = script.steps.filter((s) => s.kind === 'scroll').flatMap((s) => [{ t: s.startMs + 10, y: 1 }, { t: s.startMs + s.durationMs, y: 2 }]);
    const timeline: InteractionTimeline = {
      viewport: { width: 1440, height: 900, deviceScaleFactor: 1 }, durationMs: script.durationMs, cursor: [], clicks: [], keystrokes: [], focus: [], scrolls, steps,
    };
    const at = mainShotMs(timeline, chosen!.shot)!;
    const move = steps.find((s) => s.kind === 'move' && s.label === chosen!.shot.stepLabel)!;
    assert.ok(at > move.endMs, `${at} after the cursor reached the section (${move.endMs})`);
    assert.ok(at > 2000, `${at} ms is past the opening (the old default took 1000 ms)`);
    assert.equal(mainShotMs(timeline, { sectionId: 'pricing', stepLabel: 'no such step' }), null);
    assert.equal(mainShotMs(timeline, null), null);
  });
});
