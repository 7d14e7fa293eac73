import type { Queryable } from '../platform/database.js';
import { ForbiddenError, QuotaError } from '../platform/errors.js';
import { hostAllowed, normaliseHost } from './site.js';

/**
 * Issue 34: what a publishable key may spend. The key sits in a web page, so anyone can copy it and call
 * POST /embed/generate from a script, with any Origin header and any prompt. A reuse costs nothing and stays open to
 * it; a new generation is paid by the key's owner, so it is allowed only for the page that will be recorded (not the
 * Origin the caller claims) on the project's own site (and on the key's allowed domains, when it has some), and only
 * so many a day.
 */

/**
 * The project's own site, as a publishable key's generations are held to it: the project URL's host or any subdomain
 * of it, with a leading `www.` of the project host dropped (a project at www.acme.com also owns acme.com and
 * docs.acme.com). Stricter than onSameSite (the registrable domain): without a public-suffix list, team.github.io
 * and stranger.github.io share a "registrable domain", and the owner of the one must not pay for the other.
 */
export function onProjectSite(host: string, projectUrl: string): boolean {
  const value = normaliseHost(host);
  const base = projectSiteHost(projectUrl);
  return value === base || value.endsWith(`.${base}`);
}

function projectSiteHost(projectUrl: string): string {
  return normaliseHost(new URL(projectUrl).hostname).replace(/^www\./, '');
}

/**
 * A publishable key may start a demo of `recordedUrl` (the embedding page, else the project URL) only when the page
 * is on the project's own site and, when the key has allowed domains, on them too. 403 saying which. A key without
 * domains may generate (issue 57, docs/decisions.md): the interface lets such keys exist and generate, and what one
 * can spend is bounded by this project-site rule and the daily caps, with domains or without.
 */
export function assertPublishableMayGenerate(allowedDomains: readonly string[] | null, recordedUrl: string, projectUrl: string): void {
  const host = normaliseHost(new URL(recordedUrl).hostname);
  if (allowedDomains !== null && allowedDomains.length > 0 && !hostAllowed(host, allowedDomains)) {
    throw new ForbiddenError(`This publishable key starts new demos only for pages on its allowed domains; ${host} is not one of them.`);
  }
  if (!onProjectSite(host, projectUrl)) {
    throw new ForbiddenError(
      `${host} is not the project's site (${projectSiteHost(projectUrl)}): a publishable key starts new demos only for pages of its project's own host and its subdomains.`,
    );
  }
}

export interface DailyGenerationCaps {
  /** new demos a UTC day per publishable key; 0 is no cap */
  perKey: number;
  /** new demos a UTC day per project, all its publishable keys together; 0 is no cap */
  perProject: number;
}

/**
 * Counts one new generation against the key and the project for today (UTC), in the transaction that starts the
 * demo: a start refused here, or failing later (no credits), rolls its count back, and concurrent starts queue on the
 * counter row, so a cap of n admits exactly n. Beyond a cap: 429 with Retry-After to the next UTC midnight.
 */
export async function countDailyGeneration(
  tx: Queryable,
  subject: { userId: string; keyId: string; projectId: string },
  caps: DailyGenerationCaps,
): Promise<void> {
  const counters = [
    { kind: 'key', id: subject.keyId, limit: caps.perKey, who: 'This publishable key' },
    { kind: 'project', id: subject.projectId, limit: caps.perProject, who: 'This project' },
  ] as const;
  for (const { kind, id, limit, who } of counters) {
    const [row] = await tx<{ generations: number; retry_after: number }[]>`
      insert into embed_daily_generations (subject_kind, subject_id, day, user_id, generations)
      values (${kind}, ${id}, (now() at time zone 'utc')::date, ${subject.userId}, 1)
      on conflict (subject_kind, subject_id, day) do update set generations = embed_daily_generations.generations + 1
      returning generations,
        ceil(extract(epoch from (date_trunc('day', now() at time zone 'utc') + interval '1 day') - (now() at time zone 'utc')))::int as retry_after`;
    if (row && limit > 0 && row.generations > limit) {
      const retryAfter = Math.max(1, row.retry_after);
      throw new QuotaError(
        `${who} may start at most ${limit} new demos a day through publishable keys, and has; demos that already exist still show. ` +
          `The count restarts at 00:00 UTC, in ${formatWait(retryAfter)}.`,
        retryAfter,
      );
    }
  }
}

function formatWait(seconds: number): string {
  const hours = Math.floor(seconds / 3600);
  const minutes = Math.ceil((seconds % 3600) / 60);
  return hours > 0 ? `${hours} h ${minutes} min` : `${Math.max(1, minutes)} min`;
}

export interface EmbedGenerationsToday {
  /** the UTC day counted, YYYY-MM-DD */
  day: string;
  byKey: Array<{ key_id: string; generations: number }>;
  byProject: Array<{ project_id: string; generations: number }>;
}

/** An account's counts for today (UTC), for GET /usage. */
export async function embedGenerationsToday(sql: Queryable, userId: string): Promise<EmbedGenerationsToday> {
  const rows = await sql<{ today: string; subject_kind: 'key' | 'project' | null; subject_id: string | null; generations: number | null }[]>`
    with t as (select (now() at time zone 'utc')::date as day)
    select to_char(t.day, 'YYYY-MM-DD') as today, e.subject_kind, e.subject_id, e.generations
    from t left join embed_daily_generations e on e.user_id = ${userId} and e.day = t.day
    order by e.subject_kind, e.subject_id`;
  return {
    day: rows[0]!.today,
    byKey: rows.filter((r) => r.subject_kind === 'key').map((r) => ({ key_id: r.subject_id!, generations: r.generations! })),
    byProject: rows.filter((r) => r.subject_kind === 'project').map((r) => ({ project_id: r.subject_id!, generations: r.generations! })),
  };
}

/** Counters of days gone by are of no use to anyone after a month (GET /usage shows today's). */
export async function deleteOldEmbedGenerationCounts(sql: Queryable): Promise<void> {
  await sql`delete from embed_daily_generations where day < (now() at time zone 'utc')::date - 31`;
}
