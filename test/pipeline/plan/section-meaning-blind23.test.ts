import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { madeUpPage, madeUpSection, subjectIdsOn } from './outlines.js';

/**
 * What the twenty-third blind batch (issue 55, blind-2026-12-18) and the last one's leftover asked that the planner
 * misread: an offer with its countdown running, the plants for sale and the clothes a shop sells, what a library
 * depends on and which files to add to a page, how to get hold of the people behind a page, and what a page says it is for. Each page below is made up.
 */

const part = madeUpSection;
const idsOn = subjectIdsOn;

describe("a cosmetics shop's page with a sale banner and an offer on a clock", () => {
  const page = madeUpPage([
    part('top', 'hero', 'Reveal The Beauty of Skin', 0, 'Clean skincare.'),
    part('shop', 'features', 'Our Bestsellers', 800, 'Face serum $29. Night cream $35.'),
    part('autumn', 'cta', 'Discover Our Autumn Skincare', 1500, '25% off Everything Makeup. Shop Sale.'),
    part('offer', 'content', 'Mountain Pine Bath Oil', 2200, 'Made using clean, non-toxic ingredients. 15 21 46 08. Get Only $39.00', { widgets: ['countdown'] }),
    part('blog', 'content', 'More to Discover', 2900, 'Find a store. Our blog.'),
  ]);

  it('ends on the offer whose countdown runs, not on the banner of a sale', () => {
    assert.deepEqual(idsOn(page)('Start with what customers buy the most, then end on the limited-time offer with the timer running.'), ['shop', 'offer']);
  });
});

describe('a plant shop and a clothes shop: what is for sale', () => {
  const plants = madeUpPage([
    part('home', 'hero', 'Plants will make your life better', 0, 'Create incredible plant design for your offices or apartments.'),
    part('about', 'content', 'Who we really are & why choose us', 800, 'We have over 4000 plants for every taste. Sales of plants all year.'),
    part('products', 'features', 'Check out our products', 1600, 'Cactus Plant $19.99. Aloe Vera Plant $24.99. Succulent Plant $14.99.'),
    part('contact', 'form', 'Reach out to us today via any of the given information', 2400, 'Call us. Write us. Location.'),
  ]);
  const clothes = madeUpPage([
    part('sale', 'hero', 'Sale 20% Off On Everything', 0, 'Shop now.'),
    part('why', 'features', 'Why Shop With Us', 800, 'Fast delivery. Free shipping. Best quality.'),
    part('products', 'features', 'Our products', 1600, "Men's shirt $75. Women's dress $68. Jacket $58."),
    part('subscribe', 'form', 'Subscribe To Get Discount Offers', 2400, 'Enter your email.'),
  ]);

  it('shows the plants with their prices when asked for the plants for sale, not the contact form ("sales" is no call)', () => {
    assert.deepEqual(idsOn(plants)('Show me the plants for sale with their prices, then finish on how I can contact them.'), ['products', 'contact']);
  });

  it('shows the products when asked to browse the clothes they sell', () => {
    assert.deepEqual(idsOn(clothes)('Let me browse the clothes they sell first, then show me where to sign up for discount emails.'), ['products', 'subscribe']);
  });
});

describe("a library's page and a starter page", () => {
  const library = madeUpPage([
    part('top', 'hero', 'Messenger', 0, 'Growl-style alerts and messages for your app.'),
    part('demo', 'content', 'Demo', 800, 'Click to see a message.'),
    part('requires', 'content', 'Requires', 1400, 'jQuery. Backbone.js is optional.'),
    part('including', 'content', 'Including', 1900, 'Add messenger.min.js and messenger.css to your page.'),
    part('quick', 'content', 'Really Quick Usage', 2400, 'Messenger().post("Hello")'),
  ]);
  const starter = madeUpPage([
    part('top', 'hero', 'Welcome to Scrolling Nav', 0, 'A landing page template freshly redesigned.'),
    part('about', 'content', 'About this page', 800, 'This is a great place to talk about your webpage. This template is: clickable nav links, responsive.'),
    part('services', 'features', 'Services we offer', 1500, 'Lorem ipsum dolor sit amet.'),
    part('contact', 'content', 'Contact us', 2200, 'Lorem ipsum dolor sit amet.'),
  ]);

  it('starts on what the library requires when asked what it depends on', () => {
    assert.deepEqual(idsOn(library)('Start with what it depends on, then show me the fastest way to start using it.'), ['requires', 'quick']);
  });

  it('reads "which files do I add to my page to get it working" as the setup', () => {
    const kit = madeUpPage([
      part('top', 'hero', 'Tooltip.js', 0, 'Small tooltips for any element.'),
      part('features', 'features', 'Why Tooltip.js', 800, 'Tiny. No dependencies. Accessible.'),
      part('install', 'content', 'Installation', 1500, 'npm install tooltip.js, or copy dist/tooltip.min.js.'),
      part('api', 'content', 'Methods', 2200, 'show(), hide(), destroy().'),
    ]);
    assert.deepEqual(idsOn(kit)('Which files do I add to my page to get it working?'), ['install']);
  });

  it('reads "get hold of the people behind this" as getting in touch', () => {
    assert.deepEqual(idsOn(starter)('How do I get hold of the people behind this?'), ['contact']);
  });

  it('reads "what the page says it is for" as its about', () => {
    assert.deepEqual(idsOn(starter)('Start with what the page says it is for, then move on to what they provide.'), ['about', 'services']);
  });
});
