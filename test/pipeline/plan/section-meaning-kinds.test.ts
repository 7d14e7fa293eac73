import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { promptSubjects } from '../../../src/pipeline/plan/section-meaning.js';
import type { OutlineSection, PageOutline, SectionKind } from '../../../src/pipeline/types.js';

/**
 * What a customer asks of a résumé, a CSS grid's docs and a restaurant's page in their own words (issue 55, blind
 * batch of 2026-12-02): where someone studied, what they know, what they built; moving, reordering and turning
 * columns around; the news by email. Each page below is made up; no heading says the prompt's words.
 */

/** A section of a made-up page, 600 px tall. */
function part(id: string, kind: SectionKind, heading: string, y: number, text: string): OutlineSection {
  return { id, kind, heading, text, label: heading, selector: `#${id}`, fallbackSelectors: [], rect: { x: 0, y, width: 1440, height: 600 } };
}

function page(sections: OutlineSection[]): PageOutline {
  return {
    url: 'http://localhost/page/', title: 'Page', description: null, viewport: { width: 1440, height: 810 }, documentHeight: 6000,
    stickyHeaderHeight: 0, navigation: [], sections, actions: [], forms: [], media: [], dismissedOverlays: [],
  };
}

function idsOn(outline: PageOutline): (prompt: string) => string[] {
  return (prompt) => promptSubjects(prompt, outline).subjects.map((s) => s.section.id);
}

describe('what a visitor asks of a résumé', () => {
  const resume = page([
    part('hero', 'hero', 'Maya Lind', 0, 'Developer in Oslo.'),
    part('about', 'content', 'About Me', 600, 'I like making things for the web and hiking.'),
    part('experience', 'content', 'Experience', 1200, 'Acme Corp 2019 - 2023 Senior engineer. Lorem ipsum dolor sit amet.'),
    part('education', 'content', 'Education', 1800, 'Northfield Institute 2014 - 2018 BSc in Informatics. Lorem ipsum dolor sit amet.'),
    part('projects', 'content', 'Projects', 2400, 'Tide Tables. Lorem ipsum dolor sit amet. View Project. Weather Kit. View Project.'),
    part('skills', 'content', 'Skills', 3000, 'TypeScript Rust Elm Vue Django Postgres'),
    part('contact', 'form', 'Get in Touch', 3600, 'Name Email Message Send'),
  ]);
  const ids = idsOn(resume);

  it('knows where someone studied and their degree as the education, not the projects', () => {
    assert.deepEqual(ids('Where did she study, and what degree does she have?'), ['education']);
  });

  it('knows the programming languages and frameworks someone knows as the skills', () => {
    assert.deepEqual(ids('Which programming languages and frameworks does she know?'), ['skills']);
  });

  it('knows "the things she has built" as the projects', () => {
    assert.deepEqual(ids('Start with the things she has built, then end on how to send her a message.'), ['projects', 'contact']);
  });

  it('still finds case studies in a portfolio by their own words', () => {
    const agency = page([
      part('hero', 'hero', 'Studio North', 0, 'Design and code.'),
      part('cases', 'content', 'Case Studies', 600, 'How we rebuilt a bank app. A shop that doubled its sales.'),
      part('team', 'content', 'The people', 1200, 'Designers and engineers.'),
    ]);
    assert.deepEqual(idsOn(agency)('Show a couple of case studies'), ['cases']);
  });
});

describe('what a developer asks of a CSS grid’s docs', () => {
  const grid = page([
    part('hero', 'hero', 'Gridline', 0, 'A grid system based on flexbox.'),
    part('responsive', 'content', 'Responsive', 600, 'Columns and rows that adapt to the screen width.'),
    part('offsets', 'content', 'Offsets', 1200, 'Offset a column by any number of columns. col-xs-offset-3'),
    part('alignment', 'content', 'Alignment', 1800, 'Start, center and end of the row. Top, middle and bottom.'),
    part('reordering', 'content', 'Reordering', 2400, 'Add classes to put a column first or last in its row.'),
    part('reversing', 'content', 'Reversing', 3000, 'Add the class to a row. 1 2 3 becomes 3 2 1.'),
  ]);
  const ids = idsOn(grid);

  it('knows pushing a column along its row as its offsets', () => {
    assert.deepEqual(ids('How do I push a column over to the right so it starts further along the row?'), ['offsets']);
  });

  it('knows changing the order of the columns as their reordering', () => {
    assert.deepEqual(ids('Can I change the order the columns show up in?'), ['reordering']);
  });

  it('knows flipping a row backwards as reversing it', () => {
    assert.deepEqual(ids('End on flipping a whole row backwards.'), ['reversing']);
  });
});

describe('what a diner asks of a restaurant’s page', () => {
  const restaurant = page([
    part('hero', 'hero', 'Casa Verde', 0, 'Food from the garden.'),
    part('menu', 'content', 'Our Menu', 600, 'Starters, mains and desserts with their prices.'),
    part('blog', 'content', 'Latest From the Blog', 1200, 'News from the kitchen. A new spring menu. Our chef in the papers.'),
    part('newsletter', 'form', 'Subscribe to our Newsletter', 1800, 'Your email Subscribe'),
    part('contact', 'content', 'Contact Us', 2400, 'Email hello@casaverde.example Call 020 7946 0958'),
  ]);

  it('knows news and special offers by email as the newsletter, one beat, not the blog then the contact', () => {
    assert.deepEqual(idsOn(restaurant)('Can I get your news and special offers by email?'), ['newsletter']);
  });
});

describe('what a developer asks of a library’s docs in plain words', () => {
  const docs = page([
    part('hero', 'hero', 'boxkit', 0, 'Dialogs for the browser.'),
    part('features', 'features', 'Features', 300, 'Works in every browser. Themes, animations, keyboard, many languages.'),
    part('usage', 'content', 'Quick usage', 600, 'Open a box: $.confirm({ title, content }). Pick a theme.'),
    part('options', 'content', 'Options', 900, 'Every option with its default: title, content, buttons, draggable, theme.'),
    part('if', 'content', 'If and Unless', 1200, 'if something then that. Unless is the opposite of if.'),
    part('autoclose', 'content', 'Auto close', 1800, 'Trigger an action when the timer runs out: autoClose: "cancel|8000".'),
    part('rtl', 'content', 'RTL support', 2400, 'Set rtl: true for Arabic, Hebrew or Persian.'),
    part('exceptions', 'content', 'Exceptions', 3000, 'try, catch and finally: when something goes wrong, an error is thrown.'),
    part('api', 'content', 'Api', 3600, 'On an instance on screen: setTitle(), setContent(), close(), open().'),
    part('changes', 'content', 'Changes from version 1', 4200, 'What changed, and why: the syntax, the compiler.'),
    part('contributing', 'content', 'Contributing Guide', 4800, 'Fork the repository, build the compiler, run the tests, then open a pull request.'),
  ]);
  const ids = idsOn(docs);

  it('knows closing by itself as the auto close', () => {
    assert.deepEqual(ids('Can the box close by itself after a few seconds if nobody clicks anything?'), ['autoclose']);
  });

  it('knows languages written right to left as the RTL support', () => {
    assert.deepEqual(ids('Does it work for languages written right to left, like Arabic?'), ['rtl']);
  });

  it('knows the methods to call as the API', () => {
    assert.deepEqual(ids('End on the methods I can call to change a box that is already open.'), ['api']);
  });

  it('reads past a condition that opens a question: it is no beat of its own', () => {
    assert.deepEqual(ids('If something goes wrong while my code runs, how do I catch the error and deal with it?'), ['exceptions']);
  });

  it('knows helping work on it and sending changes as contributing, a question after a colon being no list of examples', () => {
    assert.deepEqual(ids("I'd like to help work on the compiler: how do I get set up and send my changes?"), ['contributing']);
  });
});
