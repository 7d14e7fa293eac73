import { spawn } from 'node:child_process';

/**
 * Opens a URL in the user's browser when there is one to open: macOS `open`, Windows `start`, elsewhere
 * `xdg-open` only under a graphical session (DISPLAY or WAYLAND_DISPLAY). SSH sessions, CI and containers get
 * nothing opened; the URL is printed anyway. SHOWREEL_NO_BROWSER=1 turns it off. Never fails the caller.
 */
export function openBrowser(url: string, env: NodeJS.ProcessEnv = process.env): boolean {
  if (env.SHOWREEL_NO_BROWSER || env.CI) return false;
  const command =
    process.platform === 'darwin'
      ? ['open', url]
      : process.platform === 'win32'
        ? ['cmd', '/c', 'start', '""', url]
        : env.DISPLAY || env.WAYLAND_DISPLAY
          ? ['xdg-open', url]
          : null;
  if (!command) return false;
  try {
    const child = spawn(command[0]!, command.slice(1), { stdio: 'ignore', detached: true });
    child.on('error', () => undefined);
    child.unref();
    return true;
  } catch {
    return false;
  }
}
