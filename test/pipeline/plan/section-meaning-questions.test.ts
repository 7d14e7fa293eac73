import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { promptSubjects } from '../../../src/pipeline/plan/section-meaning.js';
import type { OutlineSection, PageOutline, SectionKind } from '../../../src/pipeline/types.js';

/**
 * The questions a customer asks of a small business's page (issue 55, blind batch of 2026-11-30): how soon it
 * arrives, where it is now, how long they have been going, how many they have served, what they mend, the latest
 * of something. Each page below is made up; none of its headings says the prompt's words.
 */

/** A section of a made-up page, 600 px tall. */
function part(id: string, kind: SectionKind, heading: string, y: number, text: string): OutlineSection {
  return { id, kind, heading, text, label: heading, selector: `#${id}`, fallbackSelectors: [], rect: { x: 0, y, width: 1440, height: 600 } };
}

function page(sections: OutlineSection[]): PageOutline {
  return {
    url: 'http://localhost/shop/', title: 'Shop', description: null, viewport: { width: 1440, height: 810 }, documentHeight: 6000,
    stickyHeaderHeight: 0, navigation: [], sections, actions: [], forms: [], media: [], dismissedOverlays: [],
  };
}

/** The ids of the sections a prompt asks for, in the order to visit them. */
function idsOn(outline: PageOutline): (prompt: string) => string[] {
  return (prompt) => promptSubjects(prompt, outline).subjects.map((s) => s.section.id);
}

describe('what a customer asks of a small business page', () => {
  const bakery = page([
    part('hero', 'hero', 'Bread worth getting up for', 0, 'Order online, collect or have it brought round.'),
    part('about', 'content', 'More than a bakery', 600, '25 Years Experiense. Sourdough, rye and buns from our ovens on Mill Lane.'),
    part('why', 'features', 'Baked in the old town', 1200, '01 Flour from local mills. 02 Own quick delivery, 45 min maximum. 03 Friendly bakers.'),
    part('menu', 'features', 'Best-selling loaves', 1800, 'Country sourdough £4. Seeded rye £5. Cinnamon buns £3 each. Full menu.'),
    part('reviews', 'testimonials', 'What our customers say', 2400, 'I pick up my breakfast here every morning. Anna K. The best rye in town. Tom B.'),
  ]);
  const ids = idsOn(bakery);

  it('knows a question about how soon an order arrives as the delivery, not the menu of what is delivered', () => {
    assert.deepEqual(ids('How quickly will my bread get to me?'), ['why']);
    assert.deepEqual(ids('How soon does an order arrive?'), ['why']);
  });

  it('knows how long a place has been going as its years in business, misspelt or not', () => {
    assert.deepEqual(ids('How long has the place been going?'), ['about']);
  });

  it('knows a regular as a customer: the reviews, not the menu that names the meal', () => {
    assert.deepEqual(ids('Show the loaves people buy most, then end on a regular who comes in for breakfast.'), ['menu', 'reviews']);
  });
});

describe('a carrier, a garage, a school, a gallery', () => {
  it('knows following where a parcel is as the tracking, and a track record as the figures', () => {
    const carrier = page([
      part('hero', 'hero', 'Anywhere, on time', 0, 'Road, rail and sea.'),
      part('services', 'features', 'What we move', 600, 'Road freight. Ocean freight. Rail freight.'),
      part('solutions', 'features', 'A wide range of solutions', 1200, 'Multiple warehouses. Tracking made easy: one number for the whole trip.'),
      part('proof', 'content', 'Twenty years on the road', 1800, 'A proven record: 1,200 lorries, 40 depots, 99% on time.'),
    ]);
    const ids = idsOn(carrier);
    assert.deepEqual(ids('Can I follow where my parcel is while it is on the way?'), ['solutions']);
    assert.deepEqual(ids('Show their track record'), ['proof']);
  });

  it('reads a band of figures as numbers, whatever it calls them: "how many customers have they looked after?"', () => {
    const garage = page([
      part('hero', 'hero', 'Repairs you can trust', 0, 'Book online.'),
      part('services', 'features', 'We Provide Great Services For Your Vehicle', 600, 'OUR SERVICES. Engine repair. Brake repair. Battery repair.'),
      part('band', 'content', 'Committed to quality', 1200, 'ABOUT US. 8K+ Happy Clients. 22+ Instruments. 50+ Years in market. 99% Projects completed.'),
      part('latest', 'media', 'Latest projects we have done', 1800, 'Auto repair: engine repair. Auto repair: tyre change.'),
    ]);
    const ids = idsOn(garage);
    assert.deepEqual(ids('How long have they been around and how many customers have they looked after?'), ['band']);
    assert.deepEqual(ids('Show everything they can fix on a car, then end on jobs they have finished recently.'), ['services', 'latest']);
  });

  it('knows who teaches and why to learn with them, and that up-to-date material is current', () => {
    const school = page([
      part('hero', 'hero', 'Education is about excellence', 0, 'Better learning, with us. Get started today.'),
      part('topics', 'features', 'Popular topics to learn', 600, 'Personal development. Art and design. Web development.'),
      part('about', 'content', 'We offer the best carrier', 1200, 'Expert instructors from the industry. Up-to-date course content. A big community.'),
      part('courses', 'features', 'Our popular courses', 1800, 'Python A-Z $29. Marketing basics $19.'),
    ]);
    const ids = idsOn(school);
    assert.deepEqual(ids('Why learn with them rather than somewhere else: who teaches, and how current is the material?'), ['about']);
  });

  it('gives a later beat the part an earlier beat did not take when two parts answer it alike', () => {
    const gallery = page([
      part('hero', 'hero', 'Discover digital art', 0, 'Explore more.'),
      part('newest', 'features', 'Newest items', 600, 'Place bid. Blue body art, 0.5 ETH. Place bid. Red city, 0.7 ETH.'),
      part('how', 'features', 'Create and sell', 1200, 'Set up your wallet. Add your work. Sell it.'),
      part('explore', 'features', 'Explore product', 1800, 'Place bid. Blue body art, 0.5 ETH. Place bid. Red city, 0.7 ETH.'),
    ]);
    assert.deepEqual(idsOn(gallery)('Show the freshest drops first, then end on the full gallery of pieces I can bid on.'), ['newest', 'explore']);
  });

  it('knows pushing numbers from one\'s scripts as getting data in, not the part that shows a dashboard', () => {
    // A dashboard framework's page: "dashboard" is in most parts, the page's own subject.
    const framework = page([
      part('hero', 'hero', 'Dashing', 0, 'The handsome dashboard framework.'),
      part('example', 'content', 'Example dashboard', 600, 'A sample dashboard with two widgets. Each widget has an id, used when pushing data to it.'),
      part('data', 'content', 'Getting data into your widgets', 1200, 'Providing data is easy: pass in the JSON. Jobs run on a schedule; or post to the API to reload a dashboard.'),
      part('browsers', 'content', 'Browser compatibility', 1800, 'Dashboards are tested in Chrome, Safari and Firefox.'),
    ]);
    assert.deepEqual(idsOn(framework)('How do I push numbers from my own scripts into a dashboard?'), ['data']);
  });
});
