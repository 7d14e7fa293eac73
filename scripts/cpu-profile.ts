/**
 * Where a process's CPU time went, from a V8 `.cpuprofile` (`node --cpu-prof`): the functions with the most self
 * time, optionally only in a time window (µs on the machine's monotonic clock, the clock of
 * `process.hrtime.bigint() / 1000n` in any process on the same machine). Self time does not depend on how busy
 * the machine is, so two runs under different loads compare.
 *
 * `node --import tsx scripts/cpu-profile.ts FILE.cpuprofile [TOP]` prints the summary of a whole profile.
 * bench:api calls `summariseProfile` once per scenario (BENCH_CPU_PROF=DIR).
 */
import fs from 'node:fs/promises';
import path from 'node:path';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}

export interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

export interface ProfileSummary {
  /** sampled CPU time in the window, ms (idle excluded) */
  busyMs: number;
  /** the window's wall time, ms */
  windowMs: number;
  top: Array<{ name: string; selfMs: number; share: number }>;
  /** self time grouped by where the code lives: our src/, a dependency, Node's internals, GC, ... */
  byArea: Array<{ area: string; selfMs: number; share: number }>;
}

const root = path.resolve(import.meta.dirname, '..');

function label(frame: ProfileNode['callFrame']): string {
  const name = frame.functionName || '(anonymous)';
  if (!frame.url) return name;
  const where = frame.url.replace(/^file:\/\//, '').replace(`${root}/`, '').replace(/^.*\/node_modules\//, '');
  return `${name} ${where}:${frame.lineNumber + 1}`;
}

function areaOf(frame: ProfileNode['callFrame']): string {
  const url = frame.url.replace(/^file:\/\//, '');
  if (!url) return frame.functionName.startsWith('(') ? frame.functionName : 'native';
  const pkg = /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url)?.[1];
  if (pkg) return pkg;
  if (url.startsWith('node:')) return 'node:internal';
  if (url.startsWith(`${root}/src/`)) return `src/${url.slice(root.length + 5).split('/')[0]}`;
  return 'other';
}

/** Self time per function (and per area) of the samples taken in [fromUs, toUs). */
export function summariseProfile(profile: CpuProfile, window: { fromUs?: number; toUs?: number } = {}, topN = 15): ProfileSummary {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const from = window.fromUs ?? profile.startTime;
  const to = window.toUs ?? profile.endTime;
  const selfUs = new Map<string, number>();
  const areaUs = new Map<string, number>();
  let busy = 0;
  let at = profile.startTime;
  for (let i = 0; i < profile.samples.length; i++) {
    const delta = profile.timeDeltas[i] ?? 0;
    at += delta;
    if (at < from || at >= to) continue;
    const node = byId.get(profile.samples[i]!);
    if (!node || node.callFrame.functionName === '(idle)') continue;
    // A sample stands for the time since the previous one.
    busy += delta;
    const name = label(node.callFrame);
    selfUs.set(name, (selfUs.get(name) ?? 0) + delta);
    const area = areaOf(node.callFrame);
    areaUs.set(area, (areaUs.get(area) ?? 0) + delta);
  }
  const rank = (map: Map<string, number>, n: number) =>
    [...map].sort((a, b) => b[1] - a[1]).slice(0, n).map(([key, us]) => [key, us / 1000, busy === 0 ? 0 : us / busy] as const);
  return {
    busyMs: busy / 1000,
    windowMs: (to - from) / 1000,
    top: rank(selfUs, topN).map(([name, selfMs, share]) => ({ name, selfMs, share })),
    byArea: rank(areaUs, 12).map(([area, selfMs, share]) => ({ area, selfMs, share })),
  };
}

export function describeSummary(summary: ProfileSummary, requests?: number): string {
  const pct = (share: number) => `${(share * 100).toFixed(1)}%`;
  const perRequest = requests ? `, ${((summary.busyMs / requests) * 1000).toFixed(0)} µs of API CPU per request` : '';
  const lines = [`  API CPU ${(summary.busyMs / 1000).toFixed(1)} s busy of ${(summary.windowMs / 1000).toFixed(1)} s${perRequest}`];
  lines.push(`  by area: ${summary.byArea.map((a) => `${a.area} ${pct(a.share)}`).join(', ')}`);
  for (const entry of summary.top) lines.push(`    ${pct(entry.share).padStart(6)}  ${entry.name}`);
  return lines.join('\n');
}

export async function readProfile(file: string): Promise<CpuProfile> {
  return JSON.parse(await fs.readFile(file, 'utf8')) as CpuProfile;
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  const file = process.argv[2];
  if (!file) {
    console.error('Usage: node --import tsx scripts/cpu-profile.ts FILE.cpuprofile [TOP]');
    process.exit(2);
  }
  console.log(describeSummary(summariseProfile(await readProfile(file), {}, Number(process.argv[3] ?? 25))));
}
