import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { clausesOf } from '../../../src/pipeline/plan/prompt-clauses.js';
import { scrollYForSection } from '../../../src/pipeline/plan/outline-query.js';
import { madeUpPage, madeUpSection, subjectIdsOn } from './outlines.js';

/**
 * What the twentieth blind batch (issue 55, blind-2026-12-15) asked that the planner misread: a question about two
 * nouns at once ("which towns and counties…"), the towns a local trade comes out to, the reasons to pick a firm over
 * others ("Why Choose …?"), where a resort's guests stay, where an event takes place, a two-part prompt that "moves on
 * to" its second beat, and a section whose heading sits under a tall image. Each page below is made up.
 */

const part = madeUpSection;
const idsOn = subjectIdsOn;

describe('a question about two nouns at once', () => {
  it('is one clause when the two nouns share its verb', () => {
    assert.deepEqual(clausesOf('Which towns and counties will they come out to?'), ['Which towns and counties will they come out to']);
    assert.deepEqual(clausesOf('What clients and buildings have they done signage for?'), ['What clients and buildings have they done signage for']);
  });

  it('is still two when the second is a question of its own', () => {
    assert.deepEqual(clausesOf('Which plans and how do I pay'), ['Which plans', 'how do I pay']);
  });
});

describe("a locksmith's page", () => {
  const page = madeUpPage([
    part('top', 'hero', 'Car | Commercial | Residential Locksmith', 0, 'Locked out? Call now.'),
    part('services', 'features', 'Our Locksmith Services', 700, 'Lockouts, rekeying, key cutting, safe opening.'),
    part('why', 'features', 'Why Choose CCR Locksmith?', 1400, 'Fast response, fair prices, licensed and insured.'),
    part('area', 'content', 'Serving Metro Detroit', 2100, 'We cover Wayne, Oakland and Macomb counties.'),
    part('faq', 'faq', 'Frequently Asked Questions', 2800, 'How fast can you get here? Do you serve all counties? Which jobs do you take?'),
  ]);

  it('reads the towns they come out to as the area they serve', () => {
    assert.deepEqual(idsOn(page)('Which towns and counties will they come out to?'), ['area']);
  });

  it('reads the kinds of jobs they handle as their services, not a heading that says "lock"', () => {
    const locks = madeUpPage([
      ...page.sections.slice(0, 1),
      part('help', 'content', "Locked Out? Need a new key? We're Here to Help!", 700, 'Call us any time, day or night.'),
      ...page.sections.slice(1).map((section, i) => ({ ...section, rect: { ...section.rect, y: 1400 + i * 700 } })),
    ]);
    assert.deepEqual(idsOn(locks)('Start with the kinds of lock jobs they handle, then end on why I should pick them.'), ['services', 'why']);
  });

  it('ends on why to pick them over someone else at the part that says why to choose them', () => {
    assert.deepEqual(idsOn(page)('Begin with the services they offer, then end on the reasons to hire them over someone else.'), ['services', 'why']);
  });
});

describe("a resort's page", () => {
  const page = madeUpPage([
    part('top', 'hero', 'Amanpulo Pamalican Island, Palawan', 0, 'A private island resort.'),
    part('waters', 'content', 'Crystal-Clear Waters', 700, 'Snorkel and dive the reef around the island.'),
    part('villas', 'features', 'Luxurious Villas', 1400, 'Beach casitas and hillside villas on the island.'),
    part('plan', 'content', 'Plan Your Visit to Amanpulo Pamalican Island', 2100, 'Flights, transfers and travel tips.'),
  ]);

  it('answers where guests would stay with the rooms, not the travel plans', () => {
    assert.deepEqual(idsOn(page)('Where would we actually stay on the island? Show me the accommodation.'), ['villas']);
  });
});

describe("a conference's page", () => {
  const page = madeUpPage([
    part('top', 'hero', 'Model United Nations 2023', 0, 'Three days of debate.'),
    part('team', 'content', 'Organizing Team', 700, 'The secretariat and the organisers.'),
    part('contact', 'form', "We'd love to hear from you", 1400, 'Name, email, message.'),
    part('where', 'content', 'Our Location', 2100, 'University campus, Bengaluru.'),
  ]);

  it('shows where the event takes place at its location', () => {
    assert.deepEqual(idsOn(page)('Show where the event takes place.'), ['where']);
  });
});

describe("a colour picker's docs page", () => {
  const page = madeUpPage([
    part('why', 'features', 'Why A Colorpicker?', 0, 'I wanted one that does everything without images.'),
    part('modes', 'content', 'Modes', 700, 'Custom, flat and input modes: ways the picker is shown.'),
    part('move', 'content', 'move', 1400, 'Called as the user moves around within the colorpicker.'),
    part('skinning', 'content', 'Skinning', 2100, 'Since it is all built with HTML and CSS, you can skin it easily.'),
    part('gritty', 'content', 'Nitty Gritty', 2800, 'Browser Support: IE8+, Chrome, Firefox, Safari, Opera.', { subtitle: 'Browser Support' }),
  ]);

  it('passes over "move on to" to the beat it leads to', () => {
    assert.deepEqual(idsOn(page)('Begin with the different ways the picker can be shown, then move on to restyling it with my own CSS.'), ['modes', 'skinning']);
  });

  it('reads "which browsers does it work in" as a question about browsers, not about what it does', () => {
    assert.deepEqual(idsOn(page)('Which browsers does this colour picker work in?'), ['gritty']);
  });
});

describe('a section whose heading sits under a tall image', () => {
  const image = part('why', 'features', 'Why Choose TSME?', 2200, 'Choose us for expert wayfinding design.', {
    rect: { x: 0, y: 2200, width: 1440, height: 1440 },
    headingRect: { x: 300, y: 3250, width: 400, height: 40 },
  });

  it('is shown low enough for its heading to be read, the image ending above it', () => {
    const y = scrollYForSection(madeUpPage([image]), image);
    assert.ok(y > 2200 && 3250 - y > 0 && 3290 - y < 810 * 0.6, `heading at ${3250 - y} px in an 810-px view`);
  });

  it('is shown from its top when a title over the heading opens it (an eyebrow, a part above, a price taken for the heading)', () => {
    for (const more of [{ kicker: 'Get My Merch' }, { heading: '$ 0' }, { parts: [{ heading: 'Simple plans', headingRect: { x: 0, y: 2250, width: 400, height: 40 }, rect: { x: 0, y: 2250, width: 1440, height: 300 }, text: '', selector: '#p', fallbackSelectors: [] }] }]) {
      const section = { ...image, ...more };
      assert.equal(scrollYForSection(madeUpPage([section]), section), 2200 - 16, JSON.stringify(Object.keys(more)));
    }
  });
});
