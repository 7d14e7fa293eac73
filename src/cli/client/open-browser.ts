import open from 'open';

/**
 * Opens a URL in the user's browser when there is one to open, through `open` (which knows macOS, Windows, WSL and
 * the Linux desktops). Not in CI, not over SSH or in a container without a graphical session, and never with
 * SHOWREEL_NO_BROWSER=1: the URL is printed anyway, so nothing is lost. Never fails the caller.
 */
export function openBrowser(url: string, env: NodeJS.ProcessEnv = process.env): boolean {
  if (env.SHOWREEL_NO_BROWSER || env.CI || env.SSH_CONNECTION) return false;
  if (process.platform === 'linux' && !env.DISPLAY && !env.WAYLAND_DISPLAY) return false;
  open(url, { wait: false })
    .then((child) => child.on('error', () => undefined))
    .catch(() => undefined);
  return true;
}
