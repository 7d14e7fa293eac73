import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { planDemo } from '../../../src/pipeline/plan/heuristic-planner.js';
import { madeUpPage, madeUpSection, subjectIdsOn } from './outlines.js';

/**
 * What the fourteenth blind batch (issue 55, blind-2026-12-09) asked in words its pages did not use: the artists
 * "selling the most" (its "Top Sellers"), "everything they have built" (its "Our creations"), "her work experience"
 * (not the portfolio's work), "the form where I can send her a message" (the form, not the contact block beside
 * it), the dishes a place is "known for" (its specialties), "what happens on the first day, hour by hour" (its
 * schedule). Each page below is made up.
 */

const part = madeUpSection;
const idsOn = subjectIdsOn;

describe('a marketplace and a studio', () => {
  it('reads who sells the most as its top sellers, not its popular collections', () => {
    const ids = idsOn(madeUpPage([
      part('top', 'hero', 'Discover, collect, and sell extraordinary NFTs', 0, 'Explore'),
      part('sellers', 'features', 'Top Sellers', 700, 'Richard 3.5 ETH. Johnny 2.1 ETH.', { kicker: 'Creative Artist' }),
      part('collections', 'logos', 'Popular Collections', 1400, 'Virtual Worlds. Digital Arts.', { kicker: 'Most Popular' }),
    ]));
    assert.deepEqual(ids('Which artists are selling the most right now?'), ['sellers']);
  });

  it('reads the one who does a thing by its doer: those selling here are the sellers', () => {
    const ids = idsOn(madeUpPage([
      part('top', 'hero', 'Pixel Market', 0, 'Start'),
      part('sellers', 'content', 'Sellers', 700, 'Richard. Johnny. Maya.'),
      part('collections', 'content', 'Collections', 1400, 'Browse the collections selling now.'),
    ]));
    assert.deepEqual(ids('Show me the people selling here'), ['sellers']);
  });

  it('reads everything they have built as their creations', () => {
    const ids = idsOn(madeUpPage([
      part('top', 'hero', 'Immersive experiences that deliver', 0, 'About Careers Events'),
      part('about', 'media', 'The leader in interactive VR', 700, 'Founded in 2011, we have been building VR ever since.'),
      part('creations', 'media', 'Our creations', 1400, 'Deep earth. Night arcade. Soccer team VR.'),
    ]));
    assert.deepEqual(ids('End on everything they have built.'), ['creations']);
  });
});

describe('a portfolio', () => {
  const ids = idsOn(madeUpPage([
    part('top', 'hero', "Zahra's Mini Portfolio", 0, 'Hello'),
    part('about', 'content', 'About Me', 700, 'Experience: front-end developer at a studio since 2021.'),
    part('work', 'content', 'My Portfolio', 1400, 'Projects I built.'),
    part('contact', 'content', 'Contact Me', 2100, 'Send me a message: mail, phone, social links.'),
    part('form', 'form', 'Get in Touch', 2800, 'Name. Email. Message. Send.'),
  ]));

  it('reads her work experience as her experience, not her portfolio', () => {
    assert.deepEqual(ids('Open on her work experience'), ['about']);
  });

  it('ends on the form when the prompt asks for the form, not on the contact block beside it', () => {
    assert.deepEqual(ids('Finish at the form where I can send her a message.'), ['form']);
  });
});

describe('a restaurant and a conference', () => {
  it('reads what a place is known for as its specialties', () => {
    const ids = idsOn(madeUpPage([
      part('top', 'hero', 'Welcome to Savory', 0, 'Reserve a table'),
      part('specialties', 'features', 'Our Specialties', 700, 'Grilled salmon. Truffle pasta.'),
      part('menu', 'features', 'Our Menu', 1400, 'Starters, mains and desserts: every dish we cook.'),
    ]));
    assert.deepEqual(ids('Which dishes is this place known for?'), ['specialties']);
  });

  it('reads what happens on the first day, hour by hour, as the schedule', () => {
    const ids = idsOn(madeUpPage([
      part('top', 'hero', 'TechFuture Summit 2026', 0, 'Two days of talks.'),
      part('about', 'features', 'About The Summit', 700, 'What to expect: speakers, workshops, awards.', { selector: '#features' }),
      part('schedule', 'content', 'Event Schedule', 1400, '09:00 Registration. 10:00 Opening keynote.'),
    ]));
    assert.deepEqual(ids('What happens on the first day, hour by hour?'), ['schedule']);
  });
});

describe('a library page whose hero bears its name', () => {
  it('goes to the part whose heading is the answer word for word, not to the hero that shares its words', () => {
    // offline-js: "What is Offline.js?" and the hero's "Offline.js" share every keyword; the shot stayed on the hero.
    const outline = madeUpPage([
      part('top', 'hero', 'Offline.js', 0, 'Every app goes offline.'),
      part('what', 'content', 'What is Offline.js?', 810, 'A library to alert your users when they have lost connectivity.'),
      part('install', 'content', 'Install', 1620, 'Include the script.'),
    ]);
    const { steps } = planDemo({ prompt: 'What does this library actually do for the people using my app?', outline, durationTarget: '10s', template: { id: 'auto' }, mode: 'script' });
    const focused = steps.filter((step) => step.action === 'focus').map((step) => (step as { sectionId: string }).sectionId);
    assert.equal(focused.at(-1), 'what', JSON.stringify(focused));
  });
});
