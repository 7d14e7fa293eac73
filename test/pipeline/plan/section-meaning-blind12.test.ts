import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { madeUpPage, madeUpSection, subjectIdsOn } from './outlines.js';

/**
 * What the twelfth blind batch (issue 55, blind-2026-12-07) asked in words its pages did not use: what the people who
 * used a product are saying (its "Many Happy Customers", not its team), new posts by email (a blog's "Newsletter"),
 * running a tool from the terminal (its "Command Line Interface"). Each page below is made up.
 */

const part = madeUpSection;
const idsOn = subjectIdsOn;

describe('a product page with its customers and its team', () => {
  const ids = idsOn(madeUpPage([
    part('top', 'hero', 'AppKit: build faster', 0, 'Start your free trial'),
    part('happy', 'testimonials', 'Many Happy Customers', 700, '"Saved us hours every week." Anna, CTO. "Simply the best." Tom, designer.'),
    part('team', 'content', 'Our Team', 1400, 'Meet the people who build AppKit: Ana, founder; Ben, engineer.'),
    part('pricing', 'pricing', 'Pricing', 2100, 'Basic $9. Pro $29. Enterprise $99.'),
  ]));

  it('reads what the people who used it are saying as the testimonials, not the people behind it', () => {
    assert.deepEqual(ids('What are people who used it saying?'), ['happy']);
    assert.deepEqual(ids('Who are the people behind it?'), ['team']);
  });
});

describe('a blog and a tool', () => {
  it('reads getting her new posts by email as the newsletter, not the posts', () => {
    const ids = idsOn(madeUpPage([
      part('top', 'hero', "Hi, I'm Julia Walker. Web Developer", 0, 'I write about the web.'),
      part('posts', 'content', 'Latest Blog Post', 700, 'Building microservices. Fast web pages on a $20 phone. Accessibility tips for developers.'),
      part('topics', 'content', 'Topics', 1400, 'Database. Accessibility. Web Performance.'),
      part('newsletter', 'cta', 'Newsletter', 2100, 'Subscribe to stay up to date. Email address. Subscribe'),
    ]));
    assert.deepEqual(ids('I want to get her new posts by email.'), ['newsletter']);
  });

  it('reads running it from the terminal as its command line interface, not its configuration', () => {
    const ids = idsOn(madeUpPage([
      part('top', 'content', 'Docco', 0, 'A quick-and-dirty documentation generator.'),
      part('config', 'content', 'Configuration', 700, 'Default options: the layout, the output folder, a custom template and stylesheet.'),
      part('cli', 'content', 'Command Line Interface', 1400, 'Usage: docco [options] FILES. Options: -l --layout, -o --output, -t --template.'),
      part('api', 'content', 'Public API', 2100, 'The module exports document, parse and format.'),
    ]));
    assert.deepEqual(ids('How do I run it from the terminal, and which flags can I pass?')[0], 'cli');
  });
});

describe('a shop and a docs home, in words the thirteenth session met', () => {
  it("reads a shop's products as its catalogue, though \"product\" alone names the thing being demoed", () => {
    // cl-cozastore: "Show the products first" found nothing, "product" being a stop word.
    const ids = idsOn(madeUpPage([
      part('top', 'hero', 'New Season', 0, 'Women collection 2018. Shop now'),
      part('banners', 'content', '', 700, 'Women. Men. Accessories.'),
      part('overview', 'content', 'Product Overview', 1400, 'All products. Women. Men. Bag. Shoes. Watches. Esprit Ruffle Shirt $16.64'),
      part('bottom', 'footer', '', 2800, 'Categories. Help: Track Order, Returns, Shipping. Newsletter. Subscribe'),
    ]));
    assert.deepEqual(ids('Show the products first'), ['overview']);
    assert.deepEqual(ids('Let me browse everything they sell'), ['overview']);
  });

  it('reads "I\'d like" as how the asking is put, not a heading that says "like"', () => {
    const ids = idsOn(madeUpPage([
      part('top', 'hero', 'Launch Your Software Project Like A Pro', 0, 'Get CoderPro'),
      part('pricing', 'pricing', 'Pricing', 700, 'Free. Pro $19 a month.'),
    ]));
    assert.deepEqual(ids("I'd like to see the warning callouts"), []);
  });
});
