import { MAX_RUNTIME_TTL_SECONDS, signRuntimeUrl } from '../embeds/signature.js';
import type { Config } from '../platform/config.js';
import { type Parsed, UsageError, requiredOption, stringOption } from './command.js';
import type { ServiceCommand } from './service-command.js';

/**
 * `showreel embed-url --project <id> [--payload '{…}'] [--ttl 3600] [--base-url https://…] [--json]`: prints a signed
 * runtime embed URL. The project signing secret comes from SHOWREEL_SIGNING_SECRET, never from a flag (flags end up
 * in shell history and `ps`). Nothing is sent anywhere: the signature is computed here, as docs/embedding.md shows.
 */
export function runEmbedUrl(parsed: Parsed, config: Config, env: NodeJS.ProcessEnv = process.env): { url: string; expires: number } {
  const projectId = requiredOption(parsed, 'project');
  const secret = env.SHOWREEL_SIGNING_SECRET;
  if (!secret) throw new UsageError('Set SHOWREEL_SIGNING_SECRET to the project signing secret (GET /api/v1/projects/{id}/signing-secret).');

  const ttlText = stringOption(parsed, 'ttl') ?? '3600';
  const ttl = /^\d+$/.test(ttlText) ? Number(ttlText) : NaN;
  if (!(ttl >= 1 && ttl <= MAX_RUNTIME_TTL_SECONDS)) throw new UsageError(`--ttl must be whole seconds from 1 to ${MAX_RUNTIME_TTL_SECONDS} (30 days).`);

  let payload: unknown;
  const payloadText = stringOption(parsed, 'payload');
  if (payloadText !== undefined) {
    try {
      payload = JSON.parse(payloadText);
    } catch {
      throw new UsageError('--payload must be JSON, e.g. \'{"demoId":"…"}\' or \'{"url":"https://…","prompt":"…"}\'.');
    }
    if (payload === null || typeof payload !== 'object' || Array.isArray(payload)) throw new UsageError('--payload must be a JSON object.');
  }
  const publicUrl = stringOption(parsed, 'base-url') ?? config.PUBLIC_URL;
  const now = Date.now();
  const url = signRuntimeUrl({ publicUrl, projectId, secret, payload, ttlSeconds: ttl, now });
  return { url, expires: Math.floor(now / 1000) + ttl };
}

export const embedUrlCommand: ServiceCommand = {
  name: 'embed-url',
  local: true,
  summary: 'Print a signed runtime embed URL (the secret from SHOWREEL_SIGNING_SECRET)',
  usage: "embed-url --project ID [--payload '{…}'] [--ttl 3600] [--base-url URL] [--json]",
  help: [
    '--project ID     the project whose signing secret is in SHOWREEL_SIGNING_SECRET',
    '--payload JSON   {"demoId":"…"} or {"url":"https://…","prompt":"…"}, plus player props',
    '--ttl SECONDS    how long the URL works (default: 3600, at most 30 days)',
    '--base-url URL   the site in the URL (default: PUBLIC_URL)',
    '--json           {url, expires} instead of the URL alone',
  ],
  options: { project: { type: 'string' }, payload: { type: 'string' }, ttl: { type: 'string' }, 'base-url': { type: 'string' }, json: { type: 'boolean' } },
  async run(parsed, { config }) {
    const result = runEmbedUrl(parsed, config);
    process.stdout.write(parsed.values.json === true ? `${JSON.stringify(result)}\n` : `${result.url}\n`);
  },
};
