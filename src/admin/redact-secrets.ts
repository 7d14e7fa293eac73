import type { StoredEvent } from '../platform/event-store/types.js';

/**
 * The admin event reader shows what happened, never the secrets events carry: password hashes, API key hashes,
 * sealed signing and webhook secrets (issue 15). Fields are matched by name at any depth, so a later event with a
 * `...Hash`, `...Secret`, `...Token` or `...Password` field is covered without a change here. Replay and
 * projections read the events themselves, not through this.
 */
const SECRET_FIELD = /password|secret|hash|token|credential/i;

export const REDACTED = '[redacted]';

export function redactEvent<E extends StoredEvent>(event: E): E {
  return { ...event, data: redact(event.data), metadata: redact(event.metadata) };
}

function redact<T>(value: T): T {
  if (Array.isArray(value)) return value.map(redact) as T;
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value).map(([name, field]) => [name, SECRET_FIELD.test(name) && field !== null ? REDACTED : redact(field)]),
  ) as T;
}
