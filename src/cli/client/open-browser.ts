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

/**
 * The device login's approval link, when it is safe to open: http(s) on the very origin the CLI talks to. The link
 * comes from the server's answer, and a browser opens whatever it is given (file:, a custom scheme handler, another
 * site dressed as ours); a server that is not what it seems, or something in between, must not pick it (issue 34).
 */
export function openableVerificationUri(uri: string, baseUrl: string): string | null {
  const link = URL.parse(uri);
  const base = URL.parse(baseUrl);
  if (!link || !base || (link.protocol !== 'http:' && link.protocol !== 'https:')) return null;
  return link.origin === base.origin ? link.href : null;
}
