import type { Config } from '../platform/config.js';
import type { Sql } from '../platform/database.js';
import { inTransaction } from '../platform/command.js';
import { enqueueJob } from '../platform/jobs.js';
import type { Logger } from '../platform/logger.js';
import { postPinned } from '../platform/network/post-pinned.js';
import { checkUrl, logRefusal } from '../platform/network/ssrf-guard.js';
import type { SecretBox } from '../platform/secrets.js';
import { DELIVERY_JOB_MAX_ATTEMPTS, WEBHOOK_DELIVER_TASK } from './notify.js';
import { findDeliveryForAttempt, type DeliveryStatus } from './queries.js';
import { nextAttemptAt } from './retry-schedule.js';
import { EVENT_ID_HEADER, EVENT_TYPE_HEADER, SIGNATURE_HEADER, signatureHeader } from './signature.js';

export interface WebhookServices {
  sql: Sql;
  config: Config;
  secrets: SecretBox;
  logger: Logger;
}

/** A receiver gets this long to answer each attempt; a slow one is a failed attempt, retried later. */
export const ATTEMPT_TIMEOUT_MS = 10_000;
/** What the log keeps of a receiver's answer: enough to see its error, never a whole page. */
export const RESPONSE_EXCERPT_CHARS = 500;
/** How long the delivery log keeps an event's deliveries. */
export const DELIVERY_LOG_DAYS = 30;

type Outcome =
  | { status: 'delivered'; responseStatus: number; excerpt: string }
  | { status: 'refused'; error: string }
  | { status: 'failure'; error: string; responseStatus: number | null; excerpt: string | null };

/**
 * One attempt at one delivery: the egress guard, the signed POST, and what came of it, written to the delivery log.
 * A failure (an answer other than 2xx, no answer within ATTEMPT_TIMEOUT_MS, a host that does not resolve) queues the
 * next attempt on the retry schedule, in the transaction that logs this one; after a day it is logged as failed.
 * A refusal by the egress guard (the endpoint's host is or resolves to a private address) is logged as refused and
 * not tried again: the guard would refuse every later attempt too.
 */
export async function attemptDelivery(services: WebhookServices, deliveryId: string): Promise<DeliveryStatus | null> {
  const { sql, config, secrets } = services;
  const delivery = await findDeliveryForAttempt(sql, deliveryId);
  // The endpoint was deleted (its log with it), or a duplicate job of a delivery already settled.
  if (!delivery || delivery.status === 'delivered' || delivery.status === 'failed' || delivery.status === 'refused') return null;
  const log = services.logger.child({ deliveryId, endpointId: delivery.endpoint_id, eventId: delivery.event_id, attempt: delivery.attempts + 1 });

  const outcome = await attempt(delivery, config, secrets, log);
  const now = new Date();
  const next = outcome.status === 'failure' ? nextAttemptAt(delivery.created_at, delivery.attempts + 1, now) : null;
  const status: DeliveryStatus = outcome.status === 'failure' ? (next ? 'retrying' : 'failed') : outcome.status;
  await inTransaction(sql, async (tx) => {
    // `attempts` as read: a second job for the same delivery (it never should exist) writes nothing and queues nothing.
    const updated = await tx`
      update webhook_deliveries set
        status = ${status},
        attempts = attempts + 1,
        last_attempt_at = ${now},
        next_attempt_at = ${next},
        delivered_at = ${outcome.status === 'delivered' ? now : null},
        response_status = ${outcome.status === 'refused' ? null : outcome.responseStatus},
        response_excerpt = ${outcome.status === 'refused' ? null : outcome.excerpt},
        error = ${outcome.status === 'delivered' ? null : outcome.error}
      where id = ${deliveryId} and attempts = ${delivery.attempts}`;
    if (updated.count === 1 && next) {
      await enqueueJob(tx, WEBHOOK_DELIVER_TASK, { deliveryId }, { runAt: next, maxAttempts: DELIVERY_JOB_MAX_ATTEMPTS });
    }
  });
  if (outcome.status === 'delivered') log.info({ responseStatus: outcome.responseStatus }, 'webhook delivered');
  else if (outcome.status === 'refused') log.warn({ reason: outcome.error }, 'webhook delivery refused by the egress guard; not retried');
  else log.warn({ reason: outcome.error, responseStatus: outcome.responseStatus, nextAttemptAt: next }, next ? 'webhook delivery failed; retrying later' : 'webhook delivery failed for a day; given up');
  return status;
}

async function attempt(
  delivery: { url: string; secret_enc: string; event_id: string; event_type: string; body: string },
  config: Config,
  secrets: SecretBox,
  log: Logger,
): Promise<Outcome> {
  // Checked at every attempt, not only when the endpoint was registered: what its name resolves to can change.
  const allowPrivate = config.SHOWREEL_ALLOW_PRIVATE_URLS;
  const check = await checkUrl(delivery.url, { allowPrivate });
  if (!check.ok) {
    logRefusal(log, delivery.url, check);
    // A name that does not resolve right now may tomorrow (DNS being set up, a resolver's hiccup): retried.
    if (check.code === 'unresolved') return { status: 'failure', error: check.reason.replace(/^url/, 'The endpoint URL'), responseStatus: null, excerpt: null };
    return { status: 'refused', error: check.reason.replace(/^url/, 'The endpoint URL').replace('Showreel only records public pages.', 'Showreel only delivers webhooks to public addresses.') };
  }
  const timestamp = Math.floor(Date.now() / 1000);
  const headers = {
    'content-type': 'application/json',
    'user-agent': 'Showreel-Webhooks/1.0',
    [EVENT_ID_HEADER.toLowerCase()]: delivery.event_id,
    [EVENT_TYPE_HEADER.toLowerCase()]: delivery.event_type,
    [SIGNATURE_HEADER.toLowerCase()]: signatureHeader(secrets.open(delivery.secret_enc), timestamp, delivery.body),
  };
  try {
    const answer = await postPinned(delivery.url, check.addresses[0] ?? null, {
      headers,
      body: delivery.body,
      timeoutMs: ATTEMPT_TIMEOUT_MS,
      excerptBytes: RESPONSE_EXCERPT_CHARS,
    });
    const excerpt = answer.excerpt.slice(0, RESPONSE_EXCERPT_CHARS);
    if (answer.status >= 200 && answer.status < 300) return { status: 'delivered', responseStatus: answer.status, excerpt };
    return { status: 'failure', error: `The endpoint answered HTTP ${answer.status}.`, responseStatus: answer.status, excerpt };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const reason = code === 'ETIMEDOUT' ? `no answer within ${ATTEMPT_TIMEOUT_MS / 1000} s` : (code ?? (error instanceof Error ? error.message : String(error)));
    return { status: 'failure', error: `The endpoint could not be reached (${reason}).`, responseStatus: null, excerpt: null };
  }
}

/** The delivery log keeps DELIVERY_LOG_DAYS days; older deliveries go (a daily job). */
export async function pruneDeliveryLog(sql: Sql): Promise<number> {
  const deleted = await sql`
    delete from webhook_deliveries
    where created_at < now() - make_interval(days => ${DELIVERY_LOG_DAYS}) and status not in ('pending', 'retrying')`;
  return deleted.count;
}
