import { createTestDatabase } from '../test/helpers/database.ts';
const db = await createTestDatabase();
const sql = db.sql;
async function measure(name: string, n: number, fn: (i: number) => Promise<unknown>) {
  const t0 = performance.now();
  for (let i = 0; i < n; i++) await fn(i);
  console.error(`${name}: ${((performance.now() - t0) / n * 1000).toFixed(0)} µs wall per op`);
}
const add = (i: number) => sql.begin((tx) => tx`select id::text from graphile_worker.add_job('demo_generate', json_build_object('demoId', ${'d' + i}::text), job_key => ${'k' + Math.random()}, max_attempts => 3::smallint)`);
const fill = async (total: number) => {
  const [{ n }] = await sql`select count(*)::int as n from graphile_worker._private_jobs`;
  if (n < total) await sql`select graphile_worker.add_jobs(array_agg(row('demo_generate', json_build_object('x', g), null, null, 3, 'bulk' || g || random(), null, null)::graphile_worker.job_spec)) from generate_series(1, ${total - n}) g`;
};
const mode = process.env.MODE;
if (mode === 'custom') await sql`alter function graphile_worker.add_jobs(graphile_worker.job_spec[], boolean) set plan_cache_mode = force_custom_plan`;
await measure(`[${mode}] add_job with ~0 queued`, 300, add);
await fill(2000);
await measure(`[${mode}] add_job with 2000 queued`, 300, add);
await fill(10000);
await measure(`[${mode}] add_job with 10000 queued`, 300, add);
if (mode === 'analyze') { await sql`analyze graphile_worker._private_jobs`; await measure(`[${mode}] add_job with 10000 queued after analyze`, 300, add); }
await db.drop();
