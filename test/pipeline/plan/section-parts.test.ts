import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { planDemo } from '../../../src/pipeline/plan/heuristic-planner.js';
import { isVisible } from '../../../src/pipeline/plan/outline-query.js';
import { askedPart } from '../../../src/pipeline/plan/section-parts.js';
import type { OutlineSection, PageOutline, PlanStep, SectionKind } from '../../../src/pipeline/types.js';

/**
 * Issue 55: a beat that names one card of a tall section ("a car battery that keeps going flat" → the "Battery
 * Repair" card, three rows under "We provide great services") is shown by that card: the section's top showed its
 * heading and first row, and the card never came into view. A prompt about the section as a whole stays on its top.
 */

const section = (id: string, kind: SectionKind, heading: string, y: number, height: number, text: string, parts?: OutlineSection['parts']): OutlineSection => ({
  id, kind, heading, text, body: text, label: heading, selector: `#${id}`, fallbackSelectors: [],
  rect: { x: 0, y, width: 1440, height }, headingRect: { x: 320, y: y + 60, width: 800, height: 48 }, ...(parts ? { parts } : {}),
});

const card = (name: string, y: number, text: string) => ({
  heading: name, headingRect: { x: 120, y: y + 20, width: 300, height: 30 }, rect: { x: 100, y, width: 400, height: 320 }, text: `${name} ${text}`,
  selector: `#services li[data-name="${name}"] h3`, fallbackSelectors: [],
});

function garage(): PageOutline {
  const cards = [card('Engine Repair', 1180, 'Noises, smoke and warning lights.'), card('Brake Repair', 1180, 'Pads and discs.'), card('Tyre Change', 1540, 'Summer and winter tyres.'), card('Battery Repair', 1900, 'Testing and replacing car batteries.')];
  return {
    url: 'http://localhost/garage/', title: 'Kwik Garage', description: null, viewport: { width: 1440, height: 810 }, documentHeight: 3400,
    stickyHeaderHeight: 0, navigation: [], actions: [], forms: [], media: [], dismissedOverlays: [],
    sections: [
      section('top', 'hero', 'Auto maintenance and repair', 0, 900, 'Talented engineers and mechanics.'),
      section('services', 'features', 'We provide great services for your vehicle', 1000, 1300, cards.map((c) => c.text).join(' '), cards),
      section('about', 'content', 'Committed to quality', 2300, 800, 'Twenty years in Leeds.'),
    ],
  };
}

const scrolledTo = (steps: PlanStep[]) => steps.filter((step): step is Extract<PlanStep, { action: 'scroll' }> => step.action === 'scroll').at(-1)?.toY ?? 0;
const plan = (prompt: string) => planDemo({ prompt, outline: garage(), durationTarget: '10s', template: { id: 'auto' }, mode: 'script' });

describe('a beat that names one card of a tall section', () => {
  it('is shown by that card, which the cursor points at', () => {
    const outline = garage();
    const { steps } = plan('Can they sort out a car battery that keeps going flat?');
    const battery = outline.sections[1]!.parts![3]!;
    assert.ok(isVisible(outline, battery.rect, scrolledTo(steps)), `the battery card is on screen (scrolled to ${scrolledTo(steps)})`);
    assert.ok(steps.some((step) => step.action === 'hover' && step.target.label === 'Battery Repair'), 'the cursor points at its heading');
  });

  it('stays on the section when the prompt lists several of its cards, or asks for all of it', () => {
    const outline = garage();
    const heading = outline.sections[1]!.headingRect!;
    for (const prompt of ['Do they do engine, brake and tyre work?', 'What services do they offer for my vehicle?']) {
      const { steps } = plan(prompt);
      assert.ok(isVisible(outline, heading, scrolledTo(steps)), `"${prompt}" keeps the section's heading on screen`);
      assert.ok(!steps.some((step) => step.action === 'hover' && /Repair|Change/.test(step.target.label)), `"${prompt}" points at no one card`);
    }
  });

  it("keeps the section's heading when the card is the video's ending and cannot be shown with it", () => {
    const outline = garage();
    const { steps } = plan('Show how long they have been in business, then end on the services, like a battery that keeps going flat.');
    const heading = outline.sections[1]!.headingRect!;
    assert.ok(isVisible(outline, heading, scrolledTo(steps)), 'the ending holds the heading of the section it asked for');
  });
});

describe('a card named by two words of its long title', () => {
  it('is the card, though the title has more words than the prompt says', () => {
    // h5u-strata: "the project where he used pose estimation to aim in a shooter game" is "Volarant Aimbot by yolov8
    // pose estimation"; two of five words of its title had been too few to name it.
    const projects = [card('Practice of ETL Cloud migration', 1180, 'Moving pipelines.'), card('Pure python ETL helper', 1180, 'A small library.'),
      card('Volarant Aimbot by yolov8 pose estimation', 1540, 'A game experiment.'), card('Towards Adaptive Federated Learning', 1540, 'A paper.')];
    const work = section('work', 'media', 'Recent Work', 1000, 1000, projects.map((c) => c.text).join(' '), projects);
    assert.equal(askedPart(work, 'Show the project where he used pose estimation to aim in a shooter game.')?.heading, 'Volarant Aimbot by yolov8 pose estimation');
    assert.equal(askedPart(work, 'Show the projects he has built.'), null);
  });
});

describe('a list of posts that share words', () => {
  // cws-devblog: ten post cards under "Latest Blog Post"; two speak of Node and Express, three of accessibility.
  const posts = [card('Building a Restful CRUD API with Node JS, Express, and MongoDB', 1180, 'Lorem ipsum.'), card('Accessibility Tips for Web Developers', 1180, 'Lorem ipsum.'),
    card("Don't Develop Just for Yourself - A Developer's Checklist to Accessibility", 1540, 'Lorem ipsum.'), card('Monitoring Performance with the PageSpeed Insights API', 1540, 'Lorem ipsum.'),
    card('The best web accessibility tools for developers in 2021', 1900, 'Lorem ipsum.'), card('How to connect a React frontend with a NodeJS/Express backend', 1900, 'Lorem ipsum.')];
  const blog = section('posts', 'content', 'Latest Blog Post', 1000, 1300, posts.map((c) => c.text).join(' '), posts);

  it('is the post whose title holds more of the words than any other', () => {
    const prompt = 'Show the post about hooking up a React app to a Node and Express server.';
    assert.equal(askedPart(blog, prompt)?.heading, 'How to connect a React frontend with a NodeJS/Express backend');
    assert.equal(askedPart(blog, 'Show the post about hooking up a React app to a Node', prompt)?.heading, 'How to connect a React frontend with a NodeJS/Express backend', 'as the clause the prompt is read in');
  });

  it('gives each clause of a two-part prompt the post it names', () => {
    const prompt = "Start on her accessibility tips for developers, then scroll down to the article on measuring performance with Google's PageSpeed tool.";
    assert.equal(askedPart(blog, 'Start on her accessibility tips for developers', prompt)?.heading, 'Accessibility Tips for Web Developers');
    assert.equal(askedPart(blog, "then scroll down to the article on measuring performance with Google's PageSpeed tool.", prompt)?.heading, 'Monitoring Performance with the PageSpeed Insights API');
  });

  it('stays on the list when the words are as much in two titles', () => {
    assert.equal(askedPart(blog, 'Show the posts about Node and Express.'), null);
  });

  it('shows each post of a two-part prompt in turn, the second after the first, both pointed at', () => {
    // Two beats of one section had been one: the first post was framed, the second never came on screen.
    const outline = garage();
    const tall = posts.map((post, k) => ({ ...post, rect: { ...post.rect, y: 1180 + k * 400 }, headingRect: { ...post.headingRect, y: 1200 + k * 400 } }));
    outline.sections[1] = section('posts', 'content', 'Latest Blog Post', 1000, 2600, tall.map((c) => c.text).join(' '), tall);
    outline.sections[2] = section('about', 'content', 'Committed to quality', 3600, 800, 'Twenty years in Leeds.');
    outline.documentHeight = 4400;
    const prompt = "Start on her accessibility tips for developers, then scroll down to the article on measuring performance with Google's PageSpeed tool.";
    const { steps } = planDemo({ prompt, outline, durationTarget: '10s', template: { id: 'auto' }, mode: 'script' });
    const pointed = steps.filter((step) => step.action === 'hover').map((step) => (step as Extract<PlanStep, { action: 'hover' }>).target.label);
    assert.deepEqual(pointed.filter((label) => /Accessibility Tips|Monitoring/.test(label)), ['Accessibility Tips for Web Developers', 'Monitoring Performance with the PageSpeed Insights API']);
    const monitoring = tall[3]!;
    assert.ok(isVisible(outline, monitoring.headingRect, scrolledTo(steps)), `the second post ends the video on screen (scrolled to ${scrolledTo(steps)})`);
  });
});

describe('two cards compared', () => {
  it('is the section that sets them side by side', () => {
    // es-dhaka-sparkle: "a deep clean … compared with the basic one" named "Deep Clean" more than "Standard Clean".
    const plans = [card('Standard Clean', 1180, '৳1,500 per visit.'), card('Deep Clean', 1180, '৳3,500 per visit.'), card('Move-In/Out', 1180, '৳5,000 per visit.')];
    const pricing = section('pricing', 'pricing', 'Transparent Pricing', 1000, 900, plans.map((c) => c.text).join(' '), plans);
    assert.equal(askedPart(pricing, 'How much does a deep clean cost compared with the basic one?'), null);
    assert.equal(askedPart(pricing, 'How much does a deep clean cost?')?.heading, 'Deep Clean');
  });
});

describe("a library's page whose parts are said in other words", () => {
  // offline-js (blind batch of 2026-12-09): one section, "What is Offline.js?", holding "Install", "Download", "Pick a
  // Theme". "How I add it to my site" is its setup, said by "Install"; "the download button" names the next card.
  const parts = [card('Install', 1300, 'Add the script and a theme to your page.'), card('Download', 1600, 'The latest release, minified.'), card('Pick a Theme', 1800, 'Eight looks for the notice.')];
  const docs = section('what', 'content', 'What is Offline.js?', 810, 1400, parts.map((c) => c.text).join(' '), parts);
  const prompt = 'Open with how I add it to my site, then end on the download button.';

  it('gives each beat of a story told in order the card it names, in its own words or the page’s', () => {
    assert.equal(askedPart(docs, 'Open with how I add it to my site', prompt)?.heading, 'Install');
    assert.equal(askedPart(docs, 'then end on the download button.', prompt)?.heading, 'Download');
  });

  it('keeps the section for a list of its cards', () => {
    assert.equal(askedPart(docs, 'Show how I install it and download it.'), null);
  });
});
