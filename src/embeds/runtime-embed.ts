import { z } from 'zod';
import { aspectRatios, findPublicDemo, type DemoRecord } from '../demos/index.js';
import type { Sql } from '../platform/database.js';
import { NotFoundError, UnauthorizedError, ValidationError } from '../platform/errors.js';
import type { EventMetadata } from '../platform/event-store/types.js';
import type { SecretBox } from '../platform/secrets.js';
import { containsLoneSurrogate, containsNul, describeIssues } from '../platform/validation.js';
import { findProjectById } from '../projects/index.js';
import { generateEmbed, toEmbedRequest, type EmbedRequest } from './generate-embed.js';
import { embedPrompt, embedSection, embedTemplate } from './schemas.js';
import { MAX_RUNTIME_TTL_SECONDS, signatureMatches } from './signature.js';

/** How the player behaves (spec Embeds: player props). Autoplay happens only muted (browsers allow nothing else). */
export const playerPropsSchema = z.object({
  autoplay: z.boolean().optional(),
  loop: z.boolean().optional(),
  muted: z.boolean().optional(),
  controls: z.boolean().optional(),
  startAt: z.number().min(0).max(24 * 60 * 60).optional(),
  // Issue 59: which cut to play, when the demo has it (presentation.aspect); else the 16:9 video.
  aspect: z.enum(aspectRatios).optional(),
});
export type PlayerProps = z.infer<typeof playerPropsSchema>;

const demoPayload = playerPropsSchema.extend({ demoId: z.string().min(1) });
/** Like embed/generate: without `url` the project's own page, without `prompt` one derived from the page. */
const generationPayload = playerPropsSchema.extend({
  url: z.url({ protocol: /^https?$/ }).max(2048).optional(),
  prompt: embedPrompt.optional(),
  template: embedTemplate.optional(),
  section: embedSection.optional(),
});

const runtimeQuery = z.object({
  project_id: z.string().min(1),
  expires: z.string().regex(/^\d{1,12}$/, 'must be Unix seconds'),
});

export interface RuntimeQuery {
  project_id?: string;
  expires?: string;
  signature?: string;
  payload?: string;
}

/** `regenerable`: the URL asks for a generation, so opening it again after a failure starts a new one. */
export type RuntimeEmbed = { demo: DemoRecord; props: PlayerProps; started: boolean; regenerable: boolean };

export interface RuntimeDependencies {
  sql: Sql;
  secrets: SecretBox;
  now?: () => number;
}

/**
 * Opens a signed runtime embed (spec Embeds, GET /embed/runtime). In order: query shape (400), project (404),
 * signature against the project's current signing secret — so a rotation invalidates every earlier URL at once —
 * (401), `expires` more than 30 days ahead (400), expired (401), payload (400); then the demo it names (404 when
 * it is not this project's) or a generation reused exactly as POST /embed/generate reuses.
 */
export async function openRuntimeEmbed(
  deps: RuntimeDependencies,
  query: RuntimeQuery,
  beforeGenerate: (request: EmbedRequest) => Promise<void>,
  metadata: (ownerId: string) => EventMetadata,
): Promise<RuntimeEmbed> {
  const parsed = runtimeQuery.safeParse(query);
  if (!parsed.success) throw new ValidationError(describeIssues(parsed.error.issues));
  const { project_id: projectId, expires } = parsed.data;
  const project = await findProjectById(deps.sql, projectId);
  if (!project) throw new NotFoundError('Project');

  const payloadText = query.payload === undefined || query.payload === '' ? null : query.payload;
  if (!query.signature) throw new UnauthorizedError('This embed URL has no signature; sign it with the project signing secret.');
  if (!signatureMatches(deps.secrets.open(project.signing_secret_enc), projectId, expires, payloadText, query.signature)) {
    throw new UnauthorizedError('The signature of this embed URL is not valid (wrong secret, altered URL, or a rotated signing secret).');
  }
  const now = Math.floor((deps.now?.() ?? Date.now()) / 1000);
  if (Number(expires) > now + MAX_RUNTIME_TTL_SECONDS) {
    throw new ValidationError('expires is more than 30 days ahead; sign URLs for at most 30 days.');
  }
  if (Number(expires) <= now) throw new UnauthorizedError('This embed URL has expired; sign a new one.');

  const payload = decodePayload(payloadText);
  if ('demoId' in payload) {
    const demo = await findPublicDemo(deps.sql, payload.demoId);
    if (!demo || demo.project_id !== projectId) throw new NotFoundError('Demo');
    const { demoId: _id, ...props } = payload;
    return { demo, props, started: false, regenerable: false };
  }
  const { url, prompt, template, section, ...props } = payload;
  const request = toEmbedRequest(
    project,
    {
      project_id: projectId,
      ...(prompt ? { prompt } : {}),
      ...(template ? { template } : {}),
      ...(section ? { section } : {}),
      ...(url ? { context: { url } } : {}),
    },
    { urlField: 'payload.url' },
  );
  const answer = await generateEmbed(deps.sql, request, () => beforeGenerate(request), metadata(project.user_id));
  const demo = await findPublicDemo(deps.sql, answer.demoId);
  if (!demo) throw new NotFoundError('Demo');
  return { demo, props, started: !answer.cached, regenerable: true };
}

type Payload = z.infer<typeof demoPayload> | z.infer<typeof generationPayload>;

/** No payload: the project's own page with the default prompt. */
function decodePayload(text: string | null): Payload {
  if (text === null) return {};
  let value: unknown;
  try {
    if (!/^[\w-]+={0,2}$/.test(text)) throw new Error('not base64url');
    value = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
  } catch {
    throw new ValidationError('payload must be base64url-encoded JSON.');
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new ValidationError('payload must be a JSON object.');
  if (containsNul(value)) throw new ValidationError('payload must not contain NUL (\\u0000) characters.');
  if (containsLoneSurrogate(value)) throw new ValidationError('payload must not contain half of a UTF-16 surrogate pair.');
  const schema = 'demoId' in value ? demoPayload : generationPayload;
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    throw new ValidationError(describeIssues(parsed.error.issues.map((issue) => ({ ...issue, path: ['payload', ...issue.path] }))));
  }
  return parsed.data;
}
