import type { ChildProcess } from 'node:child_process';
import type { Logger } from './logger.js';

/**
 * Keeps the embedded PostgreSQL running: when its postmaster dies (killed, OOM-killed, crashed), the backends it
 * left behind are ended (they hold its shared memory, and no new postmaster starts until they are gone: see
 * orphaned-backends.ts), and it is started again on the same data dir and port, at once (100 ms) and then after a
 * backoff that doubles with each failed attempt (a cluster that cannot start is not retried in a tight loop).
 * PostgreSQL runs its crash recovery on the way up. Meanwhile the API answers 503 with Retry-After (src/http/errors.ts), and
 * the pools reconnect by themselves on the next query: postgres.js opens connections per query, its LISTEN
 * connection listens again on reconnect, graphile-worker's pg pool and listener retry on their own.
 *
 * Only the process that started the cluster supervises it: another process sharing the data dir only connects.
 */
export interface SupervisedCluster {
  /** Starts the postmaster again (same settings); resolves once it accepts connections. */
  start(): Promise<void>;
  /** The running postmaster, whose exit is watched. */
  child(): ChildProcess | undefined;
  /** The cluster's last log lines, said when a restart fails. */
  recentLog(): string[];
  /** Clears what the dead postmaster left behind before each start; resolves with a count to log. */
  beforeRestart?(): Promise<number>;
  /** Called when the postmaster has died unexpectedly, before anything else. */
  died?(): void;
}

export interface RestartPolicy {
  firstDelayMs: number;
  maxDelayMs: number;
  /** Up this long, the cluster counts as healthy again: the next crash starts from firstDelayMs. */
  stableAfterMs: number;
}

// The first attempt comes 100 ms after the exit: with the orphaned backends ended it starts (issue 58: the database
// was down 3 s after a kill -9, through attempts at 250 ms, 750 ms and 1.75 s failing on backends still running).
export const DEFAULT_RESTART_POLICY: RestartPolicy = { firstDelayMs: 100, maxDelayMs: 30_000, stableAfterMs: 60_000 };

export interface Supervisor {
  /** Stops watching, waiting for a restart under way to finish, so that the caller can stop the cluster. */
  stop(): Promise<void>;
}

export function superviseCluster(cluster: SupervisedCluster, logger: Logger | undefined, policy: RestartPolicy = DEFAULT_RESTART_POLICY): Supervisor {
  let stopping = false;
  let attempts = 0;
  let upSince = Date.now();
  let timer: NodeJS.Timeout | null = null;
  let starting: Promise<void> | null = null;

  const watch = () => {
    const child = cluster.child();
    if (!child) return;
    child.once('exit', (code, signal) => {
      if (stopping) return;
      cluster.died?.();
      if (Date.now() - upSince >= policy.stableAfterMs) attempts = 0;
      logger?.error({ pid: child.pid, code, signal }, 'the embedded PostgreSQL stopped unexpectedly; restarting it');
      scheduleRestart();
    });
  };

  const clearAndStart = async () => {
    try {
      const ended = (await cluster.beforeRestart?.()) ?? 0;
      if (ended > 0) logger?.warn({ backends: ended }, 'ended the backends the dead postmaster left running');
    } catch (error) {
      // The start below then fails as it would have, and is tried again later.
      logger?.warn({ err: error }, "could not end the dead postmaster's backends");
    }
    await cluster.start();
  };

  const scheduleRestart = () => {
    const delayMs = Math.min(policy.firstDelayMs * 2 ** attempts, policy.maxDelayMs);
    attempts++;
    logger?.warn({ attempt: attempts, delayMs }, 'restarting the embedded PostgreSQL');
    timer = setTimeout(() => {
      timer = null;
      if (stopping) return;
      starting = clearAndStart().then(
        () => {
          upSince = Date.now();
          logger?.info({ attempt: attempts, pid: cluster.child()?.pid }, 'the embedded PostgreSQL is running again');
          watch();
        },
        (error: unknown) => {
          logger?.error({ err: error, attempt: attempts, postgres: cluster.recentLog() }, 'the embedded PostgreSQL did not start again');
          if (!stopping) scheduleRestart();
        },
      );
      void starting.finally(() => (starting = null));
    }, delayMs);
  };

  watch();
  return {
    async stop() {
      stopping = true;
      if (timer) clearTimeout(timer);
      await starting;
    },
  };
}
