import { AsyncLocalStorage } from 'node:async_hooks';
import type { Sql } from './database.js';

/**
 * Per-request accounting of database round trips, for the debug log line of each request (`db: {queries, ms}`):
 * how many statements a request sent and for how long at least one of them was outstanding (parallel statements
 * count once). Installed only when the log level is debug or finer, so that production pays nothing for it.
 */
export interface QueryTiming {
  queries: number;
  /** wall time with at least one statement in flight, ms */
  ms: number;
  inFlight: number;
  since: number;
}

const current = new AsyncLocalStorage<QueryTiming>();

/** Runs `work` with a fresh tally that every statement sent from inside it (through an instrumented pool) adds to. */
export function withQueryTiming<T>(work: (timing: QueryTiming) => T): T {
  const timing: QueryTiming = { queries: 0, ms: 0, inFlight: 0, since: 0 };
  return current.run(timing, work, timing);
}

function started(timing: QueryTiming): void {
  timing.queries++;
  if (timing.inFlight++ === 0) timing.since = performance.now();
}

function finished(timing: QueryTiming): void {
  if (--timing.inFlight === 0) timing.ms += performance.now() - timing.since;
}

/** A statement runs when first awaited (postgres.js queries are lazy): count it then, and stop when it settles. */
function track<T>(query: T): T {
  if (query === null || typeof query !== 'object' || typeof (query as { then?: unknown }).then !== 'function') return query;
  const promise = query as unknown as Promise<unknown> & { then: Promise<unknown>['then'] };
  const then = promise.then;
  let tracked = false;
  promise.then = function (this: Promise<unknown>, onFulfilled, onRejected) {
    const timing = current.getStore();
    if (!tracked && timing) {
      tracked = true;
      started(timing);
      const settle = () => finished(timing);
      then.call(this, settle, settle);
    }
    return then.call(this, onFulfilled, onRejected);
  } as Promise<unknown>['then'];
  return query;
}

/**
 * Wraps a pool so that its statements (tagged templates and `unsafe`, on the pool and in its transactions) are
 * counted. Fragments built with the same tag but never awaited on their own are not statements and do not count.
 */
export function instrumentQueries<S extends Sql>(sql: S): S {
  return wrap(sql) as S;
}

function wrap(target: Sql | ((...args: unknown[]) => unknown)): unknown {
  return new Proxy(target, {
    apply(fn, thisArg, args: unknown[]) {
      return track(Reflect.apply(fn as (...a: unknown[]) => unknown, thisArg, args));
    },
    get(object, property, receiver) {
      const value = Reflect.get(object, property, receiver) as unknown;
      if (typeof value !== 'function') return value;
      if (property === 'unsafe') return (...args: unknown[]) => track((value as (...a: unknown[]) => unknown).apply(object, args));
      // A reserved connection (inTransaction's) runs statements of its own: wrap it as well.
      if (property === 'reserve') return async (...args: unknown[]) => wrap((await (value as (...a: unknown[]) => Promise<Sql>).apply(object, args)) as Sql);
      if (property === 'begin' || property === 'savepoint') {
        return (...args: unknown[]) => {
          const callback = args.at(-1) as (tx: unknown) => unknown;
          return (value as (...a: unknown[]) => unknown).apply(object, [...args.slice(0, -1), (tx: unknown) => callback(wrap(tx as Sql))]);
        };
      }
      return (value as (...a: unknown[]) => unknown).bind(object);
    },
  });
}
