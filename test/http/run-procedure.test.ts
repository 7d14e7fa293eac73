import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { TRPCError } from '@trpc/server';
import { z } from 'zod';
import { runProcedure, type RunnableProcedure } from '../../src/http/run-procedure.js';
import { NotFoundError } from '../../src/platform/errors.js';
import { type Context, createCallerFactory, middleware, publicProcedure, router } from '../../src/platform/trpc.js';

// A router with every kind of level a REST procedure has: a middleware that changes the context, one that only
// passes on, tRPC's input and output parsers and its error formatter, and resolvers that succeed or fail.
const seen: string[] = [];
const withPrincipal = publicProcedure.use(({ ctx, next }) => {
  seen.push('auth');
  if (ctx.requestId === 'no-principal') throw new TRPCError({ code: 'UNAUTHORIZED', message: 'Sign in.' });
  return next({ ctx: { principal: { userId: 'user-1' } as Context['principal'] } });
});
const counted = middleware(async ({ path, type, meta, next }) => {
  seen.push(`count ${type} ${path} ${JSON.stringify(meta)}`);
  return next();
});
const input = z.object({ name: z.string().min(1), size: z.number().default(3) });
const output = z.object({ greeting: z.string(), size: z.number(), user: z.string() });

const testRouter = router({
  things: router({
    make: withPrincipal
      .use(counted)
      .meta({ openapi: { method: 'POST', path: '/things' } })
      .input(input)
      .output(output)
      .mutation(({ ctx, input }) => {
        if (input.name === 'missing') throw new NotFoundError('Thing');
        if (input.name === 'bad-output') return { greeting: 1, size: input.size, user: 'x' } as never;
        return { greeting: `hello ${input.name}`, size: input.size, user: ctx.principal!.userId };
      }),
    read: publicProcedure.query(({ ctx }) => ({ request: ctx.requestId })),
  }),
});

const context = (requestId = 'request-1') => ({ requestId, principal: null }) as unknown as Context;
const procedures = testRouter._def.procedures as unknown as Record<string, RunnableProcedure>;

async function outcome(call: () => Promise<unknown>): Promise<{ data?: unknown; error?: { name: string; code: string; message: string; cause?: string } }> {
  try {
    return { data: await call() };
  } catch (thrown) {
    const error = thrown as TRPCError;
    return { error: { name: error.name, code: error.code, message: error.message, cause: error.cause?.constructor.name } };
  }
}

/** The same call both ways: tRPC's caller, and runProcedure as the REST handler makes it. */
async function bothWays(path: 'things.make' | 'things.read', value: unknown, requestId?: string) {
  seen.length = 0;
  const caller = createCallerFactory(testRouter)(context(requestId)) as unknown as Record<string, Record<string, (input: unknown) => Promise<unknown>>>;
  const [group, name] = path.split('.') as [string, string];
  const byCaller = await outcome(() => caller[group]![name]!(value));
  const callerSaw = [...seen];
  seen.length = 0;
  const byRunner = await outcome(() => runProcedure(procedures[path]!, path, context(requestId), value));
  return { byCaller, byRunner, callerSaw, runnerSaw: [...seen] };
}

describe('a REST call runs a procedure as tRPC’s caller does', () => {
  it('passes the context a middleware changed, the parsed input and the checked output', async () => {
    const run = await bothWays('things.make', { name: 'Ada' });
    assert.deepEqual(run.byRunner, { data: { greeting: 'hello Ada', size: 3, user: 'user-1' } });
    assert.deepEqual(run.byRunner, run.byCaller);
    assert.deepEqual(run.runnerSaw, ['auth', 'count mutation things.make {"openapi":{"method":"POST","path":"/things"}}']);
    assert.deepEqual(run.runnerSaw, run.callerSaw);
  });

  it('gives a procedure without middlewares or input its context', async () => {
    const run = await bothWays('things.read', undefined, 'request-7');
    assert.deepEqual(run.byRunner, { data: { request: 'request-7' } });
    assert.deepEqual(run.byRunner, run.byCaller);
  });

  it('fails the same way on bad input, a refusing middleware, a resolver’s error and bad output', async () => {
    const cases: Array<[unknown, string | undefined, string]> = [
      [{ name: '' }, undefined, 'BAD_REQUEST'],
      [{ name: 'Ada' }, 'no-principal', 'UNAUTHORIZED'],
      [{ name: 'missing' }, undefined, 'INTERNAL_SERVER_ERROR'],
      [{ name: 'bad-output' }, undefined, 'INTERNAL_SERVER_ERROR'],
    ];
    for (const [value, requestId, code] of cases) {
      const run = await bothWays('things.make', value, requestId);
      assert.equal(run.byRunner.error?.name, 'TRPCError', JSON.stringify(value));
      assert.equal(run.byRunner.error?.code, code, JSON.stringify(value));
      assert.deepEqual(run.byRunner, run.byCaller, JSON.stringify(value));
      assert.deepEqual(run.runnerSaw, run.callerSaw);
    }
    // The resolver's own error travels as the cause, which the REST error mapper turns into its 404.
    const missing = await bothWays('things.make', { name: 'missing' });
    assert.equal(missing.byRunner.error?.cause, 'NotFoundError');
    assert.equal(missing.byRunner.error?.message, 'Thing not found.');
  });
});
