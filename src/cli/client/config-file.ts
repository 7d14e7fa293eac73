import { constants as fsConstants } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

/** What `showreel login` keeps: the service and the key it got for it. */
export interface StoredLogin {
  base_url: string;
  key: string;
  key_id: string;
}

/** $XDG_CONFIG_HOME/showreel/config.json, ~/.config/… when XDG_CONFIG_HOME is unset (XDG Base Directory spec). */
export function configPath(env: NodeJS.ProcessEnv = process.env): string {
  const base = env.XDG_CONFIG_HOME && path.isAbsolute(env.XDG_CONFIG_HOME) ? env.XDG_CONFIG_HOME : path.join(os.homedir(), '.config');
  return path.join(base, 'showreel', 'config.json');
}

export async function readLogin(): Promise<StoredLogin | null> {
  try {
    const parsed = JSON.parse(await fs.readFile(configPath(), 'utf8')) as Partial<StoredLogin>;
    return typeof parsed.key === 'string' && typeof parsed.key_id === 'string' && typeof parsed.base_url === 'string' ? (parsed as StoredLogin) : null;
  } catch {
    return null;
  }
}

/** The file holds a live key: readable by its owner only (0600), in a directory only its owner can list (0700). */
export async function writeLogin(login: StoredLogin): Promise<string> {
  const file = configPath();
  await fs.mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
  const temporary = `${file}.${process.pid}.tmp`;
  await fs.writeFile(temporary, `${JSON.stringify(login, null, 2)}\n`, { mode: 0o600 });
  // The mode given to writeFile is masked by the umask; chmod is not.
  await fs.chmod(temporary, 0o600);
  await fs.rename(temporary, file);
  return file;
}

/** Why a key could not be kept in the config directory (made 0700 if need be), or null when it can. */
export async function configDirectoryProblem(): Promise<string | null> {
  const directory = path.dirname(configPath());
  try {
    await fs.mkdir(directory, { recursive: true, mode: 0o700 });
    await fs.access(directory, fsConstants.W_OK);
    return null;
  } catch (error) {
    return `Cannot keep a key in ${directory} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}). Set XDG_CONFIG_HOME to a writable directory.`;
  }
}

export async function forgetLogin(): Promise<void> {
  await fs.rm(configPath(), { force: true });
}
