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

describe("an agency's page whose facts are about it", () => {
  const ids = subjectIdsOn(madeUpPage([
    part('top', 'hero', 'A Design Studio', 0, 'Brands, sites and apps.'),
    part('design', 'content', 'We design delightful digital experiences.', 700, 'Read about what we do and our philosophy of design.'),
    part('beliefs', 'content', 'WE BELIEVE IN GREAT IDEAS', 1400, 'Morbi leo risus, porta ac consectetur ac.'),
    part('facts', 'content', 'FUN FACTS ABOUT US', 2100, 'Far far away, behind the word mountains. 120 cups of coffee.'),
    part('services', 'features', 'Our Services', 2800, 'Branding, web design, apps.'),
  ]));

  it('reads an "about" after a word as a preposition: a philosophy of ideas is not the facts "about us"', () => {
    assert.deepEqual(ids('Start with their philosophy about ideas'), ['beliefs']);
  });
});

describe("a small library's docs", () => {
  const ids = subjectIdsOn(madeUpPage([
    part('top', 'hero', 'Wobble', 0, 'Make things move.'),
    part('classes', 'content', 'Classes', 700, 'The basic collection of effects.'),
    part('install', 'content', 'Install', 1400, 'npm i wobble, or a link to the file.'),
    part('options', 'content', 'More flexibility', 2100, 'Write your own with the mixin.'),
    part('epilogue', 'content', 'Epilogue', 2800, 'Thanks for reading; the history of the project.'),
  ]));

  it('reads "get this into my project" as setting it up', () => {
    assert.deepEqual(ids('How do I get this into my project?'), ['install']);
  });

  it('reads "the closing thoughts" as the epilogue', () => {
    assert.deepEqual(ids('Finish on the closing thoughts'), ['epilogue']);
  });
});

describe('a template gallery', () => {
  const ids = subjectIdsOn(madeUpPage([
    part('top', 'hero', 'Beautiful Website Templates', 0, 'Free and open.'),
    part('why', 'features', 'Why Choose Our Templates?', 700, 'Fast, responsive, free to use.'),
    part('collection', 'content', 'Template Collection', 1400, 'Glass, neumorphism, minimal, portfolio.'),
    part('about', 'content', 'About the Project', 2100, 'Made by volunteers since 2020.'),
  ]));

  it('reads "which templates can I pick from" as the templates, not a reason to choose them', () => {
    assert.deepEqual(ids('Which templates can I pick from?'), ['collection']);
  });
});

describe("a coach's page", () => {
  const ids = subjectIdsOn(madeUpPage([
    part('top', 'hero', 'Momentum Coaching', 0, 'Unlock your potential.'),
    part('press', 'logos', 'As Featured In', 700, 'Forbes, Inc., Fast Company.'),
    part('method', 'features', 'The Method', 1400, 'Three steps to clarity.'),
    part('stories', 'testimonials', 'Success Stories', 2100, '"I doubled my income." Sam, founder.'),
  ]));

  it('reads "the press mentions" and "covered in the media" as the strip of outlets that featured them', () => {
    assert.deepEqual(ids('Start with the press mentions'), ['press']);
    assert.deepEqual(ids('Has this coach been covered in the media?'), ['press']);
  });
});

describe("an engineer's portfolio", () => {
  const ids = subjectIdsOn(madeUpPage([
    part('top', 'hero', 'Tilan', 0, 'Engineer and tinkerer.'),
    part('papers', 'content', 'Publications', 700, 'Journal articles and conference talks.'),
    part('projects', 'content', 'Projects', 1400, 'A line-following rover, a weather station.'),
    part('hobbies', 'content', 'Hobbies', 2100, 'Hiking and chess.'),
  ]));

  it('reads "the robots and gadgets he has built" as his projects', () => {
    assert.deepEqual(ids('Start with the robots and gadgets he has built'), ['projects']);
  });
});
