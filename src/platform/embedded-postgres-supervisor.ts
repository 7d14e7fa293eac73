import type { ChildProcess } from 'node:child_process';
import type { Logger } from './logger.js';

/**
 * Keeps the embedded PostgreSQL running: when its postmaster dies (killed, OOM-killed, crashed), it is started
 * again on the same data dir and port, after a backoff that doubles with each failed attempt (a cluster that
 * cannot start, say its shared memory still held by dying backends, is not retried in a tight loop). PostgreSQL
 * runs its crash recovery on the way up. Meanwhile the API answers 503 with Retry-After (src/http/errors.ts), and
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
}

export interface RestartPolicy {
  firstDelayMs: number;
  maxDelayMs: number;
  /** Up this long, the cluster counts as healthy again: the next crash starts from firstDelayMs. */
  stableAfterMs: number;
}

export const DEFAULT_RESTART_POLICY: RestartPolicy = { firstDelayMs: 250, maxDelayMs: 30_000, stableAfterMs: 60_000 };

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
      if (Date.now() - upSince >= policy.stableAfterMs) attempts = 0;
      logger?.error({ pid: child.pid, code, signal }, 'the embedded PostgreSQL stopped unexpectedly; restarting it');
      scheduleRestart();
    });
  };

  const scheduleRestart = () => {
    const delayMs = Math.min(policy.firstDelayMs * 2 ** attempts, policy.maxDelayMs);
    attempts++;
    logger?.warn({ attempt: attempts, delayMs }, 'restarting the embedded PostgreSQL');
    timer = setTimeout(() => {
      timer = null;
      if (stopping) return;
      starting = cluster.start().then(
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
