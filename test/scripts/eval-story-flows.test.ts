import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { diffLines, scoreFlow, type FlowResult } from '../../scripts/eval-story/flows-score.js';
import { flowRuns, flowSites, type FlowRun } from '../../scripts/eval-story/flows-set.js';
import { longestRunS, normWords, OcrFrame, parseTsv } from '../../scripts/eval-story/ocr-match.js';
import type { VideoReading } from '../../scripts/eval-story/ocr-video.js';

/** Tesseract's TSV for words laid out as [line id, left, top, height, text] (width from the text's length). */
function tsv(words: Array<[string, number, number, number, string]>): string {
  const header = 'level\tpage_num\tblock_num\tpar_num\tline_num\tword_num\tleft\ttop\twidth\theight\tconf\ttext';
  const rows = words.map(([line, left, top, height, text], i) => {
    const [block, par, ln] = line.split('.');
    return ['5', '1', block, par, ln, String(i + 1), String(left), String(top), String(text.length * height * 0.6), String(height), '95', text].join('\t');
  });
  return [header, ...rows].join('\n');
}

const read = (frame: OcrFrame, text: string) => frame.reads(normWords(text));

describe('the flows evaluation', () => {
  describe('reading a frame (the matching of story-check.mjs)', () => {
    it('reads a heading wrapped over two lines of one block, and an e-mail typed in a field', () => {
      const frame = new OcrFrame(parseTsv(tsv([
        ['1.1.1', 100, 100, 30, 'Go'], ['1.1.1', 150, 100, 30, 'from'], ['1.1.1', 250, 100, 30, 'pricing'],
        ['1.1.2', 100, 140, 30, 'to'], ['1.1.2', 150, 140, 30, 'the'], ['1.1.2', 230, 140, 30, 'form'],
        ['2.1.1', 400, 500, 16, 'dana@example.com'],
      ])));
      assert.equal(read(frame, 'Go from pricing to the form'), true);
      assert.equal(read(frame, 'dana@example.com'), true);
      assert.equal(read(frame, 'alex@example.com'), false);
    });

    it('forgives OCR slips on long words (0 for o, one wrong letter) but not on short ones', () => {
      const frame = new OcrFrame(parseTsv(tsv([['1.1.1', 100, 100, 30, 'Welc0me'], ['1.1.1', 260, 100, 30, 'Back!'], ['2.1.1', 100, 400, 20, 'Lea']])));
      assert.equal(read(frame, 'Welcome Back!'), true);
      assert.equal(read(frame, 'Lee'), false);
    });

    it('never joins a menu item to a heading far below it', () => {
      const frame = new OcrFrame(parseTsv(tsv([['1.1.1', 100, 20, 14, 'Contact'], ['2.1.1', 100, 600, 40, 'Me']])));
      assert.equal(read(frame, 'Contact Me'), false);
    });

    it('counts one missed sample inside a run as flicker, and two as a gap', () => {
      assert.equal(longestRunS([0, 1, 2, 4, 5], 2), 3);
      assert.equal(longestRunS([0, 1, 2, 5, 6], 2), 1.5);
      assert.equal(longestRunS([], 2), 0);
    });
  });

  describe('the verdict', () => {
    const run: FlowRun = { site: 'sb-admin-2', batch: 'b', startPath: 'index.html', number: 1, prompt: 'Sign in as dana@example.com', finalUrl: 'login.html', heading: 'Welcome Back!', values: ['dana@example.com'], crossesPage: true };
    const reading = (headingS: number, valueSeen: boolean): VideoReading => ({
      frames: 60, blankFrames: 0,
      texts: [
        { text: 'Welcome Back!', seen: headingS > 0, longestS: headingS, firstSeenS: headingS > 0 ? 20 : null },
        { text: 'dana@example.com', seen: valueSeen, longestS: valueSeen ? 1 : 0, firstSeenS: valueSeen ? 22 : null },
      ],
    });

    it('passes a flow whose final heading is readable ≥ 3 s and whose every named value was seen typed', () => {
      assert.deepEqual(scoreFlow(run, reading(3.5, true)), { pass: true, headingS: 3.5, valuesSeen: ['dana@example.com'], valuesMissing: [] });
    });

    it('fails it when the heading is read too briefly, or a value never shows', () => {
      assert.equal(scoreFlow(run, reading(2.5, true)).pass, false);
      assert.deepEqual(scoreFlow(run, reading(8, false)), { pass: false, headingS: 8, valuesSeen: [], valuesMissing: ['dana@example.com'] });
    });

    it('says per case what changed since the last run', () => {
      const result = (pass: boolean, headingS: number, valuesSeen: string[]): FlowResult => ({
        site: 'sb-admin-2', prompt: run.prompt, batch: 'b', finalUrl: 'login.html', heading: 'Welcome Back!', crossesPage: true, typesValues: true,
        pass, headingS, valuesSeen, valuesMissing: ['dana@example.com'].filter((v) => !valuesSeen.includes(v)),
      });
      const lines = diffLines([result(true, 4, ['dana@example.com'])], [result(false, 0, [])]);
      assert.equal(lines[0], 'Against the last run: 1 case(s) changed');
      assert.match(lines[1]!, /0\.0 → 4\.0 s {2}FIXED .*sb-admin-2 .* values \+"dana@example\.com"/);
      assert.deepEqual(diffLines([result(false, 0, [])], [result(false, 0.2, [])]), ['Against the last run: 0 case(s) changed']);
    });
  });

  describe('the set', () => {
    it('holds at least 8 sites and 24 cases, at least half crossing a page and a third typing named values', () => {
      const sites = flowSites().filter((s) => !s.retired);
      const runs = flowRuns(sites);
      assert.ok(sites.length >= 8, `${sites.length} sites`);
      assert.ok(runs.length >= 24, `${runs.length} cases`);
      assert.ok(runs.filter((r) => r.crossesPage).length * 2 >= runs.length);
      assert.ok(runs.filter((r) => r.values.length > 0).length * 3 >= runs.length);
      for (const site of sites) {
        assert.equal(site.cases.length, 3, site.name);
        assert.match(site.commit, /^[0-9a-f]{40}$/, site.name);
        for (const c of site.cases) {
          assert.ok(c.heading.trim() && c.finalUrl && !c.finalUrl.startsWith('/'), `${site.name}: ${c.prompt}`);
          // a value is something the prompt names, so it is in the prompt (in its words)
          for (const value of c.values) assert.ok(normWords(c.prompt).join(' ').includes(normWords(value).join(' ')), `${site.name}: ${value}`);
        }
      }
    });
  });
});
