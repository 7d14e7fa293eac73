import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { madeUpPage, madeUpSection, subjectIdsOn } from './outlines.js';

/**
 * What the thirteenth blind batch (issue 55, blind-2026-12-08) asked in words its pages did not use: what a polyfill
 * does not handle (its "Limitations"), what sets a firm apart (its "Why Choose Us"), what people have made with a tool
 * (its "Community examples"), the part that invites a visitor to hire someone (a call to action), the jobs a company
 * is hiring for (its "Careers"), where its offices are (its "Locations"). Each page below is made up.
 */

const part = madeUpSection;
const idsOn = subjectIdsOn;

describe('a library page', () => {
  const ids = idsOn(madeUpPage([
    part('top', 'content', 'CSS conic-gradient() polyfill', 0, 'A polyfill for conic gradients in every browser.'),
    part('examples', 'testimonials', 'Community examples', 700, 'Pie charts, colour wheels and checkerboards people shared.'),
    part('features', 'features', 'Features', 1400, 'Repeating gradients. Any angle. Transparency.'),
    part('limits', 'content', 'Limitations', 2100, 'It is not live: a gradient changed by script is not redrawn.'),
    part('usage', 'content', 'Usage', 2800, 'Include the two script tags and use conic-gradient() in your CSS.'),
  ]));

  it('reads what it does not handle as its limitations', () => {
    assert.deepEqual(ids("What doesn't the polyfill handle yet?"), ['limits']);
  });

  it('reads what people have been making with it as its examples, not its features', () => {
    assert.deepEqual(ids('First show what people have been making with it')[0], 'examples');
  });
});

describe('a cleaning firm, a freelancer and a company', () => {
  it('reads what sets them apart as why choose them', () => {
    const ids = idsOn(madeUpPage([
      part('top', 'hero', 'Professional 3D Cleaning Experience', 0, 'Book a clean'),
      part('services', 'features', 'Our 3D Services', 700, 'What we clean: homes, offices and windows.'),
      part('why', 'features', 'Why Choose Us', 1400, 'Eco-friendly products. Vetted staff. On time, every time.'),
      part('quotes', 'testimonials', 'Customer Testimonials', 2100, '"Spotless." Maria.'),
    ]));
    assert.deepEqual(ids('Begin with what sets them apart from other cleaners'), ['why']);
  });

  it('reads the part that invites me to hire him as his call to action, not his contact form', () => {
    const ids = idsOn(madeUpPage([
      part('top', 'hero', 'Max Turner', 0, 'Software developer'),
      part('work', 'features', 'What I do', 700, 'Web development. Graphic design.'),
      part('band', 'cta', "Let's make something great together!", 1400, 'Hire Me'),
      part('contact', 'form', 'Get In Touch', 2100, 'Name. Email. Message. Send Message'),
    ]));
    assert.deepEqual(ids('Show the part that invites me to hire him.'), ['band']);
  });

  it("reads the jobs they're hiring for as its careers, and where its offices are as its locations", () => {
    const ids = idsOn(madeUpPage([
      part('top', 'hero', 'Building dependable products, with people at the center', 0, 'About us'),
      part('history', 'content', 'History', 700, '1998 founded. 2008 went abroad. 2020 a thousand employees.'),
      part('locations', 'features', 'Locations', 1400, 'Berlin. Lisbon. Toronto.'),
      part('careers', 'cta', 'Careers', 2100, 'Open roles in engineering and sales. Apply'),
    ]));
    assert.deepEqual(ids("Open on how the company grew year by year, then end on the jobs they're hiring for."), ['history', 'careers']);
    assert.deepEqual(ids('Where are their offices?'), ['locations']);
  });
});

describe('a developer tool', () => {
  it('reads a pull request as the PR its page speaks of', () => {
    // launchkit: "…how the result I like goes to GitHub as a pull request" ended on the part that says "the best result".
    const ids = idsOn(madeUpPage([
      part('top', 'hero', 'Ship Faster with Parallel Coding Agents', 0, 'Request a demo'),
      part('many', 'media', 'Ensure the best performance by launching many agents on each ticket.', 700, 'Launch many agents at once and pick the best result.'),
      part('workflow', 'media', 'Plug into your existing workflow', 1400, "When you have an implementation that works for you, a single click opens a PR that's ready to ship."),
    ]));
    assert.deepEqual(ids('Start with the pitch for running several agents on the same ticket, then finish on how the result I like goes out as a pull request.'), ['many', 'workflow']);
  });
});
