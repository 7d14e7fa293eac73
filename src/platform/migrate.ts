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
  return applied;
}

/** For /healthz: true when every migration file has been applied. */
export async function migrationsApplied(sql: Sql): Promise<boolean> {
  const rows = await sql<{ name: string }[]>`select name from schema_migrations`.catch(() => null);
  if (rows === null) return false;
  const done = new Set(rows.map((r) => r.name));
  return (await listMigrationFiles()).every((f) => done.has(f));
}
