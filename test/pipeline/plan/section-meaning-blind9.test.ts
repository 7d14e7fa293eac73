import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { planDemo } from '../../../src/pipeline/plan/heuristic-planner.js';
import { promptSubjects } from '../../../src/pipeline/plan/section-meaning.js';
import type { OutlineSection } from '../../../src/pipeline/types.js';
import { madeUpPage, madeUpSection, subjectIdsOn } from './outlines.js';

/**
 * What the ninth blind batch (issue 55, blind batch of 2026-12-04) and the misses of the earlier ones asked in words
 * their pages did not use: the jobs someone has held (a résumé's "Experience"), who a person is and their background
 * ("About me"), who organises an event (its "Committee"), the companies someone worked for (their "Clients"), what
 * people buy most ("Popular Products"), the video player of a kit's page ("Video"), reordering by dragging ("Drag &
 * Sort"); and a card named inside a section whose own heading answers the rest ("the calculator project" in "My
 * Work"). Each page below is made up.
 */

const part = madeUpSection;
const page = (sections: OutlineSection[]) => madeUpPage(sections);

const idsOn = subjectIdsOn;

describe("a designer's résumé", () => {
  const resume = page([
    part('top', 'hero', 'Hi, I am Maren Holt', 0, 'Product designer in Oslo. Download CV'),
    part('about', 'content', 'About Me', 600, 'I grew up by the sea and studied design. Twelve years of making tools people like.'),
    part('experience', 'content', 'Experience', 1200, 'Senior designer, Fjord Labs, 2019 – now. Designer, Nordpost, 2014 – 2019.'),
    part('education', 'content', 'Education', 1800, 'MA Interaction Design, Oslo School of Architecture, 2014.'),
    part('clients', 'logos', 'Clients', 2400, 'Nordpost Fjord Labs Kvarts Hyttebok'),
    part('work', 'content', 'My Work', 3000, 'Calculator A calculator for mortgages. Weather A weather app.'),
    part('contact', 'form', 'Get in Touch', 3600, 'Name Email Message Send'),
  ]);
  const ids = idsOn(resume);

  it('reads the jobs someone has held as their experience', () => {
    assert.deepEqual(ids('Start with the jobs she has held over the years, then end on the form for sending her a message.'), ['experience', 'contact']);
  });

  it('reads who someone is and their background as the part about them', () => {
    assert.equal(ids('Introduce who she is and her background first, then end on the invitation to get in touch.')[0], 'about');
  });

  it('reads the companies someone has done work for as the clients, not the portfolio', () => {
    assert.deepEqual(ids('Which companies has she done work for?'), ['clients']);
  });

  it('keeps a heading that says "experience" itself for a question about how much of it there is', () => {
    const stats = page([
      part('top', 'hero', 'We design and build', 0, 'Download cv'),
      part('stats', 'content', '12+ Years of Experience', 600, '230+ completed projects, 95+ happy clients'),
      part('about', 'content', 'Need a product? I can help', 1200, 'Hire me. Download cv'),
    ]);
    assert.deepEqual(idsOn(stats)('How much experience does he have?'), ['stats']);
  });
});

describe('an event, a shop and a kit', () => {
  it("reads who organises an event as its committee", () => {
    const conference = page([
      part('top', 'hero', 'OSS Fusion 2025', 0, 'A workshop on open software'),
      part('expect', 'content', 'What to Expect', 600, 'Talks, demos and a panel.'),
      part('committee', 'content', 'Committee', 1200, 'Ana Ruiz, Plasma Lab. Tom Berg, Fusion Institute.'),
    ]);
    assert.deepEqual(idsOn(conference)('Who is organising this?'), ['committee']);
  });

  it('reads what people are buying most as the popular products', () => {
    const shop = page([
      part('top', 'hero', 'Groceries in 10 minutes', 0, 'Order now'),
      part('categories', 'content', 'Featured Categories', 600, 'Snacks Dairy Baby care'),
      part('popular', 'content', 'Popular Products', 1200, 'Haldiram Nuts 18.00 Add Napolitanke Wafers 12.00 Add'),
      part('fast', 'content', '10 minute grocery now', 1800, 'Get your order delivered in ten minutes. Easy returns.'),
    ]);
    assert.deepEqual(idsOn(shop)('Which snacks are people buying most right now?'), ['popular']);
  });

  it("reads the video player example as the kit's video, though the prompt's own video is the demo", () => {
    const kit = page([
      part('top', 'hero', 'Plain.css test page', 0, 'Every element'),
      part('address', 'content', 'Address', 600, 'An example address block.'),
      part('video', 'content', 'Video', 1200, 'A video element with controls.'),
      part('forms', 'content', 'Form elements', 1800, 'Input Select Button'),
    ]);
    assert.deepEqual(idsOn(kit)('Begin at the video player example, then finish on how the form fields look.'), ['video', 'forms']);
  });

  it('ends on a footer whose own heading answers "the sign-up at the very bottom", not on the last part above it', () => {
    const kit = page([
      part('top', 'hero', 'Flat UI kit', 0, 'Free kit'),
      part('inputs', 'content', 'Input', 600, 'Checkboxes Radio buttons Toggles'),
      part('samples', 'content', 'Samples', 1200, 'A to-do list, a video player and a newsletter box'),
      part('footer', 'footer', 'Subscribe', 1800, 'Get the news of new kits by email. Subscribe About Blog'),
    ]);
    assert.equal(promptSubjects('Begin with the checkboxes, then finish on the newsletter sign-up at the very bottom.', kit).endsOn?.section.id, 'footer');
    assert.equal(promptSubjects('Begin with the checkboxes, then finish on the part just above the footer.', kit).endsOn?.section.id, 'samples');
  });

  it('reads reordering by dragging as the drag-and-sort example', () => {
    const library = page([
      part('basic', 'content', 'basic', 0, 'Tags input'),
      part('users', 'content', 'users-list', 600, 'A list of users to pick from'),
      part('drag', 'content', 'Drag & Sort', 1200, 'Tags can be moved with the pointer.'),
    ]);
    assert.deepEqual(idsOn(library)('I want users to reorder their tags by dragging them.'), ['drag']);
  });
});

describe('a card named inside a section whose heading answers the rest of the beat', () => {
  const card = (name: string, y: number) => ({
    heading: name, headingRect: { x: 120, y: y + 20, width: 300, height: 30 }, rect: { x: 100, y, width: 1200, height: 500 }, text: `${name} project`,
    selector: `#work h3[data-name="${name}"]`, fallbackSelectors: [],
  });
  const cards = [card('Weather', 900), card('Calculator', 1450), card('Recipes', 2000)];
  const portfolio = page([
    part('top', 'hero', 'Syed, web developer', 0, 'Hello'),
    part('work', 'content', 'My Work', 810, cards.map((c) => c.text).join(' '), { rect: { x: 0, y: 810, width: 1440, height: 1800 }, parts: cards, headingRect: { x: 600, y: 840, width: 240, height: 48 } }),
    part('clients', 'logos', 'Clients', 2610, 'Acme Initech'),
    part('contact', 'form', 'Get in Touch', 3210, 'Name Email Message'),
  ]);
  const hovered = (prompt: string) => planDemo({ prompt, outline: portfolio, durationTarget: '10s', template: { id: 'auto' }, mode: 'script' })
    .steps.flatMap((step) => (step.action === 'hover' ? [step.target.label] : []));

  it('points at the card the beat names by its heading', () => {
    assert.ok(hovered('Start with the calculator project, then end on how to get in touch with him.').includes('Calculator'));
  });

  it('stays on the section when the cards are only examples of what the beat asks for', () => {
    assert.ok(!hovered('Show the projects he shipped, like Weather and Calculator, then end on the contact form.').some((label) => label === 'Calculator' || label === 'Weather'));
  });
});
