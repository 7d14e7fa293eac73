import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { clausesOf } from '../../../src/pipeline/plan/prompt-clauses.js';
import { promptSubjects } from '../../../src/pipeline/plan/section-meaning.js';
import type { OutlineSection, PageOutline } from '../../../src/pipeline/types.js';

/**
 * A library's single-page documentation, as a visitor asks about it: many short parts under plain headings ("Setup",
 * "Drawbacks", "Credits"), API names as headings, and the library's own subject word in most of them.
 */
function part(id: string, heading: string, y: number, text: string): OutlineSection {
  return { id, kind: 'content', heading, text, label: heading, selector: `#${id}`, fallbackSelectors: [], rect: { x: 300, y, width: 840, height: 400 } };
}

function docsPage(sections: OutlineSection[]): PageOutline {
  return {
    url: 'http://localhost/pickbox/', title: 'Pickbox', description: null, viewport: { width: 1440, height: 810 },
    documentHeight: 400 * sections.length + 800, stickyHeaderHeight: 0, navigation: [], sections, actions: [], forms: [], media: [], dismissedOverlays: [],
  };
}

const pickbox = () =>
  docsPage([
    part('standard', 'Standard Select', 0, 'Pickbox turns this select box into a searchable dropdown.'),
    part('multiple', 'Multiple Select', 400, 'Pick several options from one select box.'),
    part('disabled', 'Selected and Disabled Options', 800, 'Pickbox highlights selected options and removes disabled ones.'),
    part('limit', 'Limit Selected Options in Multiselect', 1200, 'You can limit how many options the user can select: maxSelected: 5.'),
    part('rtl', 'Right-to-Left Support', 1600, 'Add the rtl class to the select for languages written right to left.'),
    part('setup', 'Setup', 2000, 'Download the plugin, copy its files to your app and call pickbox() on the select boxes you choose.'),
    part('drawbacks', 'Drawbacks', 2400, 'Self-closing elements such as img and input will not show it; pseudo-elements already in use conflict.'),
    part('a11y', 'A11Y (accessibility)', 2800, 'Use colours responsibly: 90 combinations that pass WCAG.'),
    part('credits', 'Credits', 3200, 'Concept and development by Pat Filler. Design by Matt Lett. Maintained by five people, with contributions by many fine folks.'),
    part('links', 'Links', 3600, 'More examples, the wiki and the community chat for help.'),
  ]);

const ids = (prompt: string, outline = pickbox()) => promptSubjects(prompt, outline).subjects.map((s) => s.section.id);

describe('what a prompt asks of a single-page documentation', () => {
  it('knows getting a library running on one\'s own page as its setup, and who built it as its credits', () => {
    assert.deepEqual(ids('Walk me through getting it running on my own dropdowns, then end on who built it.'), ['setup', 'credits']);
    assert.deepEqual(ids('Show how to add it to my project'), ['setup']);
  });

  it('knows "what\'s the catch" and "where won\'t it work" as its drawbacks', () => {
    assert.deepEqual(ids("What's the catch? Where won't these dropdowns work?"), ['drawbacks']);
  });

  it('knows stopping people picking more than a few as a limit, and readable contrast as accessibility', () => {
    assert.deepEqual(ids('Can I stop people picking more than a handful of items in the multi-pick box?'), ['limit']);
    assert.deepEqual(ids('Which colour combinations stay readable for people who struggle with low contrast?'), ['a11y']);
  });

  it('ends on what the whole ending clause names: what follows its "and" is more of the ending, not a beat before it', () => {
    assert.deepEqual(clausesOf('Explain the select boxes, then end on where to find more examples and community help.'), ['Explain the select boxes', 'end on where to find more examples and community help']);
    assert.deepEqual(clausesOf('Show the team and the prices, then the FAQ'), ['Show the team', 'the prices', 'the FAQ'], 'an "and" outside an ending still parts two beats');
    const found = promptSubjects('Show the right-to-left support, then end on where to find more examples and community help.', pickbox());
    assert.equal(found.endsOn?.section.id, 'links');
    assert.deepEqual(found.subjects.map((s) => s.section.id), ['rtl', 'links']);
  });

  it('ends on the head of an ending whose "and" speaks of it ("and their prices"), not on another part that has prices', () => {
    const hotel = docsPage([
      part('stay', 'Rooms and prices', 0, 'Twenty-two rooms; nightly prices from £120.'),
      part('unwind', 'Warm stone and nowhere to be', 400, 'Spa treatments: hot stone massage, sauna, seaweed wrap.'),
      part('evening', 'From the creek to the table', 800, 'A tasting menu every night.'),
    ]);
    const found = promptSubjects('I want a video that finishes on the spa treatments and their prices', hotel);
    assert.equal(found.endsOn?.section.id, 'unwind');
    assert.deepEqual(found.subjects.map((s) => s.section.id), ['unwind'], 'the prices are the spa\'s, not a beat of the rooms before it');
  });

  it('finds a long part by the headings of its own parts, where its text was cut short, and "several times in a row" as repeating', () => {
    const subPart = (heading: string, y: number) => ({
      heading, headingRect: { x: 300, y, width: 300, height: 30 }, rect: { x: 300, y, width: 840, height: 600 }, text: `${heading}: add the class.`, selector: `#h${y}`, fallbackSelectors: [],
    });
    const utilities = { ...part('utilities', 'Utility Classes', 400, 'A few utility classes to simplify its use. Delays: animate__delay-2s …'), parts: [subPart('Delay classes', 500), subPart('Slow and fast classes', 1100), subPart('Repeating classes', 1700)] };
    const library = docsPage([
      part('usage', 'Installation and Usage', 0, 'Install it with npm and add the class to an element.'),
      utilities,
      part('gotchas', 'Gotchas', 2400, 'An animation that repeats can distract; animate inline elements as blocks.'),
    ]);
    assert.deepEqual(ids('How do I make an effect play several times in a row, or loop forever?', library), ['utilities']);
  });

  it('of two API headings that name the asked word, takes the one about it', () => {
    const reference = docsPage([
      part('collection-functions-arrays-or-objects', 'Collection Functions (Arrays or Objects)', 0, 'each, map, reduce: over the keys of an object.'),
      part('array-functions', 'Array Functions', 400, 'first, last, flatten.'),
      part('object-functions', 'Object Functions', 800, 'values, pick, has: over the keys of an object.'),
      part('chaining', 'Chaining', 1200, 'Calling chain wraps the object.'),
    ]);
    // (the analyser's ids, slugs of the headings: both say "objects")
    assert.deepEqual(ids('Show me the helpers for working with plain objects: keys, cloning, that kind of thing.', reference), ['object-functions']);
  });
});
