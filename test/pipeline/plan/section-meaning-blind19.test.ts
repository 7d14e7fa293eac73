import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { meaningTrace, promptSubjects } from '../../../src/pipeline/plan/section-meaning.js';
import { madeUpPage, madeUpSection, subjectIdsOn } from './outlines.js';

/**
 * What the nineteenth blind batch (issue 55, blind-2026-12-14) asked of pages that answer in their footer or in a row
 * of cards: a restaurant's opening hours in a footer column beside its address, the kinds of cases a law firm takes on
 * (its "Practicing Areas"), and a row of cards whose first title ("Group of Lawyers") is no title of the part.
 * Each page below is made up.
 */

const part = madeUpSection;
const idsOn = subjectIdsOn;

describe("a restaurant's footer", () => {
  const page = madeUpPage([
    part('top', 'hero', 'Welcome', 0, 'Fine dining in New York.'),
    part('menu', 'features', 'Discover', 700, 'Baked potato pizza. Fried potatoes with garlic.'),
    part('events', 'content', 'Upcoming', 1400, 'Our events: jazz night, wine tasting.'),
    part('contact', 'form', 'Contact', 2100, "Let's chat. Name, email, message."),
    part('footer', 'footer', 'Locations', 2800, '198 West 21th Street, New York. Open Hours Monday - Thursday 5:30pm - 10:00pm', { peerHeadings: ['Open Hours'] }),
  ]);

  it('answers when they open from the footer column headed "Open Hours"', () => {
    assert.deepEqual(idsOn(page)('What time do they open in the evening, and on which days?'), ['footer']);
  });

  it('still weighs a footer that only repeats a name less than the part headed by it', () => {
    const links = madeUpPage([
      part('top', 'hero', 'Welcome', 0, 'Fine dining in New York.'),
      part('menu', 'features', 'Our Menu', 700, 'Baked potato pizza. Fried potatoes with garlic.'),
      part('footer', 'footer', 'Quick Links', 1400, 'Menu Events Contact', { peerHeadings: ['Menu'] }),
    ]);
    assert.deepEqual(idsOn(links)('Show me the menu'), ['menu']);
  });
});

describe("a law firm's page", () => {
  const cards = (id: string, y: number) =>
    part(id, 'features', 'Group of Lawyers', y, 'Group of Lawyers. Far far away. No One is Above The Law. Hall of Justice.', { cardHeading: true });
  const page = madeUpPage([
    part('top', 'hero', 'The Law Firm', 0, 'A free consultation.'),
    part('about', 'content', 'Who We Are', 700, 'Far far away, behind the word mountains.'),
    cards('cards', 1400),
    part('areas', 'features', 'Practicing Areas', 2100, 'Family Law. Criminal Law. Property Law.'),
    part('attorneys', 'features', 'Attorneys', 2800, 'Richard Wilson, Family Lawyer. Steve White, Financial Lawyer. Ryan David, Business Lawyer.'),
    cards('cards-2', 3500),
    part('contact', 'form', 'Get In Touch', 4200, 'Name, email, message.'),
  ]);

  it('reads the kinds of cases they take on as their practice areas', () => {
    assert.deepEqual(idsOn(page)('What kinds of cases do they take on?'), ['areas']);
  });

  it("weighs a row of cards' first heading as one card's, not as the title of the part", () => {
    const sureOfCards = (outline: typeof page): number => {
      let score = 0;
      meaningTrace.on = (_clause, ranked) => {
        score = ranked.find((r) => r.section.id === 'cards')?.score ?? 0;
      };
      try {
        promptSubjects('Show me the group of lawyers', outline);
      } finally {
        meaningTrace.on = undefined;
      }
      return score;
    };
    const titled = madeUpPage(page.sections.map((section) => (section.cardHeading ? { ...section, cardHeading: undefined } : section)));
    assert.ok(sureOfCards(page) < sureOfCards(titled), `${sureOfCards(page)} as a card's heading, ${sureOfCards(titled)} as the part's title`);
    assert.ok(sureOfCards(page) > 0, 'still found by it');
  });
});
