import type { SecretBox } from '../platform/secrets.js';
import type { ProjectRecord } from './queries.js';

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
    created_at: record.created_at.toISOString(),
    updated_at: record.updated_at.toISOString(),
  };
}
