import { spawnSync } from 'node:child_process';
import { accessSync, constants, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Logger } from '../../platform/logger.js';

/**
 * Where and how the recorder's Chromium runs (issue 34, finding 4). It renders strangers' pages, so:
 *
 * - not as root: when Showreel runs as root, Chromium is started through `setpriv` (util-linux) as an unprivileged
 *   OS user, SHOWREEL_BROWSER_USER (default `nobody`), with no supplementary groups and no_new_privs; it then cannot
 *   read the data folder, the master key or the database's files. When Showreel is not root, Chromium runs as
 *   Showreel's own user (there is nobody less privileged we could become);
 * - with its own sandbox on: Chromium's namespace sandbox (user, PID and network namespaces plus seccomp-bpf for
 *   renderers) needs unprivileged user namespaces. They are probed once, cheaply, by running
 *   `unshare --user --pid --net --fork true` as the browser's user; when they are missing (or Chromium still refuses
 *   its sandbox at launch), Chromium runs without it, as before, and the log says so once, with the reason.
 *
 * SHOWREEL_BROWSER_SANDBOX: `auto` (default, as above), `require` (no sandbox is an error: the service refuses to
 * start, and a launch without it fails) or `off` (the old way: Showreel's user, no sandbox; for debugging only).
 */
export type SandboxMode = 'auto' | 'require' | 'off';

export interface BrowserUser {
  uid: number;
  gid: number;
  name: string;
}

export interface SandboxPlan {
  mode: SandboxMode;
  /** The OS user Chromium is switched to; null: Showreel's own user. */
  user: BrowserUser | null;
  /** The setpriv binary that switches to `user` (set whenever user is). */
  setpriv: string | null;
  /** Chromium's own sandbox is on (no --no-sandbox). */
  sandbox: boolean;
  /** Why the sandbox or the user switch is missing; null when both are in place (or not needed). */
  reason: string | null;
}

export class BrowserSandboxError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BrowserSandboxError';
  }
}

/** The user of SHOWREEL_BROWSER_USER: a name from /etc/passwd, or `uid` / `uid:gid`. */
export function resolveBrowserUser(spec: string): BrowserUser {
  const numeric = /^(\d+)(?::(\d+))?$/.exec(spec);
  if (numeric) {
    const uid = Number(numeric[1]);
    return { uid, gid: numeric[2] === undefined ? uid : Number(numeric[2]), name: spec };
  }
  let passwd = '';
  try {
    passwd = readFileSync('/etc/passwd', 'utf8');
  } catch {
    // no passwd file: only numeric users then
  }
  for (const line of passwd.split('\n')) {
    const [name, , uid, gid] = line.split(':');
    if (name === spec && uid !== undefined && gid !== undefined) return { uid: Number(uid), gid: Number(gid), name };
  }
  // The conventional overflow user when the system has no `nobody` entry.
  if (spec === 'nobody') return { uid: 65534, gid: 65534, name: 'nobody' };
  throw new BrowserSandboxError(`SHOWREEL_BROWSER_USER names no user of this system: ${spec}`);
}

/** An executable of that name on PATH (or the usual sbin folders), or null. */
function which(name: string): string | null {
  const folders = [...(process.env.PATH ?? '').split(':'), '/usr/bin', '/bin', '/usr/sbin', '/sbin'];
  for (const folder of folders.filter(Boolean)) {
    const candidate = path.join(folder, name);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return null;
}

/** The command that runs `argv` as the plan's user (unchanged when there is none). */
export function asBrowserUser(plan: Pick<SandboxPlan, 'user' | 'setpriv'>, argv: string[]): string[] {
  if (!plan.user || !plan.setpriv) return argv;
  return [plan.setpriv, `--reuid=${plan.user.uid}`, `--regid=${plan.user.gid}`, '--clear-groups', '--no-new-privs', '--', ...argv];
}

/** Whether the namespaces Chromium's sandbox makes can be made by this user; the reason when not. */
function probeNamespaces(plan: Pick<SandboxPlan, 'user' | 'setpriv'>): string | null {
  const unshare = which('unshare');
  if (!unshare) return null; // cannot tell here; the launch will
  const [command, ...args] = asBrowserUser(plan, [unshare, '--user', '--pid', '--net', '--fork', 'true']);
  const result = spawnSync(command!, args, { encoding: 'utf8', timeout: 10_000, env: {} });
  if (result.status === 0) return null;
  const said = (result.stderr || result.error?.message || `exit ${result.status}`).trim().split('\n')[0];
  return `unprivileged user namespaces are not available to the browser's user (unshare: ${said})`;
}

/** Works out the plan from the environment; throws BrowserSandboxError on a bad setting or, with `require`, no sandbox. */
export function planSandbox(env: NodeJS.ProcessEnv = process.env): SandboxPlan {
  const mode = (env.SHOWREEL_BROWSER_SANDBOX ?? 'auto') as SandboxMode;
  if (!['auto', 'require', 'off'].includes(mode)) {
    throw new BrowserSandboxError(`SHOWREEL_BROWSER_SANDBOX must be auto, require or off, not ${mode}`);
  }
  if (mode === 'off') return { mode, user: null, setpriv: null, sandbox: false, reason: 'SHOWREEL_BROWSER_SANDBOX=off' };
  let user: BrowserUser | null = null;
  let setpriv: string | null = null;
  let reason: string | null = null;
  if (process.getuid?.() === 0) {
    user = resolveBrowserUser(env.SHOWREEL_BROWSER_USER || 'nobody');
    if (user.uid === 0) throw new BrowserSandboxError('SHOWREEL_BROWSER_USER must not be root.');
    setpriv = which('setpriv');
    if (!setpriv) {
      user = null;
      reason = 'Showreel runs as root and setpriv (util-linux) is not installed, so Chromium cannot be started as another user';
    }
  }
  if (!reason) reason = probeNamespaces({ user, setpriv });
  const plan: SandboxPlan = { mode, user, setpriv, sandbox: reason === null, reason };
  if (mode === 'require' && !plan.sandbox) throw new BrowserSandboxError(`SHOWREEL_BROWSER_SANDBOX=require, but the browser cannot be sandboxed: ${reason}`);
  return plan;
}

let current: SandboxPlan | null = null;
let announced = false;

/** The plan of this process, worked out once. */
export function browserSandbox(): SandboxPlan {
  current ??= planSandbox();
  return current;
}

/** Chromium refused to start sandboxed although the probe said it could: from now on without (or fail, with require). */
export function sandboxRefused(reason: string, logger?: Logger): SandboxPlan {
  const plan = browserSandbox();
  if (plan.mode === 'require') throw new BrowserSandboxError(`SHOWREEL_BROWSER_SANDBOX=require, but Chromium refused its sandbox: ${reason}`);
  current = { ...plan, sandbox: false, reason: `Chromium refused to start with its sandbox: ${reason}` };
  announced = false;
  announceSandbox(logger);
  return current;
}

/** Says once in the log how the recorder's browser runs: an info line when sandboxed, a warning with the reason when not. */
export function announceSandbox(logger: Logger | undefined): SandboxPlan {
  const plan = browserSandbox();
  if (announced || !logger) return plan;
  announced = true;
  const who = plan.user ? `${plan.user.name} (uid ${plan.user.uid})` : `Showreel's own user (uid ${process.getuid?.() ?? 'unknown'})`;
  if (plan.sandbox && plan.reason === null) logger.info({ user: who, sandbox: true }, `the recorder's browser runs as ${who} with Chromium's sandbox on`);
  else logger.warn({ user: who, sandbox: plan.sandbox, reason: plan.reason }, `the recorder's browser runs as ${who} WITHOUT Chromium's sandbox: ${plan.reason}`);
  return plan;
}

/** Tests: forget the plan, so the next launch works it out again from the environment. */
export function resetBrowserSandbox(): void {
  current = null;
  announced = false;
}
