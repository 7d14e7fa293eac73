/**
 * What a bench:render run costs, from /proc: CPU seconds and peak resident memory of this process's whole tree
 * (node, Chromium's processes, every ffmpeg), by stage and by kind of process. A benchmark helper, not a test.
 *
 * CPU: a process's utime + stime, plus cutime + cstime (its children that exited and were reaped: Chromium reaps
 * its renderers, node reaps ffmpeg). Summed over this process and its living descendants, that counts every CPU
 * second the tree has spent so far, without waiting for anything to exit; a process that exits between two samples
 * moves its figure from its own line into its parent's cutime, so the sum does not jump. Processes that leave the
 * tree unreaped (Chromium's helpers on close) would take theirs away: the figure is kept monotonic instead. Unlike wall time it hardly
 * moves when other people load the machine, which is why the bench reports it.
 *
 * Memory: the sum of VmRSS over the tree (an upper bound, as pages shared between Chromium's processes count once
 * per process), sampled every 100 ms; a peak per stage (reset by `stage()`) and overall.
 *
 * By kind: the last CPU figure seen of each descendant, grouped by what it is (Chromium, the capture's muxer, the
 * compositor, the GIF encoder, other ffmpeg runs such as probes and cut detection). A process that lives less than
 * one sampling interval is missed there (not in the totals).
 */
import { readdirSync, readFileSync } from 'node:fs';

const TICKS_PER_SECOND = 100;

export type ProcessKind = 'node' | 'chromium' | 'muxer' | 'compositor' | 'gif' | 'ffmpeg-other';

interface ProcInfo {
  ppid: number;
  /** utime + stime, in seconds */
  ownS: number;
  /** cutime + cstime, in seconds */
  reapedS: number;
  rssKb: number;
}

const PAGE_KB = 4;

/**
 * One process's figures from /proc/<pid>/stat alone, read synchronously: the sampler reads every process on the
 * machine ten times a second, and async reads of two files each cost node ~0.3 CPU-s per second of its own (seen
 * as 4.7 CPU-s of "node" in a compose stage), which is the kind of figure this is meant to measure, not make.
 */
function readProc(pid: number, file = `/proc/${pid}/stat`): ProcInfo | null {
  let stat: string;
  try {
    stat = readFileSync(file, 'utf8');
  } catch {
    return null;
  }
  // After the command name in parentheses (which may hold spaces): state, ppid, … utime stime cutime cstime (14–17),
  // … rss in pages (24).
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const n = (i: number) => Number(fields[i] ?? 0);
  return { ppid: n(1), ownS: (n(11) + n(12)) / TICKS_PER_SECOND, reapedS: (n(13) + n(14)) / TICKS_PER_SECOND, rssKb: n(21) * PAGE_KB };
}

function kindOf(pid: number): ProcessKind {
  if (pid === process.pid) return 'node';
  let cmdline: string[];
  try {
    cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
  } catch {
    cmdline = [];
  }
  const exe = cmdline[0] ?? '';
  if (!/ffmpeg/.test(exe)) return /chrom|headless/i.test(exe) ? 'chromium' : 'ffmpeg-other';
  if (cmdline.includes('-filter_complex_script')) return 'compositor';
  if (cmdline.includes('gif')) return 'gif';
  // The capture's muxer, and the decoder of its small frames beside it (small-frames.ts).
  if (cmdline.includes('image2pipe') && (cmdline.includes('matroska') || cmdline.includes('yuv4mpegpipe'))) return 'muxer';
  return 'ffmpeg-other';
}

/** A Chromium process's role: `browser` without --type, else its --type (renderer, utility…); null once it is gone. */
function chromiumRole(pid: number): string | null {
  try {
    // Chromium's child processes rewrite their command line as one string, arguments and all.
    return /--type=([\w-]+)/.exec(readFileSync(`/proc/${pid}/cmdline`, 'utf8'))?.[1] ?? 'browser';
  } catch {
    return null;
  }
}

function threadName(pid: number, tid: string): string {
  try {
    return readFileSync(`/proc/${pid}/task/${tid}/comm`, 'utf8').trim();
  } catch {
    return '';
  }
}

/** What a Chromium thread does, from its name: the display compositor (viz) draws every frame, in software here. */
function threadGroup(name: string, isMain: boolean): string {
  if (isMain) return 'main';
  if (name.startsWith('VizCompositor')) return 'display compositor';
  if (name.startsWith('ThreadPool')) return 'thread pool';
  if (name === 'Compositor') return 'compositor';
  if (name.startsWith('CompositorTile')) return 'raster';
  if (/IOThread|ChildIOT|DevToolsPipe/.test(name)) return 'io';
  return 'other';
}

export interface StageCost {
  stage: string;
  wallS: number;
  cpuS: number;
  peakRssMb: number;
  /** this stage's CPU by kind of process (as CostReport.byKind) */
  byKind: Record<ProcessKind, number>;
}

/**
 * Chromium's CPU by process and thread, at one moment: which part of the browser spends it. Threads are named by the
 * kernel's 15-character `comm` (VizCompositorTh, ThreadPoolForeg…), grouped into what they do; `exited` is what the
 * process spent in threads no longer alive (its own figure less its living threads').
 */
export interface ChromiumThreads {
  /** `browser` (the display compositor and the GPU run in it: --in-process-gpu), `renderer`, or another --type */
  process: string;
  /** CPU seconds by group of threads: main, display compositor, thread pool, compositor, raster, io, other, exited */
  byGroup: Record<string, number>;
}

export interface CostReport {
  stages: StageCost[];
  /** CPU seconds by kind of process (last sample of each; short-lived processes missed) */
  byKind: Record<ProcessKind, number>;
  peakRssMb: number;
  chromePeakRssMb: number;
}

/**
 * Starts sampling the tree. `stage(name)` closes the stage running since the previous call (or since the start)
 * under `name`; `pause()`/`resume()` leave out a stretch that is not part of the pipeline (the overhead runs).
 */
export function costTracker(intervalMs = 100) {
  const kinds = new Map<number, ProcessKind>();
  const lastCpu = new Map<number, number>();
  /** per process, CPU spent while paused (processes born while paused are left out whole) */
  const excludedCpu = new Map<number, number>();
  const bornPaused = new Set<number>();
  let cpuAtPause = new Map<number, number>();
  const stages: StageCost[] = [];
  let stagePeakKb = 0;
  let peakKb = 0;
  let chromePeakKb = 0;
  let paused = false;
  let highestCpuS = 0;
  let busy: Promise<number> | null = null;
  /**
   * The sampler's own CPU (it runs in node, ten times a second): left out of node's figures, as it is the bench's,
   * not the pipeline's (on a 30 s run ~0.3 CPU-s). And the machine's other processes, once seen outside the tree,
   * are not read again (a process joins the tree only when born into it, under a new pid); forgotten every 10 s, in
   * case a pid is reused.
   */
  let samplerS = 0;
  const outside = new Set<number>();
  let samples = 0;

  /** One sample: the tree's CPU so far (seconds), memory peaks updated. */
  const sampleOnce = async (): Promise<number> => {
    const usageAt = process.cpuUsage();
    if (++samples % Math.max(1, Math.round(10_000 / intervalMs)) === 0) outside.clear();
    const pids = readdirSync('/proc').filter((d) => /^\d+$/.test(d)).map(Number);
    const infos = new Map<number, ProcInfo>();
    for (const pid of pids) {
      if (outside.has(pid)) continue;
      const info = readProc(pid);
      if (info) infos.set(pid, info);
    }
    const inTree = (pid: number): boolean => {
      for (let p = pid, hops = 0; p > 1 && hops < 64; hops++) {
        if (p === process.pid) return true;
        p = infos.get(p)?.ppid ?? 0;
      }
      return false;
    };
    let cpuS = 0;
    let rssKb = 0;
    let chromeKb = 0;
    for (const [pid, info] of infos) {
      if (!inTree(pid)) {
        outside.add(pid);
        continue;
      }
      if (pid === process.pid) info.ownS -= samplerS;
      cpuS += info.ownS + info.reapedS;
      rssKb += info.rssKb;
      if (!kinds.has(pid)) {
        kinds.set(pid, kindOf(pid));
        if (paused) bornPaused.add(pid);
      }
      if (kinds.get(pid) === 'chromium') chromeKb += info.rssKb;
      // By kind, each process's own CPU only: its children are counted under their own pid (kept after they exit).
      lastCpu.set(pid, info.ownS);
    }
    // Monotonic: Chromium's helper processes exit on close without being reaped by anything in the tree (their CPU
    // would drop out of the sum); what the tree has spent never goes down, so the highest figure stands.
    cpuS = Math.max(cpuS, highestCpuS);
    highestCpuS = cpuS;
    const used = process.cpuUsage(usageAt);
    samplerS += (used.user + used.system) / 1e6;
    if (!paused) {
      stagePeakKb = Math.max(stagePeakKb, rssKb);
      peakKb = Math.max(peakKb, rssKb);
      chromePeakKb = Math.max(chromePeakKb, chromeKb);
    }
    return cpuS;
  };
  const sample = async (): Promise<number> => {
    while (busy) await busy.catch(() => 0);
    busy = sampleOnce();
    try {
      return await busy;
    } finally {
      busy = null;
    }
  };

  const timer = setInterval(() => void sample().catch(() => undefined), intervalMs);
  timer.unref();
  let stageStart = { at: performance.now(), cpuS: 0 };
  let pausedCpuS = 0;
  let pausedWallS = 0;
  let pauseStart: { at: number; cpuS: number } | null = null;

  const kindTotals = (): Record<ProcessKind, number> => {
    const totals: Record<ProcessKind, number> = { node: 0, chromium: 0, muxer: 0, compositor: 0, gif: 0, 'ffmpeg-other': 0 };
    for (const [pid, cpuS] of lastCpu) {
      if (!bornPaused.has(pid)) totals[kinds.get(pid) ?? 'ffmpeg-other'] += cpuS - (excludedCpu.get(pid) ?? 0);
    }
    return totals;
  };
  let kindsAtStageStart = kindTotals();
  const started = sample().then((cpuS) => {
    stageStart = { at: performance.now(), cpuS };
    kindsAtStageStart = kindTotals();
  });

  return {
    ready: () => started,
    async stage(name: string): Promise<StageCost> {
      const cpuS = await sample();
      const at = performance.now();
      const kindsNow = kindTotals();
      const byKind = Object.fromEntries(Object.entries(kindsNow).map(([kind, total]) => [kind, total - kindsAtStageStart[kind as ProcessKind]])) as Record<ProcessKind, number>;
      kindsAtStageStart = kindsNow;
      const cost = {
        stage: name,
        byKind,
        wallS: (at - stageStart.at) / 1000 - pausedWallS,
        cpuS: cpuS - stageStart.cpuS - pausedCpuS,
        peakRssMb: stagePeakKb / 1024,
      };
      stages.push(cost);
      stageStart = { at, cpuS };
      stagePeakKb = 0;
      pausedCpuS = 0;
      pausedWallS = 0;
      return cost;
    },
    async pause(): Promise<void> {
      const cpuS = await sample();
      cpuAtPause = new Map(lastCpu);
      paused = true;
      pauseStart = { at: performance.now(), cpuS };
    },
    async resume(): Promise<void> {
      const cpuS = await sample();
      paused = false;
      for (const [pid, cpu] of lastCpu) {
        const before = cpuAtPause.get(pid);
        if (before !== undefined) excludedCpu.set(pid, (excludedCpu.get(pid) ?? 0) + cpu - before);
      }
      if (pauseStart) {
        pausedCpuS += cpuS - pauseStart.cpuS;
        pausedWallS += (performance.now() - pauseStart.at) / 1000;
      }
      pauseStart = null;
    },
    /** Chromium's CPU so far by process role and group of threads (read once, from every living Chromium process). */
    chromiumThreads(): ChromiumThreads[] {
      const byRole = new Map<string, Record<string, number>>();
      for (const [pid, kind] of kinds) {
        if (kind !== 'chromium') continue;
        const role = chromiumRole(pid);
        const own = readProc(pid);
        if (!role || !own) continue;
        const groups = byRole.get(role) ?? {};
        let threadsS = 0;
        let tids: string[] = [];
        try {
          tids = readdirSync(`/proc/${pid}/task`);
        } catch {
          // gone meanwhile
        }
        for (const tid of tids) {
          const info = readProc(Number(tid), `/proc/${pid}/task/${tid}/stat`);
          if (!info) continue;
          const group = threadGroup(threadName(pid, tid), tid === String(pid));
          groups[group] = (groups[group] ?? 0) + info.ownS;
          threadsS += info.ownS;
        }
        groups.exited = (groups.exited ?? 0) + Math.max(0, own.ownS - threadsS);
        byRole.set(role, groups);
      }
      return [...byRole].map(([process, byGroup]) => ({ process, byGroup }));
    },
    async stop(): Promise<CostReport> {
      clearInterval(timer);
      await sample();
      return { stages, byKind: kindTotals(), peakRssMb: peakKb / 1024, chromePeakRssMb: chromePeakKb / 1024 };
    },
  };
}
