import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { askedPart } from '../../../src/pipeline/plan/section-parts.js';
import type { OutlineSection } from '../../../src/pipeline/types.js';
import { madeUpPage, madeUpSection, subjectIdsOn } from './outlines.js';

/**
 * What the tenth blind batch (issue 55, blind-2026-12-05) asked in words its pages did not use, or that met the wrong
 * part: a pizzeria's "HOT SALES" for its bestsellers, and its delivery named by the second of three equal box
 * headings; where a designer has worked before (her "Work Experience", not "My Latest Works"), how she goes about a
 * project (her "Working Process"), what she has done lately; the fonts of a UI kit (its "Typography"); the companies
 * an agency works with, a card inside its long "Our Story". Each page below is made up.
 */

const part = madeUpSection;
const idsOn = subjectIdsOn;

describe('a pizzeria', () => {
  const ids = idsOn(madeUpPage([
    part('top', 'hero', 'VINCENT PIZZA.', 0, 'Italian pizza with cherry tomatoes. View menu', { subtitle: 'MAKING PEOPLE HAPPY' }),
    part('services', 'content', 'QUALITY FOODS', 600, 'QUALITY FOODS Sit amet. FASTEST DELIVERY Sit amet. ORIGINAL RECIPES Sit amet.', { peerHeadings: ['FASTEST DELIVERY', 'ORIGINAL RECIPES'] }),
    part('hot', 'content', 'HOT SALES', 1200, 'PROSCIUTTO $3.50 CAPRICCIOSA $3.90 DIABLO $3.50'),
    part('story', 'content', 'WE ARE VINCENT', 1800, 'Our story since 1990, and what our regulars say. We deliver to your door.'),
  ]));

  it('reads the bestsellers as its hot sales, and "what do they cost" as more of the same question', () => {
    assert.deepEqual(ids('Which pizzas are the bestsellers right now, and what do they cost?'), ['hot']);
  });

  it('finds its delivery by the second of three equal box headings, not by "deliver" in another part\'s text', () => {
    assert.deepEqual(ids('Do they deliver, and is it quick?'), ['services']);
  });
});

describe('a pizzeria whose story says "pizza" on every line', () => {
  // As the real page reads: its menu's items name no pizza, its story and reviews say it again and again.
  const ids = idsOn(madeUpPage([
    part('top', 'hero', 'VINCENT PIZZA.', 0, 'Italian Pizza With Cherry Tomatoes and Green Basil. View menu', { subtitle: 'MAKING PEOPLE HAPPY' }),
    part('hot', 'content', 'HOT SALES', 1200, 'PROSCIUTTO Classic marinara sauce $3.50 CAPRICCIOSA Classic marinara sauce $3.90 DIABLO $3.50'),
    part('story', 'content', 'WE ARE VINCENT', 1800, "We don't just make pizza. We make people's days. What's our purpose? Pizza should be special. It remains a favorite of people who love pizza."),
  ]));

  it('takes the bestsellers and their prices for the hot sales: "pizza" is the name of the place, the prices are on the menu', () => {
    assert.deepEqual(ids('Which pizzas are the bestsellers right now, and what do they cost?'), ['hot']);
    assert.deepEqual(ids('Start with the pizzas people buy most, then finish on the story of the place and what its regulars say.'), ['hot', 'story']);
  });
});

describe("a designer's portfolio", () => {
  const ids = idsOn(madeUpPage([
    part('top', 'hero', 'Angelisa Easter', 0, 'Designer. Hire me'),
    part('process', 'features', 'My Working Process', 600, 'Research, design, develop, deliver.'),
    part('experience', 'content', 'Work Experience', 1200, 'Senior designer at Kvarts 2019 – now.', { peerHeadings: ['Education'] }),
    part('works', 'features', 'My Latest Works', 1800, 'Brand design, app design, web design projects.'),
    part('contact', 'form', 'Contact With Me', 2400, 'Name Email Message Send'),
  ]));

  it('reads where she has worked before as her experience, not her works', () => {
    assert.deepEqual(ids('Where has she worked before, and where did she study?'), ['experience']);
  });

  it('reads what she has done lately as her latest works', () => {
    assert.deepEqual(ids('Show me the design projects she has done lately.'), ['works']);
  });

  it('reads how she goes about a project as her process', () => {
    assert.deepEqual(ids('Start with how she goes about a project, then end on the form for getting in touch with her.'), ['process', 'contact']);
  });
});

describe('a UI kit and an agency', () => {
  it('reads its fonts as its typography', () => {
    const ids = idsOn(madeUpPage([
      part('top', 'hero', 'BLK Design System', 0, 'Free and open source'),
      part('basics', 'form', 'Basic Elements', 600, 'Buttons Links Inputs'),
      part('type', 'content', 'Header 1 The Life of BLK', 1200, 'Header 2 Header 3 Lead text Blockquote', { kicker: 'Typography' }),
      part('icons', 'content', 'Nucleo Icons', 1800, '100 custom icons'),
    ]));
    assert.equal(ids('Show me the fonts it comes with.')[0], 'type');
  });

  it('finds the card an agency names for the companies it works with inside its long story, though the words made a concept', () => {
    const card = (heading: string, y: number) => ({ heading, headingRect: { x: 0, y, width: 600, height: 20 }, rect: { x: 0, y, width: 600, height: 100 }, text: heading, selector: `#c${y}`, fallbackSelectors: [] });
    const story: OutlineSection = part('story', 'content', 'Our Story', 1200, 'About the company. Experienced team. Companies we work with. Insurance Partners.', {
      kicker: 'ABOUT THE COMPANY',
      rect: { x: 0, y: 1200, width: 1440, height: 1300 },
      parts: [card('Experienced Team', 1400), card('Insurance Coverage', 1700), card('Companies we work with', 2100), card('Insurance Partners', 2120)],
    });
    assert.equal(askedPart(story, 'Which companies do they work with?')?.heading, 'Companies we work with');
  });
});

describe('what earlier batches left: who uses it, what they say of it, when one may visit', () => {
  it('reads big-name companies that use it as the logos, not a heading that says "use"', () => {
    const ids = idsOn(madeUpPage([
      part('top', 'hero', 'Grow your business with us', 0, 'Start free'),
      part('plugins', 'features', 'Simple to use plugins', 700, 'Connect the tools your team already uses.'),
      part('brands', 'logos', 'Trusted by brands you know', 1400, 'Acme Globex Initech Umbrella'),
    ]));
    assert.deepEqual(ids('Which big-name companies already use it?'), ['brands']);
  });

  it('reads what people are saying, and what users think of it however long who says it, as the reviews, not "what" as features', () => {
    const ids = idsOn(madeUpPage([
      part('top', 'hero', 'Apple Watch Series', 0, 'Buy now'),
      part('features', 'features', 'Our Core Features', 700, 'Smooth Touch. Elegant Design. Easy Pricing.'),
      part('review', 'testimonials', 'Watch Review', 1400, 'Jonathon Andrew: I wear it every day.'),
    ]));
    assert.deepEqual(ids('What are people saying after wearing it for a while?'), ['review']);
    assert.deepEqual(ids('What do the developers who already use it think of it?'), ['review']);
  });

  it("reads when family can come as the visiting hours in the FAQ, not the patients' reviews", () => {
    const ids = idsOn(madeUpPage([
      part('top', 'hero', 'Medical Health Centre', 0, 'Book a visit'),
      part('reviews', 'testimonials', 'What Our Patients Says', 700, 'Great care. Kind nurses.'),
      part('faq', 'faq', 'Frequently Asked Questions', 1400, 'What are the Centre’s visiting hours? Every day from 10 to 20 hours. How many visitors are allowed? Two at a time.'),
    ]));
    assert.equal(ids('When can family come and visit a patient?')[0], 'faq');
  });
});

describe('prizes and recognition, and what is explained for coders', () => {
  it('reads prizes and a recognition as an award', () => {
    const ids = idsOn(madeUpPage([
      part('top', 'hero', 'The Book', 0, 'Buy the book'),
      part('chapters', 'content', 'Full Chapter Overview', 700, 'Chapter 1. Chapter 2.'),
      part('award', 'content', 'Award winning, best selling', 1400, 'Among the top rated books of the year.'),
    ]));
    assert.deepEqual(ids('Show the prizes the book has picked up.'), ['award']);
    assert.deepEqual(ids('Show the recognition it has earned.'), ['award']);
  });

  it("reads how the kit is explained for coders as its documentation, not a heading that says 'kit'", () => {
    const ids = idsOn(madeUpPage([
      part('top', 'hero', 'Notus JS', 0, 'A beautiful extension for Tailwind CSS.'),
      part('docs', 'content', 'Complex Documentation', 700, 'Built by Developers for Developers. Carefully crafted code for components.'),
      part('love', 'cta', 'Do you love this Starter Kit?', 1400, 'Star it on GitHub.'),
    ]));
    assert.deepEqual(ids('Make a short clip about how thoroughly the kit is explained for coders.'), ['docs']);
  });
});
