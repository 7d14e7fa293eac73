import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const bin = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'bin', 'showreel.mjs');

export type CliChild = ChildProcess & { output: { stdout: string; stderr: string } };

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs `showreel …` as a person would: a child process of bin/showreel.mjs against `serviceUrl`, with its own
 * config directory, no browser and none of this process's SHOWREEL_* or DATABASE_URL settings. `kill()` stops the
 * ones still running (a test's `after`).
 */
export function cliLauncher(options: { cwd: () => string; configHome: () => string; serviceUrl: () => string }) {
  const children = new Set<CliChild>();
  const launch = (args: string[], env: Record<string, string> = {}): CliChild => {
    const base = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^SHOWREEL_|^DATABASE_URL$/.test(name)));
    const child = spawn(process.execPath, [bin, ...args], {
      cwd: options.cwd(),
      env: { ...base, XDG_CONFIG_HOME: options.configHome(), SHOWREEL_URL: options.serviceUrl(), SHOWREEL_NO_BROWSER: '1', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    }) as CliChild;
    children.add(child);
    child.output = { stdout: '', stderr: '' };
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (child.output.stdout += chunk));
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (child.output.stderr += chunk));
    child.once('exit', () => children.delete(child));
    return child;
  };
  const finished = (child: CliChild): Promise<CliResult> =>
    new Promise((resolve) => {
      if (child.exitCode !== null) resolve({ code: child.exitCode, ...child.output });
      else child.once('close', (code) => resolve({ code, ...child.output }));
    });
  return {
    launch,
    finished,
    run: (args: string[], env: Record<string, string> = {}) => finished(launch(args, env)),
    kill: () => {
      for (const child of children) child.kill('SIGKILL');
    },
  };
}
