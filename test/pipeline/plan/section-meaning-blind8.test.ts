import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { promptSubjects } from '../../../src/pipeline/plan/section-meaning.js';
import { selectTemplate } from '../../../src/pipeline/plan/select-template.js';
import type { OutlineSection, PageOutline } from '../../../src/pipeline/types.js';
import { madeUpPage, madeUpSection } from './outlines.js';

/**
 * What the eighth blind batch asked in words its pages did not use (issue 55, blind batch of 2026-12-03): a library's
 * options and their defaults, the calls a program makes, one slide at a time, a random order; what kind of thing a
 * page is about; what a former student says; the form where one gives money. Each page below is made up.
 */

const part = madeUpSection;
const page = (sections: OutlineSection[]) => madeUpPage(sections, 'http://localhost/lib/', 'Lib');

function idsOn(outline: PageOutline): (prompt: string) => string[] {
  return (prompt) => promptSubjects(prompt, outline).subjects.map((s) => s.section.id);
}

describe('a carousel library\'s page', () => {
  const library = page([
    part('intro', 'content', 'What is Swiperoo?', 600, 'A small carousel with native scrolling. Features: dots, arrows, options for every breakpoint.'),
    part('single', 'content', 'Single Item', 1200, '1 2 3 4 5 new Swiperoo(el, { perView: 1, dots: true }); Previous Next'),
    part('fractional', 'content', 'Fractional Slides', 1800, '1 2 3 4 5 6 new Swiperoo(el, { perView: 4.5 }); Previous Next slides'),
    part('settings', 'content', 'Settings', 2400, 'perView Type: Number Default: 1 The number of slides to show. dots Type: Element Default: undefined'),
    part('events', 'content', 'Events', 3000, 'swiperoo-add Called whenever an item is added. swiperoo-remove Called whenever an item is removed. swiperoo-destroy Called when it is destroyed.'),
    part('methods', 'content', 'Methods', 3600, 'Call them on the object: addItem(el) Add an item. removeItem(i) Remove an item. setOption(options) Overrides options passed. destroy() Remove it.'),
  ]);
  const ids = idsOn(library);

  it('finds the options one passes and their defaults in the settings, not in the methods whose text passes options', () => {
    assert.equal(ids('What options can I pass when I set up a carousel, and what are their defaults?')[0], 'settings');
  });

  it('reads "from my own code" as the methods a program calls', () => {
    assert.ok(ids('How do I add or remove items, or tear it down, from my own code?').includes('methods'));
    assert.ok(!ids('How do I add or remove items, or tear it down, from my own code?').includes('events'));
  });

  it('reads one slide at a time as the single one, though another heading says "slides"', () => {
    assert.deepEqual(ids('Begin with the example that shows one slide at a time'), ['single']);
  });
});

describe('a typing library\'s demos', () => {
  it('reads a random order as the shuffled example, not the first one whose text says what all of them do', () => {
    const demos = page([
      part('basic', 'content', 'Basic Demo', 600, 'Typewrite is a library. It types out sentences. Start Stop Reset'),
      part('fade', 'content', 'Fade Out', 1200, 'Some strings with fadeOut: true'),
      part('shuffled', 'content', 'Shuffled', 1800, 'Some strings, shuffle: true, loop: true'),
    ]);
    assert.deepEqual(idsOn(demos)('Show the example that types its sentences in a random order.'), ['shuffled']);
  });
});

describe('what a page is, who it helped, where to give', () => {
  it('answers what kind of game it is with its description, not with the tips whose heading says "game"', () => {
    const game = page([
      part('about', 'content', 'About Stick Wars', 600, 'Stick Wars is a stickman fighting game with simple controls and a deep combat system.'),
      part('tips', 'content', 'Game Tips & Strategies', 1200, 'Learn combos. Dodge and counter.'),
    ]);
    assert.deepEqual(idsOn(game)('What kind of game is this?'), ['about']);
  });

  const school = page([
    part('program', 'content', 'OUR PROGRAM', 600, 'Our program runs nine months in twelve modules; students build a real project.'),
    part('stories', 'content', 'OUR SUCCESS STORIES', 1200, 'Amira, Front-end Developer: "It gave me a new life and a job I love." Jonas, Data Analyst'),
    part('partners', 'logos', 'OUR PARTNERS', 1800, ''),
    part('support', 'pricing', 'HELP THE CODERS OF TOMORROW', 2400, 'Thanks to your support the program stays free. one time Monthly Select your amount $10 €25 €50 Amount Message Donate', { widgets: ['form'] }),
    part('contact', 'form', 'CONTACT US', 3000, 'Drop us a line. Full Name Email Address Message send', { widgets: ['form'] }),
  ]);
  const ids = idsOn(school);

  it('finds what a former student says about the program in the success stories, not under the program\'s heading', () => {
    assert.deepEqual(ids('Show what a former student says about the program.'), ['stories']);
  });

  it('ends on the form where one gives money, a box of amounts read as prices, not on the contact form', () => {
    assert.deepEqual(ids('Start with the companies that back the school, then end on the form where I can give money.'), ['partners', 'support']);
  });
});

describe('words that stood for something else on pages already fixed', () => {
  const studio = page([
    part('hero', 'hero', 'Everything you need to grow your agency', 0, 'Trusted by 5,000 teams. Get started'),
    part('pricing', 'pricing', 'Simple pricing', 600, 'Starter $9 a month. Pro $29 a month. Request a quote'),
    part('work', 'media', 'Our Latest Work', 1200, 'Shop redesign. Booking app. Brand film.'),
    part('reviews', 'testimonials', 'What our clients say', 1800, '"They shipped on time." Ana, shop owner. "Lovely to work with." Ben'),
    part('closing', 'cta', 'Stop waiting. Start building.', 2400, 'Download now'),
    part('story', 'content', 'A new age of design', 3000, 'Why we made it: every launch page looked the same.'),
  ]);
  const ids = idsOn(studio);

  it('reads the quotes from happy users as what they said, not a price quote', () => {
    assert.deepEqual(ids('Finish on the quotes from happy users.'), ['reviews']);
  });

  it('reads projects shipped for clients as the work, not the clients\' testimonials', () => {
    assert.deepEqual(ids('Show some projects the agency has shipped for clients.'), ['work']);
  });
});

describe('a part named by the button it holds', () => {
  const button = (label: string, y: number) => ({ label, kind: 'cta' as const, href: '#', selector: `a.${label.replace(/\W/g, '')}`, fallbackSelectors: [], rect: { x: 600, y, width: 160, height: 48 } });
  const template = page([
    part('banner', 'hero', 'Hi, this is my default application', 0, 'A responsive site template. GET STARTED'),
    part('tiles', 'content', 'Aliquam', 600, 'Ipsum dolor sit amet. Feugiat amet tempus.'),
    part('two', 'cta', 'Massa libero', 1200, 'Nullam et orci eu lorem consequat tincidunt vivamus et sagittis libero.'),
    part('contact', 'form', 'Email', 1800, 'Name Email Message Send Message'),
  ]);
  template.actions = [button('Get Started', 400), button('Get Started', 1600)];

  it('finds the paragraph by its own "Get Started" button, not the hero that has one too', () => {
    assert.deepEqual(idsOn(template)('Show the paragraph with the Get Started button that comes after the coloured tiles.'), ['two']);
  });

  it('shows it rather than starting a sign-up: a button named where the part is gives no keyword', () => {
    const selection = selectTemplate({ prompt: 'Show the paragraph with the Get Started button that comes after the coloured tiles.', outline: template });
    assert.equal(selection.selectedId, 'section-focus');
  });
});
