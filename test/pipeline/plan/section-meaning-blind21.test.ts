import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { promptSubjects } from '../../../src/pipeline/plan/section-meaning.js';
import { madeUpPage, madeUpSection, subjectIdsOn } from './outlines.js';

/**
 * What the twenty-first blind batch (issue 55, blind-2026-12-16) asked that the planner misread: the cooks of a
 * restaurant (people, not food), its nights of the week, reserving a spot for dinner, what it serves, a sweet course a
 * page misspells, what booking someone costs, a visit booked where appointments are made, where one studied and
 * worked (a résumé), photos in a portfolio, a product well made, the app's screens, a clinic's care, what a firm can do
 * for a business, and where the office is. Each page below is made up.
 */

const part = madeUpSection;
const idsOn = subjectIdsOn;

describe("a restaurant's page", () => {
  const page = madeUpPage(
    [
      part('top', 'hero', 'The Grill House', 0, 'Steaks, pizza and a warm welcome.'),
      part('about', 'content', 'A Warm Welcome', 700, 'Fish do not fry in the kitchen here.'),
      part('events', 'content', 'Our Upcoming Events', 1400, 'Steak Night Tuesdays. Curry Club Thursdays. Sunday Special Sundays.'),
      part('menu', 'content', 'Browse The Menu', 2100, 'Fresh pizza $8.95. Starters $5.50. Grilled fish $12.'),
      part('sweets', 'content', 'Our Deserts with Images', 2800, 'Chocolate torte, lemon tart and ice cream.'),
      part('chefs', 'features', 'Our Acclaimed Chefs', 3500, 'John Doe, Barry Scott, Tom Smooth.'),
      part('book', 'form', 'Book Your Table', 4200, 'Name, date, guests. Address: Kings Square, London. Opening times Monday to Sunday.'),
    ],
  );
  // The template's menu sends three items to one part: placeholders, not that part's names.
  page.navigation = [
    { label: 'About Us', href: '#about' },
    { label: 'Specials', href: '#about' },
    { label: 'Book a Table', href: '#about' },
  ] as typeof page.navigation;

  it('reads the cooks in the kitchen as the people who cook, not the food', () => {
    assert.deepEqual(idsOn(page)('Who are the cooks in the kitchen?'), ['chefs']);
  });

  it('finds the specials of certain nights of the week where the weekdays are, not where the menu sends "Specials"', () => {
    assert.deepEqual(idsOn(page)('Is there anything special on certain nights of the week?'), ['events']);
  });

  it('shows what they serve, then ends on reserving a spot for dinner at the booking form', () => {
    assert.deepEqual(idsOn(page)('Show me what they serve first, then finish on reserving a spot for dinner.'), ['menu', 'book']);
  });

  it('finds something sweet to end a meal with in the desserts, misspelt', () => {
    assert.deepEqual(idsOn(page)('Do they have anything sweet to end a meal with?'), ['sweets']);
  });
});

describe("a photographer's one-page résumé", () => {
  const page = madeUpPage([
    part('top', 'hero', 'Laura Thomson', 0, 'I am a photographer from New York.'),
    part('about', 'content', 'About Me', 700, 'I studied at a design school and love to travel.'),
    part('resume', 'content', 'My Resume', 1400, 'Master of Fine Arts, 2015. Senior photographer at a studio, 2016 to now.'),
    part('portfolio', 'media', 'My Portfolio', 2100, 'Weddings, portraits, travel.'),
    part('pricing', 'pricing', 'Pricing', 2800, 'Basic $150 a session. Premium $300.'),
    part('contact', 'form', 'Contact Me', 3500, 'Book me for your event: name, email, message.'),
  ]);

  it('reads where she studied and worked as her résumé', () => {
    assert.deepEqual(idsOn(page)('Where did she study, and what jobs has she had?'), ['resume']);
  });

  it('reads what booking her would cost as her prices, not the way to book', () => {
    assert.deepEqual(idsOn(page)('What would it cost me to book her?'), ['pricing']);
  });

  it('shows her photos in her portfolio first, then ends on how to reach her', () => {
    assert.deepEqual(idsOn(page)('Show me some of her photos first, then end on how I can reach her.'), ['portfolio', 'contact']);
  });
});

describe("a clinic's page", () => {
  const page = madeUpPage([
    part('top', 'hero', 'Welcome to Medilab', 0, 'Care for the whole family.'),
    part('why', 'features', 'Why Choose Medilab?', 700, 'What we do differs: modern rooms, kind staff.'),
    part('services', 'features', 'Services', 1400, 'Cardiology, dental care, paediatrics, check-ups.'),
    part('appointment', 'form', 'Make an Appointment', 2100, 'Your name, email, date, department, message.'),
    part('faq', 'faq', 'Frequently Asked Questions', 2800, 'Do you take insurance? Can I bring my child?'),
    part('contact', 'form', 'Contact', 3500, 'Address, phone, email. Send us a message.'),
  ]);

  it('books a visit where appointments are made, not at the contact form', () => {
    assert.deepEqual(idsOn(page)('How do I book a visit?'), ['appointment']);
  });

  it('reads the kinds of care they provide as their services', () => {
    assert.deepEqual(idsOn(page)('Start with what kinds of care they provide, then finish on the answers to the questions patients usually have.'), ['services', 'faq']);
  });
});

describe("an app's, a product's and a firm's pages", () => {
  it("shows the app's screens in its gallery, not its features", () => {
    const page = madeUpPage([
      part('top', 'hero', 'App landing page template', 0, 'Get the app.'),
      part('features', 'features', 'App Features', 700, 'Sync, share, search.'),
      part('gallery', 'media', 'Gallery', 1400, 'Six pictures.'),
      part('faq', 'faq', 'Frequently Asked Questions', 2100, 'Is it free? Does it work offline?'),
    ]);
    assert.deepEqual(idsOn(page)("Start by showing me what the app's screens look like, then finish on the answers to the usual questions people have."), ['gallery', 'faq']);
  });

  it('reads a product well made as its quality, and its office as its headquarters', () => {
    const page = madeUpPage([
      part('top', 'hero', 'This is not another boring landing page', 0, 'Create the best page for your app.'),
      part('design', 'features', 'First class design', 700, 'Show your app with style.'),
      part('quality', 'features', 'Quality meets landing page', 1400, 'Every detail polished.'),
      part('team', 'content', 'Our team works hard for you', 2100, 'Designers and developers.'),
      part('hq', 'content', 'Our Headquarters', 2800, '12 Some Street, Somewhere. Phone and email.'),
    ]);
    const subjects = promptSubjects('Begin with why the product is well made, then finish on where their office is.', page);
    assert.deepEqual(subjects.subjects.map((s) => s.section.id), ['quality', 'hq']);
    assert.equal(subjects.endsOn?.section.id, 'hq');
  });

  it('reads what a firm can do for my business as its services', () => {
    const page = madeUpPage([
      part('top', 'hero', 'Groovin', 0, 'We grow brands.'),
      part('about', 'content', 'About Us', 700, 'A small team since 2010.'),
      part('services', 'features', 'Services', 1400, 'Branding, web design, marketing.'),
      part('pricing', 'pricing', 'Pricing', 2100, 'Basic $19, Pro $29.'),
    ]);
    assert.deepEqual(idsOn(page)('Begin with what they can do for my business, and finish on what it would cost me.'), ['services', 'pricing']);
  });
});

describe("a UI kit's typography page (flows blind 2026-12-17)", () => {
  it('reads how quotations are styled as its blockquotes', () => {
    const page = madeUpPage([
      part('headings', 'content', 'Headings', 0, 'h1 to h6, styled with the theme font.'),
      part('quotes', 'content', 'Blockquotes', 700, 'A well-known quote, contained in a blockquote element.'),
      part('lists', 'content', 'Lists', 1400, 'Ordered and unordered lists.'),
    ]);
    assert.deepEqual(idsOn(page)('How are quotations styled in this theme?'), ['quotes']);
  });
});

describe("a restaurant's promises", () => {
  it('reads what they promise their guests as the services band, then ends on the contact form', () => {
    const page = madeUpPage([
      part('top', 'hero', 'Restaurant', 0, 'Read more.'),
      part('about', 'content', 'Restaurant always needs a good website', 700, 'Lorem ipsum dolor sit amet.'),
      part('promises', 'content', 'Champion service', 1400, 'Extremely low prices. 24/7 support. Natural food. Fast delivery.', { kicker: 'Our services' }),
      part('menu', 'pricing', 'Our menu with pricing', 2100, 'Cheese and ham $5. Omelette $4.'),
      part('contact', 'form', 'Contact us', 2800, 'Name, email, message. Send message.'),
    ]);
    assert.deepEqual(idsOn(page)('Start with what they promise their guests, then end on where I can send them a message.'), ['promises', 'contact']);
  });
});

describe("an app's page that says how little skill it takes", () => {
  it('reads how easy it is to learn as the part about the skill it takes, then ends on the questions', () => {
    const page = madeUpPage([
      part('top', 'hero', 'The #1 CRM app for small business', 0, 'Try it free.'),
      part('features', 'features', 'Packed with awesome features', 700, 'Contacts, deals, reports.'),
      part('easy', 'content', 'Anyone can start using the app with minimum skills', 1400, 'Set up in minutes; no training needed.'),
      part('faq', 'faq', 'Frequent questions', 2100, 'Is it easy to import my contacts? Where can I learn more about the plans?'),
    ]);
    assert.deepEqual(idsOn(page)('Start with how easy it is to learn, then finish on the answers to the usual questions.'), ['easy', 'faq']);
  });
});
