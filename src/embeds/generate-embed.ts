import { inAccountTransaction } from '../credits/index.js';
import { findLiveDemoByContextHash, requestDemo, type Presentation } from '../demos/index.js';
import type { Sql, Tx } from '../platform/database.js';
import { QuotaError, ValidationError } from '../platform/errors.js';
import { lockStream } from '../platform/event-store/lock-stream.js';
import type { EventMetadata } from '../platform/event-store/types.js';
import type { ProjectRecord } from '../projects/index.js';
import { contextHash, normaliseContextUrl } from './context-hash.js';
import type { GenerateEmbedInput } from './schemas.js';
import { onSameSite, registrableDomain } from './site.js';

/**
 * Terminology
 * - embed request: what a page (SDK, publishable key) or a trusted server (live key, signed runtime URL) asks for.
 * - context hash: the reuse key of an embed request; one live demo per hash.
 * - page context: what the embedding page says about itself (title, headings, description), for the planner.
 */
export interface EmbedRequest {
  projectId: string;
  userId: string;
  prompt: string;
  presentation: Presentation | null;
  /** the page to record: the embedding page when it is on the project's site, else null (the project URL) */
  pageUrl: string | null;
  /** JSON text stored as the demo's `context`, read by the pipeline; null when the page said nothing */
  context: string | null;
  contextHash: string;
}

export interface EmbedAnswer {
  demoId: string;
  status: string;
  cached: boolean;
}

/** The planner reads at most this many headings; a page with hundreds says nothing more with them. */
export const MAX_CONTEXT_HEADINGS = 20;

/**
 * Turns a validated request into an embed request for `project`: the page URL must be on the project's site (400
 * otherwise), `template` and `section` become the recording template and its section hint, and a missing prompt
 * is derived from the page's title. Pure: the SSRF guard runs later, only when a generation starts.
 */
export function toEmbedRequest(
  project: Pick<ProjectRecord, 'id' | 'user_id' | 'url'>,
  input: GenerateEmbedInput,
  // How the caller's page URL is called in its request: a runtime payload has `payload.url`.
  { urlField = 'context.url' }: { urlField?: string } = {},
): EmbedRequest {
  const context = input.context ?? {};
  const { pageUrl, prompt, contextHash: hash } = embedKey(input);
  if (pageUrl !== null && !onSameSite(pageUrl, project.url)) {
    throw new ValidationError(
      `${urlField} must be a page of the project's site (${registrableDomain(new URL(project.url).hostname)}); ${new URL(pageUrl).hostname} is not.`,
    );
  }
  let presentation: Presentation | null = input.presentation ?? null;
  if (input.template !== undefined || input.section !== undefined) {
    const base = presentation?.recordingTemplate;
    const sectionHint = input.section ?? base?.sectionHint;
    presentation = {
      ...presentation,
      recordingTemplate: { ...base, id: input.template ?? base?.id ?? 'auto', ...(sectionHint ? { sectionHint } : {}) },
    };
  }

  const title = context.title?.trim() || null;
  const headings = (context.headings ?? []).map((h) => h.trim()).filter(Boolean).slice(0, MAX_CONTEXT_HEADINGS);
  const description = context.description?.trim() || null;
  const knowsSomething = pageUrl !== null || title !== null || headings.length > 0 || description !== null || input.section !== undefined;
  const pageContext = knowsSomething
    ? JSON.stringify({ url: pageUrl, title, headings, description, section: input.section ?? null })
    : null;

  return { projectId: project.id, userId: project.user_id, prompt, presentation, pageUrl, context: pageContext, contextHash: hash };
}

/**
 * The reuse key of a request, from the request alone (so it can be looked up while the project is being read):
 * the normalised page URL, the prompt (given, or derived from the page title) and their context hash.
 */
export function embedKey(input: GenerateEmbedInput): { pageUrl: string | null; prompt: string; contextHash: string } {
  const pageUrl = input.context?.url === undefined ? null : normaliseContextUrl(input.context.url);
  const title = input.context?.title?.trim() || null;
  const prompt = input.prompt ?? (title ? `Show what “${title.slice(0, 400)}” is about` : 'A short tour of this page');
  const hash = contextHash({
    projectId: input.project_id,
    url: pageUrl,
    prompt,
    template: input.template ?? null,
    section: input.section ?? null,
    presentation: input.presentation,
  });
  return { pageUrl, prompt, contextHash: hash };
}

/**
 * Reuses the live demo of this context hash (200, charged nothing) or starts one generation (202, charged like
 * POST /demos). Callers racing on one hash queue on an advisory lock taken on the hash, so the second reads what
 * the first committed: twenty identical calls at once make one demo and one charge. The partial unique index
 * `demos_context_hash_live` backs the lock; a violation of it is answered as a reuse too.
 *
 * `beforeGenerate` runs only on the generation path (rate limits, the SSRF guard): a reuse is a cheap read.
 */
export async function generateEmbed(
  sql: Sql,
  request: EmbedRequest,
  beforeGenerate: () => Promise<void>,
  metadata: EventMetadata,
  /**
   * the live demo of this hash when the caller already looked it up (null: it found none), else it is read here.
   * Either way a reuse is a plain read: no transaction, no lock. Only when none exists does the locked path below
   * run, and it reads again under the lock.
   */
  prefetched?: { id: string; status: string } | null,
  /**
   * runs in the generation's transaction under the hash's lock, just before the demo is requested (the daily caps of
   * publishable keys): what it counts is rolled back with a start that fails, and a concurrent duplicate that turns
   * out a reuse counts nothing.
   */
  inGeneration?: (tx: Tx) => Promise<void>,
): Promise<EmbedAnswer> {
  const existing = prefetched !== undefined ? prefetched : await findLiveDemoByContextHash(sql, request.contextHash);
  if (existing) return reused(existing);
  await beforeGenerate();
  try {
    // A charge for the project's owner: in one of the account's turns (inAccountTransaction), so that a page viewed
    // in many new contexts at once does not take every pooled connection.
    return await inAccountTransaction(sql, request.userId, async (tx) => {
      await lockStream(tx, `embed-${request.contextHash}`);
      const live = await findLiveDemoByContextHash(tx, request.contextHash);
      if (live) return reused(live);
      await inGeneration?.(tx);
      const { demoId } = await requestDemo(
        tx,
        {
          projectId: request.projectId,
          userId: request.userId,
          prompt: request.prompt,
          format: 'mp4',
          resolution: '1080p',
          durationTarget: '10s',
          mode: 'script',
          presentation: request.presentation,
          context: request.context,
          contextHash: request.contextHash,
        },
        metadata,
      );
      return { demoId, status: 'pending', cached: false };
    });
  } catch (error) {
    // A site's visitors see this answer (in the SDK's console message, in a runtime iframe): the owner's balance is
    // not theirs to read. The owner sees it in the dashboard.
    if (error instanceof QuotaError && /credits/i.test(error.message)) throw new QuotaError(OUT_OF_CREDITS_FOR_VISITORS);
    if ((error as { constraint_name?: string }).constraint_name !== 'demos_context_hash_live') throw error;
    const live = await findLiveDemoByContextHash(sql, request.contextHash);
    if (!live) throw error;
    return reused(live);
  }
}

export const OUT_OF_CREDITS_FOR_VISITORS =
  "This demo cannot be made right now: the site's Showreel account has no credits left for a new one. Its owner can buy credits or turn on auto top-off.";

function reused(demo: { id: string; status: string }): EmbedAnswer {
  return { demoId: demo.id, status: demo.status, cached: true };
}
