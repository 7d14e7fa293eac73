/**
 * Every beat counts (issue 55): a two-part prompt ("show X, then end on Y") passes the "every beat" measure when its
 * first beat's heading is readable ≥ 2.5 s and its last beat's ≥ 3 s; a one-part prompt when its heading is readable
 * ≥ 3 s. The ≥ 3 s figure on the last heading alone stays as it was, printed beside this one.
 *
 * And the real set is read in groups: each blind batch (pages whose prompts were committed before the planner or the
 * eval saw them) apart from the pages before them, whose misses may have been fixed by rules written after seeing
 * them; within each, two-part prompts apart from one-part ones.
 */

export const FIRST_BEAT_S = 2.5;
export const LAST_BEAT_S = 3;

export interface BeatResult {
  site: string;
  prompt: string;
  longestS: number;
  twoPart?: boolean;
  firstHeading?: string;
  /** the first beat's heading's longest readable stretch; undefined when the case names no first heading */
  firstLongestS?: number;
  batch?: string;
}

/** A case whose first beat has no heading in its manifest (written before the field existed) is judged on its last. */
export function passesEveryBeat(r: BeatResult): boolean {
  return r.longestS >= LAST_BEAT_S && (r.firstLongestS === undefined || r.firstLongestS >= FIRST_BEAT_S);
}

export interface Figures {
  cases: number;
  at1s: number;
  at3s: number;
  everyBeat: number;
}

export function figuresOf(results: BeatResult[]): Figures {
  return {
    cases: results.length,
    at1s: results.filter((r) => r.longestS >= 1).length,
    at3s: results.filter((r) => r.longestS >= LAST_BEAT_S).length,
    everyBeat: results.filter(passesEveryBeat).length,
  };
}

const EARLIER = 'earlier pages';

/** The groups the report quotes apart: each blind batch by name (oldest first), then the pages that came before. */
export function groupsOf<R extends BeatResult>(results: R[]): Array<{ label: string; results: R[] }> {
  const batches = [...new Set(results.map((r) => r.batch).filter((b): b is string => b !== undefined))].sort();
  const groups = batches.map((batch) => ({ label: `blind batch ${batch}`, results: results.filter((r) => r.batch === batch) }));
  const earlier = results.filter((r) => r.batch === undefined);
  if (earlier.length > 0 && groups.length > 0) groups.push({ label: EARLIER, results: earlier });
  return groups;
}

function figureText(f: Figures): string {
  const of = (n: number) => `${n}/${f.cases} (${((n / Math.max(1, f.cases)) * 100).toFixed(0)}%)`;
  return `≥ 1 s ${of(f.at1s)}, ≥ 3 s ${of(f.at3s)}, every beat ${of(f.everyBeat)}`;
}

/**
 * The lines that read the set by beats and by batch: the whole set's every-beat figure, then each group (when there
 * are blind batches) with its two-part and one-part prompts apart. Empty for a set with no two-part or batched case.
 */
export function beatLines(results: BeatResult[]): string[] {
  const twoPart = results.filter((r) => r.twoPart);
  if (twoPart.length === 0 && !results.some((r) => r.batch)) return [];
  const lines = [`Every beat (the first beat's heading ≥ ${FIRST_BEAT_S} s and the last's ≥ ${LAST_BEAT_S} s): ${figuresOf(results).everyBeat}/${results.length}`];
  const unnamed = twoPart.filter((r) => r.firstHeading === undefined).length;
  if (unnamed > 0) lines.push(`  (${unnamed} two-part case(s) name no first heading and are judged on their last beat only)`);
  const groups = groupsOf(results);
  for (const group of groups.length > 0 ? groups : [{ label: 'all', results }]) {
    lines.push(`  ${group.label}: ${figureText(figuresOf(group.results))}`);
    const parts = [
      { label: 'two-part', results: group.results.filter((r) => r.twoPart) },
      { label: 'one-part', results: group.results.filter((r) => !r.twoPart) },
    ];
    for (const part of parts) if (part.results.length > 0) lines.push(`    ${part.label}: ${figureText(figuresOf(part.results))}`);
  }
  const firstMisses = twoPart.filter((r) => r.firstLongestS !== undefined && r.firstLongestS < FIRST_BEAT_S && r.longestS >= LAST_BEAT_S);
  for (const r of firstMisses) lines.push(`  first beat short: ${r.site} "${r.firstHeading}" ${r.firstLongestS!.toFixed(1)} s (last ${r.longestS.toFixed(1)} s) ${JSON.stringify(r.prompt)}`);
  return lines;
}

/** The cases whose every-beat verdict changed against the last run (the ≥ 3 s diff says nothing of a first beat). */
export function beatDiffLines(results: BeatResult[], previous: BeatResult[], keyOf: (r: BeatResult) => string): string[] {
  const before = new Map(previous.map((r) => [keyOf(r), r]));
  return results.flatMap((r) => {
    const old = before.get(keyOf(r));
    if (!old || passesEveryBeat(old) === passesEveryBeat(r)) return [];
    const first = (x: BeatResult) => (x.firstLongestS === undefined ? '' : `first ${x.firstLongestS.toFixed(1)} s, `);
    return [`  every beat ${passesEveryBeat(r) ? 'FIXED ' : 'BROKEN'} ${first(old)}last ${old.longestS.toFixed(1)} s → ${first(r)}last ${r.longestS.toFixed(1)} s  ${r.site} ${JSON.stringify(r.prompt)}`];
  });
}
