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

describe("a marketing agency's page", () => {
  const sections = (counterText: string) => madeUpPage([
    part('top', 'hero', 'We craft SEO and digital marketing services', 0, 'Get started'),
    part('pricing', 'pricing', 'Affordable pricing plan for you', 700, '$19 Basic $49 Pro'),
    part('testimonial', 'testimonials', 'Trusted by hundreds over the years', 1400, '“They doubled our traffic.” Mara Quinn, founder'),
    part('counter', 'features', 'Our Happy Clients', 2100, counterText),
  ]);

  it('reads what their clients say as the testimonials, not the band that counts its happy clients', () => {
    assert.deepEqual(subjectIdsOn(sections('460+ Our Happy Clients 60+ Projects Done 30+ Experienced staff 25% Ongoing'))('What do their clients say about working with them?'), ['testimonial']);
  });

  it('knows a band of figures that count up when seen by its id, though they read 0 before', () => {
    assert.deepEqual(subjectIdsOn(sections('0 Our Happy Clients 0 Projects Done 0 Experienced staff 0 Ongoing'))('What do their clients say about working with them?'), ['testimonial']);
  });

  it('still finds a count of its clients when that is what is asked', () => {
    assert.deepEqual(subjectIdsOn(sections('460+ Our Happy Clients 60+ Projects Done 30+ Experienced staff 25% Ongoing'))('How many clients have they had?'), ['counter']);
  });
});
