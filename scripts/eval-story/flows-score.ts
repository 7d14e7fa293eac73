import type { FlowRun } from './flows-set.js';
import type { VideoReading } from './ocr-video.js';

/**
 * How a flow is judged from its finished video (issue 56, ../shared/EVAL.md "Flows"): it passes when the final
 * page's or state's heading stays readable ≥ 3 s in one stretch AND every value the prompt names is read in at
 * least one frame. Pure, so the rule and the diff against the last run are tested without a recording.
 */

export const HEADING_SECONDS = 3;

export interface FlowResult {
  site: string;
  prompt: string;
  batch: string;
  finalUrl: string;
  heading: string;
  crossesPage: boolean;
  typesValues: boolean;
  pass: boolean;
  /** the heading's longest readable stretch, seconds (0 when never read, or not recorded) */
  headingS: number;
  valuesSeen: string[];
  valuesMissing: string[];
  /** why the case was not recorded (the CLI failed), when it was not */
  error?: string;
  template?: string;
  steps?: number;
  wallS?: number;
}

export function scoreFlow(run: FlowRun, reading: VideoReading): Pick<FlowResult, 'pass' | 'headingS' | 'valuesSeen' | 'valuesMissing'> {
  const byText = new Map(reading.texts.map((t) => [t.text, t]));
  const headingS = byText.get(run.heading)?.longestS ?? 0;
  const valuesSeen = run.values.filter((value) => byText.get(value)?.seen === true);
  const valuesMissing = run.values.filter((value) => !valuesSeen.includes(value));
  return { pass: headingS >= HEADING_SECONDS && valuesMissing.length === 0, headingS: Math.round(headingS * 10) / 10, valuesSeen, valuesMissing };
}

/** A case that could not be recorded is a miss that says why. */
export function unrecorded(run: FlowRun, error: string): FlowResult {
  return { ...identity(run), pass: false, headingS: 0, valuesSeen: [], valuesMissing: [...run.values], error };
}

export function identity(run: FlowRun): Pick<FlowResult, 'site' | 'prompt' | 'batch' | 'finalUrl' | 'heading' | 'crossesPage' | 'typesValues'> {
  return { site: run.site, prompt: run.prompt, batch: run.batch, finalUrl: run.finalUrl, heading: run.heading, crossesPage: run.crossesPage, typesValues: run.values.length > 0 };
}

export function caseLine(r: FlowResult): string {
  const mark = r.pass ? 'PASS' : 'FAIL';
  const values = r.valuesSeen.length + r.valuesMissing.length === 0 ? 'no values' : `values ${r.valuesSeen.length}/${r.valuesSeen.length + r.valuesMissing.length}${r.valuesMissing.length > 0 ? ` (missing: ${r.valuesMissing.map((v) => JSON.stringify(v)).join(', ')})` : ''}`;
  const how = r.error ? `not recorded: ${r.error}` : `${r.template ?? '?'}, ${r.steps ?? '?'} steps`;
  return `${mark} ${r.headingS.toFixed(1).padStart(4)} s  ${r.site.padEnd(18)} ${JSON.stringify(r.prompt)} → ${r.finalUrl} "${r.heading}", ${values} [${how}]`;
}

export function summaryLines(results: FlowResult[]): string[] {
  const count = (list: FlowResult[]) => `${list.filter((r) => r.pass).length}/${list.length}`;
  const pct = (list: FlowResult[]) => `${Math.round((100 * list.filter((r) => r.pass).length) / Math.max(1, list.length))}%`;
  const crossing = results.filter((r) => r.crossesPage);
  const typing = results.filter((r) => r.typesValues);
  const headingOnly = results.filter((r) => r.headingS >= HEADING_SECONDS);
  return [
    `flows: ${count(results)} (${pct(results)}) pass (final heading ≥ ${HEADING_SECONDS} s and every named value seen)`,
    `  crossing a page: ${count(crossing)}; typing named values: ${count(typing)}; the rest: ${count(results.filter((r) => !r.crossesPage && !r.typesValues))}`,
    `  final heading ≥ ${HEADING_SECONDS} s whatever the values: ${headingOnly.length}/${results.length}; values all seen: ${typing.filter((r) => r.valuesMissing.length === 0).length}/${typing.length}`,
    ...(results.some((r) => r.error) ? [`  not recorded: ${results.filter((r) => r.error).length}`] : []),
  ];
}

function key(r: { site: string; prompt: string }): string {
  return `${r.site}\u0000${r.prompt}`;
}

/** Per case, what changed since the last run: pass/fail, the heading by ≥ 0.5 s, a value seen or lost. */
export function diffLines(results: FlowResult[], previous: FlowResult[]): string[] {
  const before = new Map(previous.map((r) => [key(r), r]));
  const lines: string[] = [];
  for (const r of results) {
    const old = before.get(key(r));
    if (!old) {
      lines.push(`  new${' '.repeat(24)}${r.site} ${JSON.stringify(r.prompt)}`);
      continue;
    }
    const gained = r.valuesSeen.filter((v) => !old.valuesSeen.includes(v));
    const lost = old.valuesSeen.filter((v) => !r.valuesSeen.includes(v));
    if (old.pass === r.pass && Math.abs(old.headingS - r.headingS) < 0.5 && gained.length + lost.length === 0) continue;
    const verdict = old.pass === r.pass ? '' : r.pass ? '  FIXED' : '  BROKEN';
    const values = [...gained.map((v) => `+${JSON.stringify(v)}`), ...lost.map((v) => `-${JSON.stringify(v)}`)].join(' ');
    lines.push(`  ${`${old.headingS.toFixed(1)} → ${r.headingS.toFixed(1)} s${verdict}`.padEnd(26)} ${r.site} ${JSON.stringify(r.prompt)}${values ? ` values ${values}` : ''}`);
  }
  return [`Against the last run: ${lines.length} case(s) changed`, ...lines];
}
