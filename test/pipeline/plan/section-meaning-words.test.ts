import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { madeUpPage, madeUpSection, subjectIdsOn } from './outlines.js';

/**
 * Words that say the same thing in another form (issue 55, the fifteenth blind batch's leftovers): "quoted" and the
 * heading "Blockquotes", a "like" that only opens a list of examples, and a "what" that asks which of a noun. Each
 * page below is made up.
 */

const part = madeUpSection;

describe('a stylesheet test page', () => {
  const ids = subjectIdsOn(madeUpPage([
    part('top', 'hero', 'HTML5 Test Page', 0, 'This is a test page filled with common HTML elements.'),
    part('paragraphs', 'content', 'Paragraphs', 700, 'A paragraph is a series of sentences.'),
    part('blockquotes', 'content', 'Blockquotes', 1300, 'Words of another author, set off from the text.'),
    part('lists', 'content', 'Lists', 1900, 'Definition list, ordered list, unordered list.'),
    part('dialog', 'content', 'Dialog', 2500, 'A dialog, styled as the page is styled.'),
  ]));

  it('reads a joined heading in lower case by its two words, and "quoted" as "quote"', () => {
    assert.deepEqual(ids('Show how quoted passages are styled'), ['blockquotes']);
  });
});

describe("a UI kit's components", () => {
  const ids = subjectIdsOn(madeUpPage([
    part('top', 'hero', 'Paper Kit 2', 0, 'Made with love by Creative Tim'),
    part('elements', 'form', 'Basic Elements', 700, 'Buttons, inputs, checkboxes.'),
    part('javascript', 'features', 'Javascript Components', 1400, 'Modal, popover, tooltips, carousel.'),
    part('examples', 'content', 'Completed with examples', 2100, 'Landing page, profile page.'),
    part('closing', 'content', 'Do you like what you see?', 2800, 'Download it now.'),
  ]));

  it('reads a "like" that opens examples, and a "what" that asks which pieces, as neither a heading\'s "like" nor its "what"', () => {
    assert.deepEqual(ids('What interactive pieces does it include, like pop-up windows, tooltips and a slideshow?'), ['javascript']);
  });

  it('still reads the verb: what the closing band asks', () => {
    assert.deepEqual(ids('Finish on the part asking if I like what I see'), ['closing']);
  });
});
