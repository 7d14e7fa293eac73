import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { beatDiffLines, beatLines, figuresOf, groupsOf, passesEveryBeat } from '../../scripts/eval-story/beats.js';
import { realCases } from '../../scripts/eval-story/real-set.js';

const key = (r: { site: string; prompt: string }) => `${r.site} ${r.prompt}`;

describe('the story evaluation, beat by beat', () => {
  it('passes a two-part case on every beat only when its first heading reads 2.5 s and its last 3 s', () => {
    const twoPart = { site: 'shop', prompt: 'Show the reviews, then end on the prices', twoPart: true, firstHeading: 'Reviews', longestS: 4 };
    assert.equal(passesEveryBeat({ ...twoPart, firstLongestS: 2.6 }), true);
    assert.equal(passesEveryBeat({ ...twoPart, firstLongestS: 2.4 }), false, 'the first beat passed by in 2.4 s');
    assert.equal(passesEveryBeat({ ...twoPart, firstLongestS: 5, longestS: 2.9 }), false, 'the last beat is short');
    assert.equal(passesEveryBeat({ site: 'shop', prompt: 'Show the prices', longestS: 3 }), true, 'a one-part case is its last beat');
  });

  it('quotes each blind batch apart from the earlier pages, and two-part prompts apart from one-part ones', () => {
    const results = [
      { site: 'old', prompt: 'a', longestS: 5 },
      { site: 'old', prompt: 'b, then c', longestS: 5, twoPart: true },
      { site: 'new', prompt: 'd', longestS: 1.5, batch: 'blind-2' },
      { site: 'new', prompt: 'e, then f', longestS: 3.5, twoPart: true, firstHeading: 'E', firstLongestS: 1, batch: 'blind-2' },
    ];
    assert.deepEqual(groupsOf(results).map((g) => [g.label, g.results.length]), [['blind batch blind-2', 2], ['earlier pages', 2]]);
    assert.deepEqual(figuresOf(results), { cases: 4, at1s: 4, at3s: 3, everyBeat: 2 });
    const lines = beatLines(results).join('\n');
    assert.match(lines, /blind batch blind-2: ≥ 1 s 2\/2 \(100%\), ≥ 3 s 1\/2 \(50%\), every beat 0\/2 \(0%\)/);
    assert.match(lines, /two-part: ≥ 1 s 1\/1 \(100%\), ≥ 3 s 1\/1 \(100%\), every beat 0\/1 \(0%\)/);
    assert.match(lines, /earlier pages: .*every beat 2\/2/);
    assert.match(lines, /1 two-part case\(s\) name no first heading/);
    assert.match(lines, /first beat short: new "E" 1\.0 s/);
  });

  it('names a case whose every-beat verdict changed against the last run, though its last beat did not move', () => {
    const before = [{ site: 'new', prompt: 'e, then f', longestS: 3.5, twoPart: true, firstHeading: 'E', firstLongestS: 1 }];
    const after = [{ ...before[0]!, firstLongestS: 3 }];
    const lines = beatDiffLines(after, before, key);
    assert.equal(lines.length, 1);
    assert.match(lines[0]!, /every beat FIXED  first 1\.0 s, last 3\.5 s → first 3\.0 s, last 3\.5 s {2}new/);
    assert.deepEqual(beatDiffLines(after, after, key), []);
  });

  it('every two-part case of a blind batch names its first beat, and the batch has at least 30 cases on 10 pages', () => {
    const blind = realCases().filter((c) => c.batch);
    assert.ok(blind.length >= 30 && new Set(blind.map((c) => c.site)).size >= 10, `${blind.length} cases`);
    for (const c of blind.filter((c) => c.twoPart)) assert.ok(c.firstHeading && c.firstExpect, `${c.site}: "${c.prompt}" names no first heading`);
    assert.ok(blind.every((c) => !/\bhero\b/i.test(c.prompt)), 'no blind prompt aims at the hero');
  });
});
