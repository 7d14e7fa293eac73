import { createHmac } from 'node:crypto';
import { constantTimeEqual } from '../platform/secrets.js';

/** Spec Embeds (runtime): a signed URL may live at most 30 days; a longer `expires` is a 400. */
export const MAX_RUNTIME_TTL_SECONDS = 30 * 24 * 60 * 60;

/**
 * signature = base64url(HMAC-SHA256(signing secret, `${project_id}.${expires}.${payload ?? ""}`)). The same few
 * lines are in docs/embedding.md for Node and Python; a test runs those snippets against this server.
 */
export function runtimeSignature(secret: string, projectId: string, expires: string, payload: string | null): string {
  return createHmac('sha256', secret).update(`${projectId}.${expires}.${payload ?? ''}`).digest('base64url');
}

/** Constant-time: how much of a guess matched never shows in the answer time. */
export function signatureMatches(secret: string, projectId: string, expires: string, payload: string | null, signature: string): boolean {
  return constantTimeEqual(runtimeSignature(secret, projectId, expires, payload), signature);
}

export function encodeRuntimePayload(payload: unknown): string {
  return Buffer.from(JSON.stringify(payload), 'utf8').toString('base64url');
}

/** The whole runtime URL, for the CLI (`showreel embed-url`) and tests. */
export function signRuntimeUrl(input: {
  publicUrl: string;
  projectId: string;
  secret: string;
  payload?: unknown;
  ttlSeconds: number;
  now?: number;
}): string {
  const expires = String(Math.floor((input.now ?? Date.now()) / 1000) + Math.floor(input.ttlSeconds));
  const payload = input.payload === undefined ? null : encodeRuntimePayload(input.payload);
  const query = new URLSearchParams({ project_id: input.projectId, expires });
  if (payload !== null) query.set('payload', payload);
  query.set('signature', runtimeSignature(input.secret, input.projectId, expires, payload));
  return `${input.publicUrl.replace(/\/+$/, '')}/api/v1/embed/runtime?${query}`;
}
