import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { asSpoken, writeNarrationScript } from '../../../src/pipeline/narration/script.js';
import type { StoryText } from '../../../src/pipeline/story-text/types.js';

const story: StoryText = {
  language: 'en',
  captionsOff: null,
  beats: [
    { kind: 'opening', stepLabel: null, sectionId: 'hero', title: 'Flowboard — Project planning your whole team will actually…', caption: ['Plan, track and ship work your', 'whole…'], captionBy: 'rules', spoken: 'Plan, track and ship work your whole team can see' },
    { kind: 'section', stepLabel: 'Show "Pricing"', sectionId: 'pricing', title: 'Simple pricing that scales with you', caption: ['Simple pricing that scales with you:', '$0 to $29'], captionBy: 'rules', spoken: 'Simple pricing that scales with you: $0 to $29' },
    { kind: 'section', stepLabel: 'Show "FAQ"', sectionId: 'faq', title: 'Frequently asked questions', caption: null },
    { kind: 'ending', stepLabel: 'Click "Start free"', sectionId: null, title: 'Start free', caption: ['Start free'], captionBy: 'rules' },
  ],
};

describe('the narration script', () => {
  it('says one line per beat in the page’s words, whole: the uncut heading where the caption had to cut it', () => {
    const lines = writeNarrationScript(story);
    assert.deepEqual(lines.map((line) => line.text), [
      'Plan, track and ship work your whole team can see.',
      'Simple pricing that scales with you: $0 to $29.',
      'Frequently asked questions.',
      'Start free.',
    ]);
    assert.deepEqual(lines.map((line) => line.stepLabel), [null, 'Show "Pricing"', 'Show "FAQ"', 'Click "Start free"']);
    assert.ok(lines.every((line) => line.by === 'rules'));
  });

  it('prefers the model’s caption (in the page’s language, checked) to the rules’ words', () => {
    const french: StoryText = { ...story, language: 'fr', beats: [{ ...story.beats[1]!, caption: ['Des tarifs simples : de 0 $ à 29 $'], captionBy: 'model' }] };
    assert.deepEqual(writeNarrationScript(french).map((line) => line.text), ['Des tarifs simples : de 0 $ à 29 $.']);
  });

  it('never says a broken sentence: a stored story with only cut words is said up to its last whole clause', () => {
    const old: StoryText = { ...story, beats: [{ kind: 'opening', stepLabel: null, sectionId: null, title: 'Acme — ship faster, plan better, and never miss…', caption: null }] };
    assert.deepEqual(writeNarrationScript(old).map((line) => line.text), ['Acme — ship faster, plan better.']);
    const hopeless: StoryText = { ...story, beats: [{ kind: 'opening', stepLabel: null, sectionId: null, title: 'Ship work your whole team…', caption: null }] };
    assert.deepEqual(writeNarrationScript(hopeless), [], 'nothing rather than half a sentence');
  });

  it('keeps the user’s edited lines for their beats, and says nothing where they emptied one', () => {
    const lines = writeNarrationScript(story, [
      { beatTitle: 'Simple pricing that scales with you', stepLabel: null, text: 'Three plans, from free', by: 'user' },
      { beatTitle: 'Frequently asked questions', stepLabel: null, text: '  ', by: 'user' },
    ]);
    assert.deepEqual(lines.map((line) => [line.text, line.by]), [
      ['Plan, track and ship work your whole team can see.', 'rules'],
      ['Three plans, from free.', 'user'],
      ['Start free.', 'rules'],
    ]);
    assert.equal(lines[1]!.stepLabel, 'Show "Pricing"', 'the beat’s step, not the edit’s');
  });

  it('ends a line as a sentence and keeps it short enough to be two caption lines', () => {
    assert.equal(asSpoken('Pricing: $9 to $49'), 'Pricing: $9 to $49.');
    assert.equal(asSpoken('Ready to see your work clearly?'), 'Ready to see your work clearly?');
    const long = asSpoken('Everything you need to go from idea to release, with roadmaps, boards, docs and reports that the whole team reads every day');
    assert.ok(long.length <= 84, long);
    assert.equal(long, 'Everything you need to go from idea to release, with roadmaps, boards.');
  });

  it('after a refresh that changed the page, rewrites only the lines of the chapters that changed', () => {
    const edits = [
      { beatTitle: 'Simple pricing that scales with you', stepLabel: null, text: 'Three plans, from free', by: 'user' as const },
      { beatTitle: 'Frequently asked questions', stepLabel: null, text: 'Answers to what teams ask', by: 'user' as const },
    ];
    // The page now: the hero's heading changed, the FAQ is gone, pricing is as it was.
    const refreshed: StoryText = {
      ...story,
      beats: [
        { ...story.beats[0]!, spoken: 'Plan, track and ship in one place' },
        story.beats[1]!,
        story.beats[3]!,
      ],
    };
    assert.deepEqual(writeNarrationScript(refreshed, edits).map((line) => [line.text, line.by]), [
      ['Plan, track and ship in one place.', 'rules'],
      ['Three plans, from free.', 'user'],
      ['Start free.', 'rules'],
    ]);
  });
});
