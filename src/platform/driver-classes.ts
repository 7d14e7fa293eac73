import type { Sql } from './database.js';

/**
 * Gives postgres.js's two hot classes, Query (a Promise subclass: every statement) and Result (an Array subclass:
 * every answer), fast properties in V8. Once per process; what it changes is the engine's view of two constructors,
 * nothing the driver does.
 *
 * Both classes have a static `Symbol.species` getter, and V8 (Node 22) keeps the own properties of a class
 * constructor with that getter in a dictionary (a static getter of another name does not do it). TurboFan then
 * compiles every function that constructs one (the driver's `sql`, `unsafe` and `ReadyForQuery`; our statement
 * senders, which inline `sql`) and throws the code away at install ("Bailed out due to dependency change", a
 * StableMapDependency), and tries again as soon as the function is hot: for as long as the process runs.
 * Measured with `--trace-opt` under POST /demos with 32 accounts: 326 aborted compiles, about 2 s of the API
 * process's CPU in one 12 s scenario, on the helper threads beside the main one; in a postgres.js loop of
 * two-statement transactions, 364 aborts and 3.4 s of compiling in 5 s. With the two constructors fast: no
 * aborts, 0.8 s of compiling, and 55,130 transactions instead of 25,460 in those 5 s.
 *
 * A class that extends a constructor makes it a prototype, and V8 gives the prototypes on a chain fast properties
 * when a lookup walks it: defining the subclass already reads the constructor's `prototype`, the missed lookups
 * below make sure (test/platform/driver-classes.test.ts checks that both end up fast).
 */
export async function settleDriverClasses(sql: Sql): Promise<void> {
  const query = sql`select 1 as settled`;
  const result = await query;
  for (const constructor of [query.constructor, result.constructor]) makePrototypeFast(constructor);
}

function makePrototypeFast(constructor: unknown): void {
  if (typeof constructor !== 'function') return;
  class Probe extends (constructor as new (...args: never[]) => object) {}
  const lookUp = (subclass: object) => (subclass as { settled?: unknown }).settled;
  for (let i = 0; i < 4; i++) lookUp(Probe);
}
