import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { planDemo } from '../../../src/pipeline/plan/heuristic-planner.js';
import { madeUpPage, madeUpSection, subjectIdsOn } from './outlines.js';

/**
 * What the fifteenth blind batch (issue 55, blind-2026-12-10) asked in words its pages did not use: "leave my email to
 * hear about it before launch" (its waitlist box), "lists tucked inside other lists" (nested ones), "dragging copies
 * an item" (cloning), a joined heading's parts ("MultiDrag"), "the people giving talks" (the speakers, not the
 * programme), and a quotation of what a notice says that names no section. Each page below is made up.
 */

const part = madeUpSection;
const idsOn = subjectIdsOn;

describe('a launch page', () => {
  it('reads leaving an email to hear about it before launch as the box that says it will tell you', () => {
    const ids = idsOn(madeUpPage([
      part('top', 'hero', 'Level up your workflow', 0, 'Email us: hello@only.example'),
      part('features', 'features', 'Turn on superpowers', 700, 'Fast. Private. Yours.'),
      part('notify', 'cta', 'Get notify earlier!', 1400, 'Your email Notify me'),
    ]));
    assert.deepEqual(ids('Where do I leave my email to hear about it before launch?'), ['notify']);
  });
});

describe("a drag-and-drop library's demos", () => {
  const ids = idsOn(madeUpPage([
    part('top', 'hero', 'SortableJS', 0, 'Reorderable drag-and-drop lists'),
    part('shared', 'content', 'Shared lists', 700, 'Item 1 Item 2 Item 3'),
    part('cloning', 'content', 'Cloning', 1300, 'Try dragging from one list to another. The item you drag will be cloned.'),
    part('disabled', 'content', 'Disabling Sorting', 1900, 'Try sorting the list on the left. It is not possible.'),
    part('nested', 'content', 'Nested Sortables Example', 2500, 'Item 1.1 Item 2.1 Item 2.2'),
    part('multi', 'content', 'MultiDrag', 3100, 'Item 1 Item 2 Item 3'),
  ]));

  it('reads lists inside other lists as the nested ones, and a copy made by dragging as cloning', () => {
    assert.deepEqual(ids('Show me how lists tucked inside other lists can be rearranged.'), ['nested']);
    assert.deepEqual(ids('Show the demo where dragging copies an item into the other list instead of moving it.'), ['cloning']);
  });

  it("reads a joined heading's parts: dragging several at once is its MultiDrag", () => {
    assert.equal(ids('Can people select several items and drag them all at once?').at(-1), 'multi');
  });
});

describe('a summit and a library', () => {
  it('reads the people giving talks as the speakers, not the programme of talks', () => {
    const ids = idsOn(madeUpPage([
      part('top', 'hero', 'Peru-Taiwan Summit 2023', 0, 'Register'),
      part('program', 'features', 'Main Program', 700, 'Talks, workshops and an expo over two days.'),
      part('speakers', 'features', 'Feature Speakers', 1300, 'Minister Lin. Ambassador Couturier.'),
    ]));
    assert.deepEqual(ids('Introduce the people giving talks'), ['speakers']);
  });

  it('goes where the prompt means, not to a section that shares one word with what a notice it quotes says', () => {
    const outline = madeUpPage([
      part('top', 'hero', 'Offline.js', 0, 'Every app goes offline'),
      part('what', 'content', 'What is Offline.js?', 800, 'Offline.js alerts your users when they have lost connection.'),
      part('themes', 'content', 'Pick a Theme', 1600, 'Choose a theme for the indicator.'),
    ]);
    const plan = planDemo({ prompt: 'Where do I choose how the "you are offline" notice looks?', outline, durationTarget: '10s', template: { id: 'auto' }, mode: 'script' });
    assert.equal(plan.autoSelection?.sectionHint, 'Pick a Theme');
  });
});
