import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { promptSubjects } from '../../../src/pipeline/plan/section-meaning.js';
import { madeUpPage, madeUpSection, subjectIdsOn } from './outlines.js';

/**
 * What the eleventh blind batch (issue 55, blind-2026-12-06) asked in words its pages did not use: what a hackathon's
 * winning team takes home (its "Prizes & Rewards"), the sites a developer has built (his "My Works"), the tools and
 * languages a developer works with, who a person is (her "About Me"), what a freelancer offers clients. Each page below
 * is made up.
 */

const part = madeUpSection;
const idsOn = subjectIdsOn;

describe('a hackathon', () => {
  const ids = idsOn(madeUpPage([
    part('top', 'hero', 'Ashes Hackathon 2025', 0, 'Register your team'),
    part('about', 'content', 'About the Hackathon', 700, 'Who can participate. Our purpose.'),
    part('prizes', 'content', 'Prizes & Rewards', 1400, '1st Prize $5,000. 2nd Prize $2,500. 3rd Prize $1,000.'),
    part('faq', 'faq', 'Frequently Asked Questions', 2100, 'Does it cost anything to join? No. Can my team have five members? Yes.'),
  ]));

  it('reads what the winning team can take home as the prizes, not the questions about teams and money', () => {
    assert.deepEqual(ids('How much money can the winning team take home?'), ['prizes']);
  });
});

describe("developers' portfolios", () => {
  const ids = idsOn(madeUpPage([
    part('top', 'hero', 'Hi, I am Sam', 0, 'Web developer. Hire me'),
    part('about', 'content', 'About Me', 700, 'I grew up by the sea and studied design.'),
    part('services', 'features', 'Services', 1400, 'Web design, development, maintenance.'),
    part('works', 'media', 'My Works', 2100, 'My Landing Page. Shop. Blog.'),
    part('skills', 'content', 'Skills & Expertise', 2800, 'JavaScript, Python, Figma.'),
    part('contact', 'form', "Let's Connect!", 3500, 'Name Email Message Send'),
  ]));

  it('reads the sites he has already built as his works', () => {
    assert.deepEqual(ids('Show me some of the sites this developer has already built.'), ['works']);
  });

  it('reads who the person is as the about part, and what they offer clients as the services', () => {
    assert.deepEqual(ids('Begin with a little about who this person is, then end on how to reach them about a project.')[0], 'about');
    assert.deepEqual(ids('Open on what they offer clients, then end on the form where I can send them a message.'), ['services', 'contact']);
  });

  it('reads the languages a developer works with as the skills', () => {
    assert.ok(ids('Which tools and languages does this developer work with?').includes('skills'));
  });
});

describe('what the eleventh batch left: a hackathon opened on its topics, a footer to follow, a template manual', () => {
  it('reads "open on" as where the video starts, and topics as themes', () => {
    const ids = idsOn(madeUpPage([
      part('top', 'hero', 'Ashes Hackathon 2025', 0, 'Register your team'),
      part('about', 'content', 'About the Hackathon', 700, 'A 48-hour marathon where teams compete on real-world challenges. Who can participate: open to developers of all levels.'),
      part('themes', 'content', 'Problem Statements & Themes', 1400, 'Choose a theme that inspires you. Rural communities. Urban mobility. Food technology.'),
      part('faq', 'faq', 'Frequently Asked Questions', 2100, 'Does it cost anything to join? No. Can my team have five members? Yes.'),
    ]));
    assert.deepEqual(ids('Open on the challenge topics teams can pick from, then end on the common questions, like whether it costs anything to join.'), ['themes', 'faq']);
  });

  it("reads their social media links as a footer's Follow us", () => {
    const outline = madeUpPage([
      part('top', 'hero', 'Learn More', 0, 'A landing page template'),
      part('video', 'content', 'Video', 700, 'Watch the intro.'),
      part('contact', 'cta', 'Contact Us', 1400, 'Email us via contact@website.com. Call us via 1-123-456-7890.'),
      part('footer', 'footer', 'Follow us', 2100, 'Follow us on Facebook. Follow us on Twitter. Follow us on Instagram. Privacy | Terms of Use'),
    ]);
    const meaning = promptSubjects('Open on the intro video, then end on their social media links.', outline);
    assert.equal(meaning.endsOn?.section.id ?? meaning.subjects.at(-1)?.section.id, 'footer');
  });

  it("reads a note left in a template as its comments, and swapping the braces as the delimiters", () => {
    const ids = idsOn(madeUpPage([
      part('variables', 'content', 'Variables', 0, 'The most basic tag type is the variable.'),
      part('sections', 'content', 'Sections', 700, 'Sections render blocks of text one or more times.'),
      part('comments', 'content', 'Comments', 1400, 'Comments begin with a bang and are ignored.'),
      part('delimiter', 'content', 'Set Delimiter', 2100, 'Set Delimiter tags change the tag delimiters from {{ and }} to custom strings.'),
    ]));
    assert.deepEqual(ids('Show me how to leave a note in a template that never appears in the output.'), ['comments']);
    assert.deepEqual(ids('Show me how to swap the curly braces for other tag markers.'), ['delimiter']);
  });
});
