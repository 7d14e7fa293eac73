import fs from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { runMigrations as runWorkerMigrations } from 'graphile-worker';
import type { Sql } from './database.js';

/** Forward-only SQL migrations from db/, applied in name order, each in its own transaction. */
export const MIGRATIONS_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../db');

// Any constant works; it only has to be the same in every process so two of them never migrate at once.
const MIGRATION_LOCK = 727_001;

export async function listMigrationFiles(): Promise<string[]> {
  return (await fs.readdir(MIGRATIONS_DIR)).filter((f) => /^\d+_.+\.sql$/.test(f)).sort();
}

export async function migrate(sql: Sql, connectionString: string): Promise<string[]> {
  const applied: string[] = [];
  await sql.begin(async (tx) => {
    await tx`select pg_advisory_xact_lock(${MIGRATION_LOCK})`;
    await tx`create table if not exists schema_migrations (name text primary key, applied_at timestamptz not null default now())`;
    const done = new Set((await tx<{ name: string }[]>`select name from schema_migrations`).map((r) => r.name));
    for (const file of await listMigrationFiles()) {
      if (done.has(file)) continue;
      await tx.unsafe(await fs.readFile(path.join(MIGRATIONS_DIR, file), 'utf8'));
      await tx`insert into schema_migrations (name) values (${file})`;
      applied.push(file);
    }
  });
  await runWorkerMigrations({ connectionString });
  await planEnqueuesForTheirArguments(sql);
  return applied;
}

/**
 * graphile-worker's `add_jobs` (what every enqueue runs) is PL/pgSQL, so its statements get cached generic plans.
 * Made while the jobs table is small, such a plan scans the whole table to clear the job key of a locked job, and
 * it stays cached until the table is next analysed: with a backlog that grew within autovacuum's minute, each
 * enqueue (each POST /demos) read every queued job — measured 1.2 ms at a few jobs, 5 ms at 10,000. Planned for
 * each call's arguments it uses the key's index: ~1.3 ms at any depth. Applied after every worker migration,
 * which may recreate the function; under the migration lock, so two processes starting at once do not race.
 */
async function planEnqueuesForTheirArguments(sql: Sql): Promise<void> {
  await sql.begin(async (tx) => {
    await tx`select pg_advisory_xact_lock(${MIGRATION_LOCK})`;
    const [fn] = await tx<{ config: string[] | null }[]>`
      select proconfig as config from pg_proc
      where oid = 'graphile_worker.add_jobs(graphile_worker.job_spec[], boolean)'::regprocedure`;
    if (fn?.config?.includes('plan_cache_mode=force_custom_plan')) return;
    await tx`alter function graphile_worker.add_jobs(graphile_worker.job_spec[], boolean) set plan_cache_mode = force_custom_plan`;
  }).catch((error: unknown) => {
    // A database whose worker schema another role owns: enqueues work as before, only without this plan setting.
    if ((error as { code?: string }).code !== INSUFFICIENT_PRIVILEGE) throw error;
  });
}

const INSUFFICIENT_PRIVILEGE = '42501';

/** For /healthz: true when every migration file has been applied. */
export async function migrationsApplied(sql: Sql): Promise<boolean> {
  const rows = await sql<{ name: string }[]>`select name from schema_migrations`.catch(() => null);
  if (rows === null) return false;
  const done = new Set(rows.map((r) => r.name));
  return (await listMigrationFiles()).every((f) => done.has(f));
}
