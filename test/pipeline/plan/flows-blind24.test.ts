import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { flowExit } from '../../../src/pipeline/plan/flow-exit.js';
import { answerElsewhere } from '../../../src/pipeline/plan/linked-answer.js';
import { namedValues } from '../../../src/pipeline/plan/named-values.js';
import type { LinkedPage, PageOutline } from '../../../src/pipeline/types.js';
import { madeUpLink, madeUpPage, madeUpSection, subjectIdsOn } from './outlines.js';

/**
 * Issue 56, what the twenty-fourth flows blind batch (flows-blind-2026-12-19) asked that the planner misread: who to
 * write to on a docs site, a question that goes on about a term another page explains, advice on printing what a page
 * of its own describes, an anime site's menu link "Anime Watching" for "what a beginner should watch", and a note
 * "from" someone. Each site below is made up.
 */
const sameSite = (url: string) => new URL(url, 'http://localhost:4000/').host === 'localhost:4000';
const link = madeUpLink;
const part = madeUpSection;

/** A docs site for a set of schemas: its home, and a menu to its contact page and a glossary-like overview. */
function docsHome(): PageOutline {
  const outline = madeUpPage([
    part('top', 'hero', 'Community Metadata Schemas and Documentation', 0, 'Standards for describing data.'),
    part('browse', 'content', 'Browse Metadata Schemas', 700, 'Each schema lists its fields.'),
    part('propose', 'content', 'Propose New Terms or Schemas', 1300, 'Open an issue to propose a new term.'),
    part('docs', 'content', 'Review Documentation', 1900, 'Read the documentation for each standard.'),
    part('contribute', 'content', 'How to Contribute', 2500, 'Questions and new terms are welcome as issues.'),
  ], 'http://localhost:4000/docs/index.html', 'Community Metadata Schemas');
  outline.navigation = [link('Overview', '/docs/vocabularies/overview/'), link('Printable Stand', '/docs/stand/'), link('Contact', '/docs/contact/')];
  return outline;
}

const linked: LinkedPage[] = [
  { href: '/docs/vocabularies/overview/', label: 'Overview', title: 'Overview', parts: [{ heading: 'What is a controlled vocabulary?', text: 'A controlled vocabulary is an agreed list of terms.', footer: false }, { heading: 'What terms should be in a controlled vocabulary?', text: 'Terms people use.', footer: false }] },
  { href: '/docs/stand/', label: 'Printable Stand', title: 'Printable Stand', parts: [{ heading: '3D Printable Stand', text: 'Models to print your own stand.', footer: false }, { heading: 'Printing Tips', text: 'Drop the model down in the slicer.', footer: false }] },
  { href: '/docs/contact/', label: 'Contact', title: 'Contact', parts: [{ heading: 'Contact the team', text: 'Write to the team with your question.', footer: false }] },
];

describe('a docs site whose answers are on pages of their own', () => {
  it('goes to the contact page when asked who to write to with a question', () => {
    const exit = flowExit('Who do I write to if I have a question about these metadata schemas?', docsHome(), sameSite);
    assert.equal(exit?.link.label, 'Contact');
    assert.equal(flowExit('How do I get hold of the people behind this?', docsHome(), sameSite)?.link.label, 'Contact');
  });

  it('takes a question that goes on about the same thing along to the page that answers the first', () => {
    const term = answerElsewhere('I keep seeing the term controlled vocabulary. Where is it explained?', docsHome(), sameSite, linked);
    assert.equal(term?.link.label, 'Overview');
    assert.equal(term?.after, 'I keep seeing the term controlled vocabulary. Where is it explained?', 'both beats are asked there');
    assert.equal(answerElsewhere('I want to 3D print a stand to prop my board up. Any advice on printing it?', docsHome(), sameSite, linked)?.link.label, 'Printable Stand');
  });

  it('keeps a flow home for a later beat about something else this page answers', () => {
    assert.equal(answerElsewhere('I keep seeing the term controlled vocabulary, then show how they review documentation', docsHome(), sameSite, linked), null);
  });

  it('explains a term by the heading that asks what it is, and gives advice by its tips', () => {
    const overview = madeUpPage([
      part('what', 'content', 'What is a controlled vocabulary?', 0, 'An agreed list of terms, each with one meaning.'),
      part('terms', 'content', 'What terms should be in a controlled vocabulary?', 800, 'The terms people use.'),
    ]);
    assert.deepEqual(subjectIdsOn(overview)('Where is it explained?'), ['what']);
    const stand = madeUpPage([
      part('top', 'content', '3D Printable Stand', 0, 'Here are the models to print your own stand.'),
      part('tips', 'content', 'Printing Tips', 800, 'Drop the model down in the slicer.'),
      part('feet', 'content', 'Rubber Feet', 1400, 'Stick-on feet make it solid.'),
    ]);
    assert.deepEqual(subjectIdsOn(stand)('Any advice on printing it?'), ['tips']);
  });
});

describe("an anime site's menu", () => {
  it('reads "what a beginner should watch" as no call for its "Anime Watching" page', () => {
    const outline = madeUpPage([part('top', 'hero', 'Fate / Stay Night', 0, 'Watch now.'), part('trending', 'features', 'Trending Now', 800, 'Shows everyone watches.')], 'http://localhost:4000/anime/index.html');
    outline.navigation = [link('Anime Watching', '/anime/anime-watching.html'), link('Our Blog', '/anime/blog.html')];
    assert.equal(flowExit('Is there an article on what a beginner should watch first?', outline, sameSite), null);
    assert.equal(flowExit('Show me the anime watching page', outline, sameSite)?.link.label, 'Anime Watching');
  });
});

describe('a sign-in given as an example', () => {
  it('shows the sample screens a kit lists "like login and profile", and signs in when asked to', () => {
    const outline = madeUpPage([part('top', 'hero', 'Notus JS', 0, 'A free kit.'), part('examples', 'features', 'Beautiful Example Pages', 800, 'Login, profile and landing pages.')], 'http://localhost:4000/kit/index.html');
    outline.menuLinks = [{ ...link('Login', '/kit/pages/auth/login.html'), opener: { label: 'Demo Pages', selector: '#demo', fallbackSelectors: [], rect: { x: 500, y: 20, width: 90, height: 30 }, hover: true } }];
    assert.equal(flowExit('Show off the ready-made sample screens like login and profile.', outline, sameSite), null);
    assert.equal(flowExit("I'd like to log in as dana@example.com", outline, sameSite)?.link.label, 'Login');
  });
});

describe('a note from someone', () => {
  it('takes the full name after "a note from" for the one who writes', () => {
    assert.equal(namedValues("I'd like to write to the shop's team. Send them a note from Priya Nair").name, 'Priya Nair');
    assert.equal(namedValues('Send a message from London to the team').name, undefined, 'a place is no name of two words');
  });
});
