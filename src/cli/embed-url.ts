import { MAX_RUNTIME_TTL_SECONDS, signRuntimeUrl } from '../embeds/index.js';
import type { Config } from '../platform/config.js';
import { UsageError, requireOption } from './arguments.js';

/**
 * `showreel embed-url --project <id> [--payload '{…}'] [--ttl 3600] [--base-url https://…] [--json]`: prints a signed
 * runtime embed URL. The project signing secret comes from SHOWREEL_SIGNING_SECRET, never from a flag (flags end up
 * in shell history and `ps`). Nothing is sent anywhere: the signature is computed here, as docs/embedding.md shows.
 */
export function runEmbedUrl(options: Map<string, string | true>, config: Config, env: NodeJS.ProcessEnv = process.env): { url: string; expires: number } {
  const projectId = requireOption(options, 'project');
  const secret = env.SHOWREEL_SIGNING_SECRET;
  if (!secret) throw new UsageError('Set SHOWREEL_SIGNING_SECRET to the project signing secret (GET /api/v1/projects/{id}/signing-secret).');

  const ttlText = options.get('ttl') ?? '3600';
  const ttl = typeof ttlText === 'string' && /^\d+$/.test(ttlText) ? Number(ttlText) : NaN;
  if (!(ttl >= 1 && ttl <= MAX_RUNTIME_TTL_SECONDS)) throw new UsageError(`--ttl must be whole seconds from 1 to ${MAX_RUNTIME_TTL_SECONDS} (30 days).`);

  let payload: unknown;
  const payloadText = options.get('payload');
  if (payloadText !== undefined) {
    if (payloadText === true) throw new UsageError('--payload needs a JSON object, e.g. --payload \'{"demoId":"…"}\'.');
    try {
      payload = JSON.parse(payloadText);
    } catch {
      throw new UsageError('--payload must be JSON, e.g. \'{"demoId":"…"}\' or \'{"url":"https://…","prompt":"…"}\'.');
    }
    if (payload === null || typeof payload !== 'object' || Array.isArray(payload)) throw new UsageError('--payload must be a JSON object.');
  }
  const baseUrl = options.get('base-url');
  const publicUrl = typeof baseUrl === 'string' ? baseUrl : config.PUBLIC_URL;
  const now = Date.now();
  const url = signRuntimeUrl({ publicUrl, projectId, secret, payload, ttlSeconds: ttl, now });
  return { url, expires: Math.floor(now / 1000) + ttl };
}
