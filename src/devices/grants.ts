import type { Sql, Tx } from '../platform/database.js';
import { AppError, ConflictError, NotFoundError } from '../platform/errors.js';
import { newId } from '../platform/ids.js';
import { randomToken, sha256 } from '../platform/secrets.js';
import { newUserCode, normaliseUserCode } from './user-code.js';

/**
 * Device authorisation grants (RFC 8628) for command-line clients: the client asks for a code pair, a signed-in
 * person approves the user code in the dashboard, and the client's next poll exchanges the device code, once, for
 * a new live key named after the client.
 *
 * Terminology
 * - device code: the client's secret for polling (32 random bytes); user code: what the person types (XXXX-XXXX).
 * - grant: one such pair, `pending` until approved or denied, then `redeemed` once its key was handed out.
 */
export const DEVICE_CODE_TTL_SECONDS = 15 * 60;
export const POLL_INTERVAL_SECONDS = 5;
/** RFC 8628 §3.5: a client that polls too fast gets slow_down, and its interval grows by 5 s from then on. */
const SLOW_DOWN_STEP_SECONDS = 5;

export const deviceGrantErrors = ['authorization_pending', 'slow_down', 'expired_token', 'access_denied', 'invalid_grant', 'unsupported_grant_type'] as const;
export type DeviceGrantErrorCode = (typeof deviceGrantErrors)[number];

/** A token request that yields no token: 400 `{error: <RFC 8628 code>}`, as clients of the grant expect. */
export class DeviceGrantError extends AppError {
  constructor(readonly code: DeviceGrantErrorCode) {
    super(400, code);
  }
}

interface GrantRow {
  id: string;
  client_name: string;
  status: 'pending' | 'approved' | 'denied' | 'redeemed';
  user_id: string | null;
  interval_seconds: number;
  expired: boolean;
  /** seconds since the previous poll; null at the first */
  since_last_poll: number | null;
}

const userCodeHash = (code: string) => sha256(`user-code:${code}`);
const deviceCodeHash = (code: string) => sha256(`device-code:${code}`);

export interface StartedGrant {
  deviceCode: string;
  userCode: string;
  expiresIn: number;
  interval: number;
}

export async function startDeviceGrant(sql: Sql, input: { clientName: string; scope: string }): Promise<StartedGrant> {
  // Old grants are of no use to anyone: drop them as new ones come.
  await sql`delete from device_grants where expires_at < now() - interval '1 day'`;
  for (let attempt = 0; ; attempt++) {
    const deviceCode = randomToken(32);
    const userCode = newUserCode();
    const [row] = await sql<{ id: string }[]>`
      insert into device_grants (id, device_code_hash, user_code_hash, client_name, scope, status, interval_seconds, expires_at)
      values (${newId()}, ${deviceCodeHash(deviceCode)}, ${userCodeHash(normaliseUserCode(userCode)!)}, ${input.clientName}, ${input.scope},
              'pending', ${POLL_INTERVAL_SECONDS}, now() + ${DEVICE_CODE_TTL_SECONDS} * interval '1 second')
      on conflict (user_code_hash) do nothing
      returning id`;
    // 20^8 codes: a clash with a live one is rare, and simply draws again.
    if (row) return { deviceCode, userCode, expiresIn: DEVICE_CODE_TTL_SECONDS, interval: POLL_INTERVAL_SECONDS };
    if (attempt >= 5) throw new Error('Could not draw a free user code.');
  }
}

/** The client name of a live, pending grant, for the approval page; null when the code is unknown, expired or used. */
export async function findPendingGrant(sql: Sql, typedUserCode: string): Promise<{ clientName: string } | null> {
  const code = normaliseUserCode(typedUserCode);
  if (!code) return null;
  const [row] = await sql<{ client_name: string }[]>`
    select client_name from device_grants where user_code_hash = ${userCodeHash(code)} and status = 'pending' and expires_at > now()`;
  return row ? { clientName: row.client_name } : null;
}

/**
 * A signed-in person approves (or denies) the grant a user code names. Unknown or expired: 404; already approved,
 * denied or redeemed: 409.
 */
export async function decideDeviceGrant(
  sql: Sql,
  input: { userCode: string; userId: string; approve: boolean },
): Promise<{ clientName: string }> {
  const code = normaliseUserCode(input.userCode);
  if (!code) throw new NotFoundError('Device code');
  return sql.begin(async (tx) => {
    const [grant] = await tx<GrantRow[]>`
      select id, client_name, status, (expires_at <= now()) as expired from device_grants
      where user_code_hash = ${userCodeHash(code)} for update`;
    if (!grant || grant.expired) throw new NotFoundError('Device code');
    if (grant.status !== 'pending') throw new ConflictError('This device code has already been used.');
    await tx`
      update device_grants set status = ${input.approve ? 'approved' : 'denied'}, user_id = ${input.userId}, decided_at = now()
      where id = ${grant.id}`;
    return { clientName: grant.client_name };
  }) as Promise<{ clientName: string }>;
}

/**
 * One poll of the client. Throws DeviceGrantError until the grant is approved; then, exactly once, calls
 * `issueKey` in the same transaction (the key and the grant's end commit together) and returns what it made.
 */
export async function pollDeviceGrant<T extends { keyId: string }>(
  sql: Sql,
  deviceCode: string,
  issueKey: (tx: Tx, grant: { userId: string; clientName: string }) => Promise<T>,
): Promise<T> {
  type Outcome = { error: DeviceGrantErrorCode } | { issued: T };
  const outcome = (await sql.begin(async (tx): Promise<Outcome> => {
    const [grant] = await tx<GrantRow[]>`
      select id, client_name, status, user_id, interval_seconds, (expires_at <= now()) as expired,
             extract(epoch from now() - last_polled_at)::float8 as since_last_poll
      from device_grants where device_code_hash = ${deviceCodeHash(deviceCode)} for update`;
    if (!grant || grant.status === 'redeemed') return { error: 'invalid_grant' };
    if (grant.expired) return { error: 'expired_token' };
    if (grant.status === 'denied') return { error: 'access_denied' };
    if (grant.status === 'pending') {
      // The interval is a floor between polls; a 0.5 s allowance absorbs the jitter of a client's timer.
      const tooSoon = grant.since_last_poll !== null && grant.since_last_poll < grant.interval_seconds - 0.5;
      await tx`
        update device_grants set last_polled_at = now(),
          interval_seconds = interval_seconds + ${tooSoon ? SLOW_DOWN_STEP_SECONDS : 0}
        where id = ${grant.id}`;
      return { error: tooSoon ? 'slow_down' : 'authorization_pending' };
    }
    const issued = await issueKey(tx, { userId: grant.user_id!, clientName: grant.client_name });
    await tx`update device_grants set status = 'redeemed', key_id = ${issued.keyId}, last_polled_at = now() where id = ${grant.id}`;
    return { issued };
  })) as Outcome;
  // Errors are returned from the transaction, not thrown in it, so the poll's bookkeeping (slow_down) commits.
  if ('error' in outcome) throw new DeviceGrantError(outcome.error);
  return outcome.issued;
}
