import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { promptSubjects } from '../../../src/pipeline/plan/section-meaning.js';
import type { OutlineSection } from '../../../src/pipeline/types.js';
import { madeUpPage, madeUpSection, subjectIdsOn } from './outlines.js';

/**
 * Three of the ninth blind batch's misses left after its session (issue 55, blind-2026-12-04): what diners love most
 * (a restaurant's "Diners Favorite", a short heading right under the section's own), a midweek discount ("10% off
 * every Wednesday": neither "midweek" nor "discount" on the page), toggle switches on a UI kit's page that also has
 * "Color Swatches" (a plural the dictionary lacks, read as the page's misspelling of "switches"). Each page below is
 * made up.
 */

const part = madeUpSection;
const idsOn = subjectIdsOn;

describe('a restaurant', () => {
  const sections: OutlineSection[] = [
    part('top', 'hero', 'Eat well at Nora', 0, 'Fresh food every day. Book a table'),
    part('offer', 'cta', '10% off every Wednesday', 600, 'Come in the middle of the week and save on every plate.'),
    part('flavours', 'content', 'Discover Authentic Lebanese Flavours', 1200, 'Diners Favorite Mezze platter Grilled halloumi Falafel wrap', { subtitle: 'Diners Favorite' }),
    part('menu', 'content', 'Explore our menu', 1800, 'Breakfast Lunch Dinner Drinks Desserts. Dishes for every taste.'),
    part('book', 'form', 'Reservation', 2400, 'Name Email Date People Book table'),
    part('reviews', 'testimonials', 'On the map', 3000, 'What some of our diners say: lovely food and staff.'),
  ];
  const ids = idsOn(madeUpPage(sections));

  it('reads the dishes diners love most as their favourites, named under the section heading', () => {
    assert.deepEqual(ids('Start with the dishes diners love most, then end on the form to book a table.'), ['flavours', 'book']);
  });

  it('needs the subtitle for it: the same words in the text alone lose to the reviews of what diners say', () => {
    const plain = sections.map(({ subtitle: _subtitle, ...section }) => section);
    assert.equal(idsOn(madeUpPage(plain))('Start with the dishes diners love most, then end on the form to book a table.')[0], 'reviews');
  });

  it('reads a midweek discount as the Wednesday offer', () => {
    assert.deepEqual(ids('Is there a midweek discount?'), ['offer']);
  });
});

describe('a UI kit', () => {
  it('does not take "Swatches" for a misspelling of "switches"', () => {
    const kit = madeUpPage([
      part('top', 'hero', 'Flat UI Free', 0, 'A free kit'),
      part('input', 'features', 'Input', 600, 'Text fields, checkboxes, radio buttons and toggles'),
      part('swatches', 'content', 'Color Swatches', 1200, 'Turquoise Green sea Emerald Nephritis'),
      part('icons', 'content', 'Icons', 1800, 'Glyphs and social icons'),
    ]);
    const subject = promptSubjects('Begin with the checkboxes and switches, then finish on the icons.', kit).subjects;
    assert.ok(!subject.some((s) => s.section.id === 'swatches'), subject.map((s) => `${s.section.id}: ${s.why}`).join('; '));
  });
});
