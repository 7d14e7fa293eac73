import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { clausesOf } from '../../../src/pipeline/plan/prompt-clauses.js';
import { beatsOf } from '../../../src/pipeline/plan/not-found.js';
import { madeUpPage, madeUpSection, subjectIdsOn } from './outlines.js';

/**
 * What the eighteenth blind batch (issue 55, blind-2026-12-13) and the nineteenth flows batch asked in words their
 * pages did not use: real websites built with a stylesheet (its "Sites using …" list), a sample before paying (a
 * "Free Preview"), who wrote a book (its author, not who it is for), what is being built at the moment (the current
 * projects), what diners said about eating there, the formats one would receive, and a package manager named by its
 * name. Each page below is made up.
 */

const part = madeUpSection;
const idsOn = subjectIdsOn;

describe("a stylesheet's home page", () => {
  it('reads real websites built with it as the list of sites that use it, not the intro that says "websites"', () => {
    const ids = idsOn(madeUpPage([
      part('top', 'hero', 'concrete.css', 0, 'A simple and to the point CSS microframework.'),
      part('what', 'content', 'What is this ?', 700, 'A CSS framework for websites that need to look good without work.'),
      part('buttons', 'content', 'Buttons', 1400, 'Primary, secondary and disabled buttons.'),
      part('sites', 'content', 'Sites using Concrete', 2100, 'repfl.ch louismerl.in evolution paths'),
    ]));
    assert.deepEqual(ids('Are there real websites already built with it?'), ['sites']);
  });
});

describe("a book's landing page", () => {
  const ids = idsOn(madeUpPage([
    part('top', 'hero', 'Free Book & eBook Landing Page Template', 0, 'Buy for $39'),
    part('get', 'features', 'What Will You Get From This Book?', 700, 'Learn the craft, step by step.'),
    part('included', 'features', "What's Included", 1400, 'PDF, EPUB and Kindle editions.'),
    part('for', 'content', 'Who This Book Is For', 2100, 'Software developers and app developers.'),
    part('preview', 'cta', 'Get A Free Preview', 2800, 'Enter your email and we will send the first chapter.'),
    part('reviews', 'testimonials', 'Book Reviews', 3500, 'A must read. Five stars.'),
    part('author', 'content', 'About The Author', 4200, 'Steve Doe is a senior developer.'),
  ]));

  it('reads a sample before paying as the free preview', () => {
    assert.deepEqual(ids('Can I read a sample before I pay?'), ['preview']);
  });

  it('reads the formats one would receive as what is included, and who wrote it as the author', () => {
    assert.deepEqual(ids("Start with which formats I'd receive, then end on who wrote it."), ['included', 'author']);
  });
});

describe("a builder's and a restaurant's pages", () => {
  it('reads what they are building at the moment as the current projects, not the completed ones', () => {
    const ids = idsOn(madeUpPage([
      part('top', 'hero', 'Welcome', 0, 'Real estate developers since 1990.'),
      part('current', 'content', 'Current projects', 700, 'Skyline Towers. Green Valley.'),
      part('done', 'content', 'Completed Projects', 1400, 'Lake View. City Mall.'),
    ]));
    assert.deepEqual(ids('What are they building at the moment?'), ['current']);
  });

  it('reads what diners said about eating there as the feedback, not the breakfast menu', () => {
    const ids = idsOn(madeUpPage([
      part('top', 'hero', 'Treehut', 0, 'Fine food since 1985.'),
      part('breakfast', 'content', 'Breakfast', 700, 'Eggs, toast and coffee to start the day eating well.'),
      part('feedback', 'testimonials', 'Customer Feedback', 1400, 'Lovely place, great staff. John, London.'),
      part('dishes', 'content', 'Dishes', 2100, 'Pasta, pizza and salads.'),
    ]));
    assert.deepEqual(ids('What have diners said about eating there?'), ['feedback']);
  });
});

describe('a docs page whose parts are named for tools', () => {
  it('goes to the part whose heading names the tool the prompt writes with a capital, over one that shares its general words', () => {
    const ids = idsOn(madeUpPage([
      part('top', 'hero', 'Installation', 0, 'Get TopbarPlus into your experience.'),
      part('model', 'content', 'Take the model', 700, 'Add the TopbarPlus package model to your game and require it; the package manager of your choice works too.'),
      part('rojo', 'content', 'With Rojo', 1400, 'Sync the source into your place with Rojo.'),
      part('wally', 'content', 'With Wally', 2100, 'Add it to wally.toml.'),
    ]));
    assert.deepEqual(ids('How do I add TopbarPlus to my game with the Wally package manager?'), ['wally']);
  });
});

describe('a full stop inside a word', () => {
  it('keeps a user name with a dot in one clause, and the beat whole', () => {
    assert.deepEqual(clausesOf('Show how an admin signs back in with the username gyarar.admin'), ['Show how an admin signs back in with the username gyarar.admin']);
    assert.equal(beatsOf('Show how an admin signs back in with the username gyarar.admin')[0]!.text, 'Show how an admin signs back in with the username gyarar.admin');
    assert.deepEqual(clausesOf('Show the team. Then end on the pricing'), ['Show the team', 'end on the pricing']);
  });
});

describe("a habit tracker's pages", () => {
  it("reads how consistent I have been as my statistics, not today's progress", () => {
    const ids = idsOn(madeUpPage([
      part('top', 'hero', 'Routine Tracker', 0, 'Build better habits.'),
      part('today', 'content', "Today's Progress", 700, '2 of 5 habits done. Meditate, Read, Run.'),
      part('stats', 'content', 'Your Statistics', 1400, 'Completion rate by habit this month: Meditate 80%, Read 60%.'),
    ]));
    assert.deepEqual(ids('How consistent have I been with meditating this month?'), ['stats']);
  });
});

describe("a contractor's page", () => {
  it('meets two words of the prompt that the page writes as one ("the oil fields", "Oilfield")', () => {
    const ids = idsOn(madeUpPage([
      part('top', 'hero', 'HCL', 0, 'Civil construction in west Texas.'),
      part('team', 'content', 'What is our skilled team capable of?', 700, 'We work hard on every job.'),
      part('oilfield', 'content', 'Oilfield civil installation', 1400, 'Pads, roads and pits built to spec.'),
      part('dirt', 'content', 'Contaminated dirt and reclamation', 2100, 'We clean up spills and restore the ground.'),
    ]));
    assert.deepEqual(ids('Start with the work they do out in the oil fields'), ['oilfield']);
  });
});
