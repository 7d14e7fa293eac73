import type { SecretBox } from '../platform/secrets.js';
import type { ProjectRecord } from './queries.js';
import { toSiteAccessView } from './site-access.js';

/** The spec's Project resource. Secrets are opened only here, on their way to their owner. */
export function toProject(record: ProjectRecord, secrets: SecretBox) {
  return {
    id: record.id,
    user_id: record.user_id,
    name: record.name,
    url: record.url,
    viewport: record.viewport,
    refresh_schedule: record.refresh_schedule,
    webhook_secret: record.webhook_secret_enc === null ? null : secrets.open(record.webhook_secret_enc),
    // Only the summary: the sealed cookies or password are never opened on the way out.
    access: toSiteAccessView(record.site_access),
    recording: { allow_submit: record.allow_submit },
    created_at: record.created_at.toISOString(),
    updated_at: record.updated_at.toISOString(),
  };
}
