import chromium from '@sparticuz/chromium';
import puppeteer, { type Browser } from 'puppeteer-core';
import type { Logger } from '../../platform/logger.js';
import { startEgressProxy, type EgressProxy } from '../../platform/network/egress-proxy.js';
import { FRAME_CONTROL_FLAGS } from './frame-control.js';
import { announceSandbox, sandboxRefused, type SandboxPlan } from './sandbox.js';
import { prepareBrowserHome, type BrowserHome } from './browser-home.js';

/**
 * Chromium from the @sparticuz/chromium npm package (decompressed from the package on first use; nothing is
 * downloaded), or CHROMIUM_PATH. Its default SwiftShader GL flags make screencast capture 5–6× slower, so graphics
 * mode is off. Background networking, sync, component update and QUIC are disabled: this machine's network is
 * closed, and a recorder must not phone home.
 */
/**
 * Flags of @sparticuz/chromium (tuned for AWS Lambda) that Showreel must not pass: `--single-process` makes Chromium
 * crash as soon as an incognito context (one per job) opens a page; `--disable-web-security` and
 * `--allow-running-insecure-content` would let a recorded page read other origins' responses; `--no-sandbox`,
 * `--no-zygote` and `--disable-site-isolation-trials` turn off the sandbox and site isolation (issue 34): the
 * sandbox comes back whenever sandbox.ts finds the kernel allows it, and site isolation always (it costs no
 * measurable capture time: see docs/decisions.md).
 */
const unwantedFlags = new Set([
  '--single-process',
  '--disable-web-security',
  '--allow-running-insecure-content',
  '--no-sandbox',
  '--no-zygote',
  '--disable-site-isolation-trials',
]);
/** Features @sparticuz/chromium disables that Showreel keeps: site isolation (one renderer process per site). */
const keptFeatures = new Set(['IsolateOrigins', 'site-per-process']);

/** @sparticuz/chromium's flags, less the unwanted ones and with site isolation left on. */
export function baseFlags(): string[] {
  return chromium.args
    .filter((flag) => !unwantedFlags.has(flag))
    .flatMap((flag) => {
      if (!flag.startsWith('--disable-features=')) return [flag];
      const features = flag.slice('--disable-features='.length).split(',').filter((name) => !keptFeatures.has(name));
      return features.length > 0 ? [`--disable-features=${features.join(',')}`] : [];
    });
}

export interface LaunchOptions {
  executablePath?: string;
  /**
   * The browser-wide device scale factor (`--force-device-scale-factor`): pages then render, and the CDP screencast
   * captures, at CSS size × this factor, provided the page does not emulate a scale factor of its own (the pool
   * sets its viewports with deviceScaleFactor 0, no override). Default: Chromium's own (1 in headless mode).
   */
  deviceScaleFactor?: number;
  extraArgs?: string[];
  /**
   * The first policy of the browser's egress proxy (default: private addresses refused). The pool sets each job's
   * policy itself; direct users (tests recording fixture sites on loopback) pass true.
   */
  allowPrivate?: boolean;
  /** Where the sandbox's state is told (once per process: sandboxed or not, and why not). */
  logger?: Logger;
}

/**
 * Every browser gets an egress proxy of its own (see egress-proxy.ts): all of Chromium's connections go through it,
 * including the ones no page-level hook sees (speculation-rules prefetch and prerender, WebRTC TURN over TCP).
 * `<-loopback>` removes Chromium's implicit bypass of localhost and 127.0.0.1, so loopback is checked like the rest.
 * WebRTC may use UDP only through a proxy, that is never (an HTTP proxy carries no UDP): no host or server-reflexive
 * candidates, and TURN only over TCP/TLS, through the proxy. The proxy closes with the browser.
 */
const egressProxies = new WeakMap<Browser, EgressProxy>();

/** The egress proxy launchBrowser started for this browser; undefined for a browser launched otherwise. */
export function egressProxyOf(browser: Browser): EgressProxy | undefined {
  return egressProxies.get(browser);
}

export async function launchBrowser(options: LaunchOptions = {}): Promise<Browser> {
  const scale = options.deviceScaleFactor;
  if (scale !== undefined && !(Number.isFinite(scale) && scale > 0 && scale <= 10)) {
    throw new RangeError(`The device scale factor must be above 0 and at most 10, not ${scale}.`);
  }
  chromium.setGraphicsMode = false;
  const executablePath = options.executablePath ?? process.env.CHROMIUM_PATH ?? (await chromium.executablePath());
  let plan = announceSandbox(options.logger);
  const proxy = await startEgressProxy({ allowPrivate: options.allowPrivate ?? false });
  let browser: Browser | undefined;
  let home: BrowserHome | undefined;
  try {
    home = await prepareBrowserHome(executablePath, plan);
    try {
      browser = await launchChromium(home, plan, proxy, scale, options.extraArgs ?? []);
    } catch (error) {
      if (!plan.sandbox || !refusedSandbox(error)) throw error;
      // The namespaces probe passed but Chromium still would not start sandboxed (seccomp, a policy the probe does
      // not see): run without, and say so (or fail, with SHOWREEL_BROWSER_SANDBOX=require).
      plan = sandboxRefused(String((error as Error).message).split('\n').find((line) => /sandbox/i.test(line)) ?? 'unknown', options.logger);
      browser = await launchChromium(home, plan, proxy, scale, options.extraArgs ?? []);
    }
  } catch (error) {
    await proxy.close();
    await home?.remove();
    throw error;
  }
  const launched = browser;
  egressProxies.set(launched, proxy);
  launched.once('disconnected', () => {
    void proxy.close();
    // The profile goes with the browser; wait for its processes to exit so none writes into a folder being removed.
    void waitForExit(launched).then(() => home?.remove());
  });
  return launched;
}

/** Chromium's own words when it cannot start sandboxed ("No usable sandbox!", a zygote or namespace failure). */
function refusedSandbox(error: unknown): boolean {
  return /sandbox|zygote|namespace/i.test(String((error as Error)?.message ?? error));
}

async function waitForExit(browser: Browser): Promise<void> {
  const child = browser.process();
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  await new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, 10_000);
    child.once('exit', () => (clearTimeout(timer), resolve()));
  });
}

function launchChromium(home: BrowserHome, plan: SandboxPlan, proxy: EgressProxy, scale: number | undefined, extraArgs: string[]): Promise<Browser> {
  return puppeteer.launch({
    executablePath: home.executable,
    headless: 'shell',
    // A profile of this launch's own, in a folder the browser's user owns (puppeteer's default is made by Showreel's
    // user, which an unprivileged browser could not write).
    userDataDir: home.profile,
    // Chromium gets only what it needs from the environment: not the master key, the database password or any API key.
    env: home.env,
    args: [
      ...baseFlags(),
      // No setuid helper ships with @sparticuz/chromium: the sandbox is the namespace one, or none.
      ...(plan.sandbox ? [] : ['--no-sandbox', '--no-zygote']),
      // Site isolation: each site's frames in a renderer of their own, so a page cannot read another site's memory
      // (Spectre) through a frame it embeds. The headless shell does not turn it on by itself (measured: a
      // cross-site iframe shared its page's renderer until this flag).
      '--site-per-process',
      '--disable-background-networking',
      '--disable-sync',
      '--disable-component-update',
      '--disable-quic',
      '--no-first-run',
      '--mute-audio',
      '--hide-scrollbars',
      // No popups or new tabs (window.open returns null, target=_blank does nothing): a demo is one tab, and a new
      // tab would escape the job page's SSRF request guard.
      '--block-new-web-contents',
      ...(scale === undefined ? [] : [`--force-device-scale-factor=${scale}`]),
      // So the recorder can render and capture a page frame by frame (frame-control.ts); other pages paint as usual.
      ...FRAME_CONTROL_FLAGS,
      `--proxy-server=${proxy.url}`,
      '--proxy-bypass-list=<-loopback>',
      '--force-webrtc-ip-handling-policy=disable_non_proxied_udp',
      ...extraArgs,
    ],
    defaultViewport: null,
    protocolTimeout: 60_000,
    // CDP over the worker's pipe, not a WebSocket: when the worker dies, even by SIGKILL, the pipe closes and
    // Chromium (in a process group of its own) exits with it instead of running on as an orphan (issue 15).
    pipe: true,
    // The process's signals are its own: puppeteer's SIGTERM handler closes the browser and keeps the process
    // alive, so a test file the runner timed out (SIGTERM) lived on and the whole test run hung behind it. The
    // service shuts its pool down on SIGTERM itself (cli/service.ts), and the pipe takes Chromium down otherwise.
    handleSIGINT: false,
    handleSIGTERM: false,
    handleSIGHUP: false,
  });
}
