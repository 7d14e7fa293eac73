import os from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import type { ClientCommand } from '../command.js';
import { configDirectoryProblem, configPath, forgetLogin, readLogin, writeLogin } from '../config-file.js';
import { type Api, ApiError, anonymousApi, ClientError, unwrap } from '../context.js';
import { openableVerificationUri, openBrowser } from '../open-browser.js';

const GRANT_TYPE = 'urn:ietf:params:oauth:grant-type:device_code';

/** RFC 8628 §3.4–3.5: poll no faster than `interval`; slow_down adds 5 s for good; the rest of the errors end it. */
async function pollForKey(api: Api, deviceCode: string, interval: number, expiresIn: number) {
  const deadline = Date.now() + expiresIn * 1000;
  let wait = interval;
  while (Date.now() < deadline) {
    await sleep(wait * 1000);
    const result = await api.POST('/api/v1/device/token', { body: { device_code: deviceCode, grant_type: GRANT_TYPE } });
    if (result.data) return result.data;
    const code = (result.error as { error?: string } | undefined)?.error;
    if (code === 'authorization_pending') continue;
    if (code === 'slow_down') {
      wait += 5;
      continue;
    }
    const why: Record<string, string> = {
      expired_token: 'The code expired before it was approved; run "showreel login" again.',
      access_denied: 'The login was denied in the browser.',
      invalid_grant: 'The service no longer knows this login; run "showreel login" again.',
    };
    throw new ApiError(result.response.status, (code && why[code]) ?? `Login failed: ${code ?? result.response.status}.`);
  }
  throw new ClientError('The code expired before it was approved; run "showreel login" again.');
}

export const login: ClientCommand = {
  name: 'login',
  summary: 'Sign this computer in through the browser (device login) and keep the key in the config file',
  usage: 'login [--base-url URL]',
  help: ['(opens the browser when one is available; SHOWREEL_NO_BROWSER=1 only prints the URL)'],
  async run(_parsed, context) {
    // Before a code is asked for: a key the service issues must have somewhere to go.
    const problem = await configDirectoryProblem();
    if (problem) throw new ClientError(problem);
    const previous = await readLogin();
    const api = anonymousApi(context.baseUrl);
    const code = unwrap(await api.POST('/api/v1/device/code', { body: { client_name: `showreel CLI on ${os.hostname()}`, scope: 'write' } }));
    context.note(`First copy your one-time code: ${code.user_code}`);
    const approvalLink = openableVerificationUri(code.verification_uri_complete, context.baseUrl);
    if (approvalLink) {
      context.note(`Then approve this computer at: ${approvalLink}`);
      if (openBrowser(approvalLink)) context.note('(opened in your browser)');
    } else {
      // Not opened, and not offered as the link to follow: the page to use is the one on the service we talk to.
      context.note(`Warning: the service answered an approval link that is not on ${context.baseUrl} (${JSON.stringify(code.verification_uri_complete.slice(0, 200))}); it was not opened.`);
      context.note(`Approve this computer at ${context.baseUrl}/app/device with the code above, if that is the service you meant.`);
    }
    context.note('Waiting for approval…');
    const token = await pollForKey(api, code.device_code, code.interval, code.expires_in);
    const file = await writeLogin({ base_url: context.baseUrl, key: token.access_token, key_id: token.key_id }).catch(async (error: Error) => {
      // Kept nowhere, the new key would stay live unseen: revoke it (best effort) and say why.
      await revoke(context.baseUrl, token.key_id, token.access_token).catch(() => undefined);
      throw new ClientError(`Could not keep the key in ${configPath()} (${error.message}); it was revoked. Set XDG_CONFIG_HOME to a writable directory.`);
    });
    // The key this computer had before is replaced in the file: revoke it rather than leave it live and forgotten.
    if (previous && previous.key_id !== token.key_id) {
      const replaced = await revoke(previous.base_url, previous.key_id, previous.key).catch(() => false);
      if (replaced) context.note(`The key this computer used before (${previous.key_id}) was revoked.`);
    }
    const keyed = anonymousApi(context.baseUrl);
    const usage = unwrap(await keyed.GET('/api/v1/usage', { headers: { authorization: `Bearer ${token.access_token}` } }));
    context.print({ email: usage.account.email, key_id: token.key_id, base_url: context.baseUrl, config: file }, () =>
      `Logged in to ${context.baseUrl} as ${usage.account.email}. The key is in ${file}.`,
    );
  },
};

/** Revokes a key with itself, on the service that issued it: the service's answer. */
function revokeWithItself(baseUrl: string, keyId: string, key: string) {
  return anonymousApi(baseUrl).DELETE('/api/v1/api-keys/{id}', { params: { path: { id: keyId } }, headers: { authorization: `Bearer ${key}` } });
}

/** True when the service revoked the key now. */
const revoke = async (baseUrl: string, keyId: string, key: string) => (await revokeWithItself(baseUrl, keyId, key)).response.ok;

export const logout: ClientCommand = {
  name: 'logout',
  summary: 'Revoke the key that login stored, on the service, and forget it',
  usage: 'logout [--forget]',
  help: ['--forget         only forget the key here, without revoking it (when the service cannot be reached)'],
  options: { forget: { type: 'boolean' } },
  async run(parsed, context) {
    const stored = await readLogin();
    if (!stored) {
      context.print({ logged_out: false }, () => `Not logged in (no ${configPath()}).`);
      return;
    }
    if (parsed.values.forget === true) {
      await forgetLogin();
      context.print({ logged_out: true, revoked: false, key_id: stored.key_id }, () =>
        `Forgotten here; the key ${stored.key_id} still works until you revoke it (dashboard, API keys).`,
      );
      return;
    }
    const result = await revokeWithItself(stored.base_url, stored.key_id, stored.key).catch((error: unknown) => {
      // logout calls the service the key came from, whatever --base-url says: say that one, and the way out.
      if (error instanceof TypeError && error.message === 'fetch failed') {
        throw new ClientError(`Could not reach ${stored.base_url} to revoke the key; it is still stored. Try again when it is up, or "showreel logout --forget" to only forget it here.`);
      }
      throw error;
    });
    // Already revoked elsewhere (401 with it, 404): nothing left to revoke; forget it all the same.
    if (!result.response.ok && result.response.status !== 401 && result.response.status !== 404) unwrap(result);
    await forgetLogin();
    context.print({ logged_out: true, revoked: result.response.ok, key_id: stored.key_id }, () =>
      result.response.ok ? `Logged out: the key was revoked on ${stored.base_url} and forgotten.` : 'Logged out: the key no longer worked; it is forgotten.',
    );
  },
};

export const whoami: ClientCommand = {
  name: 'whoami',
  summary: 'Who the key in use belongs to, and its plan',
  usage: 'whoami',
  async run(_parsed, context) {
    const usage = unwrap(await (await context.api()).GET('/api/v1/usage'));
    const source = process.env.SHOWREEL_API_KEY ? 'SHOWREEL_API_KEY' : configPath();
    context.print({ ...usage.account, plan: usage.plan.id, base_url: context.baseUrl, key_source: source }, () =>
      [`${usage.account.email} on ${context.baseUrl}`, `plan: ${usage.plan.name}`, `key: ${usage.account.key_id ?? '-'} (from ${source})`].join('\n'),
    );
  },
};
