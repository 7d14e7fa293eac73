import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { clausesOf } from '../../../src/pipeline/plan/prompt-clauses.js';
import { promptSubjects } from '../../../src/pipeline/plan/section-meaning.js';
import { askedPart, scrollYForPart } from '../../../src/pipeline/plan/section-parts.js';
import type { OutlineSection } from '../../../src/pipeline/types.js';
import { madeUpPage, madeUpSection, subjectIdsOn } from './outlines.js';

/**
 * What the twenty-second blind batch (issue 55, blind-2026-12-17) asked that the planner misread: when a workshop's
 * papers are due and who reviews them (parts of a flat run of text), the films viewers score highest, products not
 * tested on animals, files kept in the browser's cache, a footer's address and phone numbers, where to follow a
 * project for its releases, icons that work on phones, and a résumé's prizes and hobbies. Each page below is made up.
 */

const part = madeUpSection;
const idsOn = subjectIdsOn;
const sub = (heading: string, y: number, text: string, flat = true): NonNullable<OutlineSection['parts']>[number] => ({
  heading, headingRect: { x: 300, y, width: 600, height: 30 }, rect: { x: 0, y, width: 1440, height: 400 }, text,
  selector: `h3[data-name="${heading}"]`, fallbackSelectors: [], ...(flat ? { flat: true as const } : {}),
});

describe("a workshop's page read off one flat run of text", () => {
  const papers = part('cfp', 'content', 'Call For Papers', 1400, 'We invite papers on learning and reasoning. Submission through EasyChair.', {
    parts: [sub('Topics', 1500, 'Learning, reasoning.'), sub('Submission', 1900, 'Papers of 4 to 8 pages.'), sub('Important Dates', 2300, 'May 13: Workshop Paper Due Date. June 3: Notification of Paper Acceptance.')],
  });
  const organization = part('org', 'content', 'Organization', 3100, 'The people behind the workshop.', {
    parts: [sub('Organizing Committee', 3160, 'Dr. A, Dr. B.'), sub('Program Committee', 3700, 'Dr. C, Dr. D, Dr. E.')],
  });
  const page = madeUpPage([
    part('top', 'hero', 'STRL 2024', 0, 'A workshop at IJCAI.'),
    part('intro', 'content', 'Introduction', 700, 'Logic and learning, together.'),
    papers,
    part('program', 'content', 'Workshop Program', 2700, 'Talks and keynotes of the day.'),
    organization,
    part('venue', 'content', 'Venue', 4400, 'Jeju, South Korea.'),
  ]);

  it('shows the important dates of the call when asked when papers are due and when authors hear back', () => {
    const prompt = 'When do papers have to be in, and when will authors hear back?';
    assert.deepEqual(idsOn(page)(prompt), ['cfp']);
    assert.equal(askedPart(papers, 'When do papers have to be in', prompt)?.heading, 'Important Dates');
  });

  it('shows the program committee, who review the papers, not the call for them', () => {
    const prompt = 'Who reviews the submitted papers?';
    assert.deepEqual(idsOn(page)(prompt), ['org']);
    assert.equal(askedPart(organization, prompt)?.heading, 'Program Committee');
  });

  it('ends on the program committee a screen under "Organization", though the section\'s heading cannot be in the same shot', () => {
    const far = { ...organization, rect: { ...organization.rect, height: 1600 }, headingRect: { x: 300, y: 3100, width: 600, height: 40 } };
    const committee = { ...far.parts![1]!, headingRect: { x: 300, y: 4200, width: 600, height: 30 }, rect: { x: 0, y: 4200, width: 1440, height: 400 } };
    const y = scrollYForPart(page, far, committee, 3000, true);
    assert.ok(y !== null && y <= 4200 && y + 810 >= 4600, `the committee in the last shot (y ${y})`);
    // A card of a grid is not: the last beat keeps its section's heading, so no card far under it.
    assert.equal(scrollYForPart(page, far, { ...committee, flat: undefined }, 3000, true), null);
  });

  it('keeps to a flat run\'s heading when a line under it says one word of the clause', () => {
    const practices = part('bp', 'content', 'Best Practices', 900, 'Keep animations short.', {
      parts: [sub('Use animations sparingly', 1000, 'A little goes far.'), sub("Don't disable the prefers-reduced-motion media query", 1400, 'Respect it.')],
    });
    assert.equal(askedPart(practices, 'Show the advice on keeping motion tasteful'), null);
  });
});

describe("a streaming site's page", () => {
  const page = madeUpPage([
    part('top', 'hero', 'Unlimited Movie, TVs Shows, & More.', 0, 'Watch anywhere.'),
    part('upcoming', 'features', 'Upcoming Movies', 700, 'Films coming soon.'),
    part('download', 'content', 'Download Your Shows Watch Offline.', 1400, 'Films and series on your device.'),
    part('top-rated', 'features', 'Top Rated Movies', 2100, 'Movies, TV shows, documentary, sports.'),
  ]);

  it('reads the films viewers score highest as the top rated ones', () => {
    assert.deepEqual(idsOn(page)('Which films do viewers score the highest?'), ['top-rated']);
  });
});

describe("a cosmetics shop's page", () => {
  const page = madeUpPage([
    part('top', 'hero', 'Reveal The Beauty of Skin', 0, 'Made using clean ingredients.'),
    part('best', 'features', 'Our Bestsellers', 700, 'Add to cart. Add to cart.'),
    part('why', 'features', 'Why Shop with Us?', 1400, 'Guaranteed PURE: never harsh or toxic ingredients. Completely Cruelty-Free. Ingredient Sourcing.'),
    part('offer', 'cta', 'Mountain Pine Bath Oil', 2100, 'Special offer -20%.'),
  ]);

  it('reads products not tested on animals as cruelty-free', () => {
    assert.deepEqual(idsOn(page)('Are their products not tested on animals?'), ['why']);
  });
});

describe("a build tool's one-page docs", () => {
  const page = madeUpPage([
    part('top', 'hero', 'Jammit', 0, 'An asset packaging library.'),
    part('config', 'content', 'Configuration', 700, 'The assets.yml file lists the packages browsers load.'),
    part('expires', 'content', 'Expires Headers', 1400, 'Serve the packaged assets with far-future headers.'),
    part('templates', 'content', 'JavaScript Templates', 2100, 'Templates are included in the bundled packages.'),
  ]);

  it('reads keeping files cached in the browser as its expiry headers', () => {
    assert.deepEqual(idsOn(page)('How do I get browsers to keep the bundled files cached for a long time?'), ['expires']);
  });
});

describe('a gym\'s page whose contact details are only in the footer', () => {
  const page = madeUpPage([
    part('top', 'hero', 'Work Hard To Get Better Life', 0, 'Join today.'),
    part('welcome', 'content', 'Welcome To Our Fitness Gym', 700, 'Our coach and our story.'),
    part('classes', 'features', 'Fitness Classes For Every Goal', 1400, 'Numbers of seats booked: 85%.'),
    part('footer', 'footer', '', 2100, 'Fitlife. Contact Us. Address: 2 Main Street. Phone: +1 555 0100. Email: info@fitlife.com.', { heading: null as unknown as string }),
  ]);

  it('ends on the footer when asked for the address, phone numbers and email', () => {
    assert.deepEqual(idsOn(page)('Start with the introduction to the gym and its coach, then finish on the address, phone numbers and email.'), ['welcome', 'footer']);
  });
});

describe("an icon theme project's page", () => {
  const page = madeUpPage([
    part('top', 'hero', 'We make your desktop more beautiful.', 0, 'Icons and themes.'),
    part('themes', 'features', 'Themes', 700, 'Icons for Linux and Android.', { peerHeadings: ['Linux/Android', 'GTK'] }),
    part('work', 'content', 'Our Work', 1400, 'Install from the terminal. Changelog of new releases on GitHub.'),
    part('contact', 'content', 'Contact Us', 2100, 'Want to keep up with our news? Follow us on social media for the latest.'),
  ]);

  it('sends following them for new releases to their social accounts, not the release notes', () => {
    assert.deepEqual(idsOn(page)('Where can I follow them to hear about new releases?'), ['contact']);
  });

  it('reads icons that work on phones as Android, not a phone number', () => {
    assert.deepEqual(idsOn(page)('Start with the news that the icons also work on phones, then finish on the terminal commands to install everything.'), ['themes', 'work']);
  });
});

describe("a developer's résumé with a side column", () => {
  const column = part('skills', 'content', 'Skills', 400, 'Technical Education Awards Languages Interests: hiking, photography.', {
    parts: [sub('Technical', 450, 'JavaScript.', false), sub('Education', 800, 'MSc.', false), sub('Awards', 1100, 'Best Paper 2020.', false), sub('Languages', 1400, 'English.', false), sub('Interests', 1600, 'Hiking.', false)],
  });
  const page = madeUpPage([
    part('top', 'hero', 'Simon Doe', 0, 'Senior Software Engineer.'),
    part('work', 'content', 'Work Experiences', 400, 'Google, 2023 to now.'),
    column,
    part('projects', 'content', 'Projects', 1300, 'Side projects.'),
  ]);

  it('finds his prizes and what he does in his free time in the side column, each its own part', () => {
    const prompt = 'Start with any prizes he has won, then finish on what he likes doing in his free time.';
    assert.deepEqual(idsOn(page)(prompt).slice(-1), ['skills']);
    assert.equal(askedPart(column, 'Start with any prizes he has won', prompt)?.heading, 'Awards');
    assert.equal(askedPart(column, 'finish on what he likes doing in his free time', prompt)?.heading, 'Interests');
    assert.ok(promptSubjects(prompt, page).subjects.length >= 1);
  });

  it('reads "likes doing" as a verb, not the start of a list of examples', () => {
    assert.ok(clausesOf('finish on what he likes doing in his free time').every((clause) => !/such as/.test(clause)));
  });
});
