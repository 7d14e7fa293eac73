import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { asBrowserUser, type SandboxPlan } from './sandbox.js';

/**
 * One launch's folder (issue 34): Chromium's profile and HOME, owned by the browser's user, removed with the browser.
 *
 *   showreel-browser-<pid>-XXXXXX/  Showreel's user, 0711: the browser's user may pass through, not list or write
 *     chromium                  Showreel's user, 0700: the launcher (runs `setpriv … -- <chromium> "$@"`)
 *     home/                     the browser's user, 0700: HOME, the profile (home/profile), caches
 *
 * The launcher is not in a folder the browser's user can write: Showreel runs it, and a browser of another launch
 * (same user) must not be able to replace it.
 */
export interface BrowserHome {
  /** what puppeteer starts: the launcher when the browser runs as another user, else Chromium itself */
  executable: string;
  profile: string;
  env: NodeJS.ProcessEnv;
  remove(): Promise<void>;
}

/** The environment Chromium needs, and nothing else of Showreel's (no secrets). */
const passedThrough = ['PATH', 'LANG', 'LC_ALL', 'TZ', 'FONTCONFIG_PATH', 'FONTCONFIG_FILE', 'LD_LIBRARY_PATH', 'TMPDIR'];

export async function prepareBrowserHome(chromiumPath: string, plan: SandboxPlan): Promise<BrowserHome> {
  await removeOrphans();
  const root = await fs.mkdtemp(path.join(os.tmpdir(), `showreel-browser-${process.pid}-`));
  const remove = () => fs.rm(root, { recursive: true, force: true }).catch(() => undefined);
  try {
    const home = path.join(root, 'home');
    await fs.mkdir(home, { mode: 0o700 });
    const env: NodeJS.ProcessEnv = { HOME: home, XDG_CONFIG_HOME: path.join(home, '.config'), XDG_CACHE_HOME: path.join(home, '.cache') };
    for (const name of passedThrough) if (process.env[name] !== undefined) env[name] = process.env[name];
    let executable = chromiumPath;
    if (plan.user) {
      await fs.chmod(root, 0o711);
      await fs.chown(home, plan.user.uid, plan.user.gid);
      await makeExecutableByOthers(chromiumPath);
      executable = path.join(root, 'chromium');
      const command = asBrowserUser(plan, [chromiumPath]).map(shellQuote).join(' ');
      await fs.writeFile(executable, `#!/bin/sh\nexec ${command} "$@"\n`, { mode: 0o700 });
    }
    return { executable, profile: path.join(home, 'profile'), env, remove };
  } catch (error) {
    await remove();
    throw error;
  }
}

/**
 * Folders of launches whose process is gone: a worker killed with SIGKILL (or ended by SIGTERM without closing its
 * browser) never removes its own. The folder's name carries the launching process's PID.
 */
async function removeOrphans(): Promise<void> {
  const names = await fs.readdir(os.tmpdir()).catch(() => [] as string[]);
  for (const name of names) {
    const pid = Number(/^showreel-browser-(\d+)-/.exec(name)?.[1]);
    if (!pid || pid === process.pid || alive(pid)) continue;
    await fs.rm(path.join(os.tmpdir(), name), { recursive: true, force: true }).catch(() => undefined);
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * @sparticuz/chromium decompresses its binary with mode 0700 (its owner only). It is a public build, nothing
 * secret: other users may run it. When Showreel does not own it and others cannot run it, the launch fails and says
 * so (install it readable, or point CHROMIUM_PATH at one that is).
 */
async function makeExecutableByOthers(file: string): Promise<void> {
  const stat = await fs.stat(file);
  if ((stat.mode & 0o005) === 0o005) return;
  if (stat.uid !== process.getuid?.()) {
    throw new Error(`The browser's user cannot run ${file} (mode ${(stat.mode & 0o777).toString(8)}); make it readable and executable by others.`);
  }
  await fs.chmod(file, (stat.mode & 0o777) | 0o055);
}

function shellQuote(word: string): string {
  return `'${word.replaceAll("'", `'\\''`)}'`;
}
