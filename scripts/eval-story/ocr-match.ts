/**
 * Is a text readable in one OCR'd frame? The matching of ../shared/tools/story-check.mjs (the tool the figures are
 * quoted with, ../shared/EVAL.md), ported so that the flows set scores videos the same way without a tool from
 * outside the repository. Pure: tesseract's TSV in, words and lines out.
 *
 * An expected text's words must appear in reading order in the OCR'd lines. Tolerated: a few edits per long word
 * (none on words of ≤ 3 letters), one word split by OCR in two, two words merged in one, one stray short OCR token
 * (an icon, a bullet) or one dropped short expected word. A match may go on from the end of one line onto its
 * continuation: the next line of the same block (just below, overlapping, similar height) or a fragment on the same
 * baseline just to the right. So a wrapped heading matches, but a menu item and a heading far below never combine.
 */

export interface OcrToken {
  raw: string;
  /** the normalised word (normWords) */
  w: string;
  /** the word with OCR-confusable glyphs folded (fold) */
  f: string;
  conf: number;
  left: number;
  top: number;
  width: number;
  height: number;
}

export interface OcrLine {
  toks: OcrToken[];
  left: number;
  right: number;
  top: number;
  bottom: number;
  /** the median token height */
  h: number;
}

/** Lower-case, accents stripped, apostrophes dropped (let's → lets), every other run of non-alphanumerics a break. */
export function normWords(text: string): string[] {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[\u2018\u2019\u02bc'`´]/g, '')
    .replace(/[^a-z0-9]+/g, ' ')
    .trim()
    .split(' ')
    .filter(Boolean);
}

/** Glyphs OCR confuses (0/o, 1/i/l), folded on both sides before comparing. */
export function fold(word: string): string {
  return word.replace(/0/g, 'o').replace(/[1il]/g, 'l');
}

/** The edit budget of an expected word: short words must match exactly (after folding). */
function allow(word: string): number {
  return word.length <= 3 ? 0 : word.length <= 7 ? 1 : 2;
}

/** Levenshtein distance, or max + 1 as soon as it must exceed max. */
export function lev(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      cur[j] = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (cur[j]! < rowMin) rowMin = cur[j]!;
    }
    if (rowMin > max) return max + 1;
    prev = cur;
  }
  return prev[b.length]!;
}

/** Tesseract's TSV (word rows, level 5) as lines of tokens, in the frame's own pixels (before the OCR upscale). */
export function parseTsv(tsv: string, scale = 1): OcrLine[] {
  const byLine = new Map<string, OcrToken[]>();
  for (const row of tsv.split('\n').slice(1)) {
    const c = row.split('\t');
    if (c.length < 12 || c[0] !== '5') continue;
    const raw = c.slice(11).join('\t').trim();
    if (!raw) continue;
    const key = c.slice(1, 5).join('.');
    const tokens = byLine.get(key) ?? [];
    byLine.set(key, tokens);
    const box = { conf: Number(c[10]), left: Number(c[6]) / scale, top: Number(c[7]) / scale, width: Number(c[8]) / scale, height: Number(c[9]) / scale };
    for (const w of normWords(raw)) tokens.push({ raw, w, f: fold(w), ...box });
  }
  const lines: OcrLine[] = [];
  for (const toks of byLine.values()) {
    if (toks.length === 0) continue;
    const heights = toks.map((t) => t.height).sort((a, b) => a - b);
    lines.push({
      toks,
      left: Math.min(...toks.map((t) => t.left)),
      right: Math.max(...toks.map((t) => t.left + t.width)),
      top: Math.min(...toks.map((t) => t.top)),
      bottom: Math.max(...toks.map((t) => t.top + t.height)),
      h: Math.max(1, heights[heights.length >> 1]!),
    });
  }
  return lines;
}

/** For each line, the lines a match may continue onto (below in the same block, or to the right on its baseline). */
function continuations(lines: OcrLine[]): number[][] {
  return lines.map((l) =>
    lines.flatMap((m, k) => {
      if (m === l) return [];
      const ratio = m.h / l.h;
      if (ratio < 0.6 || ratio > 1.6) return [];
      const below = m.top > l.top + 0.5 * l.h && m.top - l.bottom <= l.h + 4 && Math.min(l.right, m.right) - Math.max(l.left, m.left) > 0;
      const right = Math.abs(m.top - l.top) <= 0.4 * l.h && m.left >= l.right - 0.5 * l.h && m.left - l.right <= 2.5 * l.h;
      return below || right ? [k] : [];
    }),
  );
}

/** One frame's OCR, with its continuations worked out once. */
export class OcrFrame {
  private cont: number[][] | null = null;
  constructor(readonly lines: OcrLine[]) {}

  /** Whether the text (its words, normWords) is read in this frame. */
  reads(expected: string[]): boolean {
    if (expected.length === 0 || this.lines.length === 0) return false;
    this.cont ??= continuations(this.lines);
    const cont = this.cont;
    const lines = this.lines;
    const m = expected.length;
    const ef = expected.map(fold);
    const tried = new Set<string>();
    // i: expected words matched; li, j: where in the OCR lines; skips: the one stray token or dropped word spent
    const go = (i: number, li: number, j: number, skips: number): boolean => {
      if (i === m) return true;
      const key = `${i}:${li}:${j}:${skips}`;
      if (tried.has(key)) return false;
      tried.add(key);
      const t = lines[li]!.toks;
      const budget = allow(expected[i]!);
      if (j < t.length) {
        if (lev(ef[i]!, t[j]!.f, budget) <= budget && go(i + 1, li, j + 1, skips)) return true;
        if (j + 1 < t.length && lev(ef[i]!, t[j]!.f + t[j + 1]!.f, budget) <= budget && go(i + 1, li, j + 2, skips)) return true;
        if (i + 1 < m) {
          const both = budget + allow(expected[i + 1]!);
          if (lev(ef[i]! + ef[i + 1]!, t[j]!.f, both) <= both && go(i + 2, li, j + 1, skips)) return true;
        }
        if (i > 0 && skips === 0 && t[j]!.f.length <= 2 && go(i, li, j + 1, 1)) return true;
      } else if (i > 0) {
        for (const k of cont[li]!) if (go(i, k, 0, skips)) return true;
      }
      return i > 0 && i < m - 1 && skips === 0 && expected[i]!.length <= 2 && go(i + 1, li, j, 1);
    };
    for (let li = 0; li < lines.length; li++) {
      for (let j = 0; j < lines[li]!.toks.length; j++) {
        tried.clear();
        if (go(0, li, j, 0)) return true;
      }
    }
    return false;
  }
}

/**
 * The longest stretch a text stayed readable, from the indices of the sampled frames that read it: one missed
 * sample inside a run is OCR flicker, not a gap.
 */
export function longestRunS(hits: number[], fps: number): number {
  let longest = 0;
  let start: number | null = null;
  let previous: number | null = null;
  for (const i of hits) {
    if (previous === null || i - previous > 2) {
      if (start !== null && previous !== null) longest = Math.max(longest, (previous - start + 1) / fps);
      start = i;
    }
    previous = i;
  }
  if (start !== null && previous !== null) longest = Math.max(longest, (previous - start + 1) / fps);
  return longest;
}
