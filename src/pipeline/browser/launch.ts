import chromium from '@sparticuz/chromium';
import puppeteer, { type Browser } from 'puppeteer-core';
import { FRAME_CONTROL_FLAGS } from './frame-control.js';

/**
 * Chromium from the @sparticuz/chromium npm package (decompressed from the package on first use; nothing is
 * downloaded), or CHROMIUM_PATH. Its default SwiftShader GL flags make screencast capture 5–6× slower, so graphics
 * mode is off. Background networking, sync, component update and QUIC are disabled: this machine's network is
 * closed, and a recorder must not phone home.
 */
/**
 * Flags of @sparticuz/chromium (tuned for AWS Lambda) that Showreel must not pass: `--single-process` makes Chromium
 * crash as soon as an incognito context (one per job) opens a page; `--disable-web-security` and
 * `--allow-running-insecure-content` would let a recorded page read other origins' responses.
 */
const unwantedFlags = new Set(['--single-process', '--disable-web-security', '--allow-running-insecure-content']);

export interface LaunchOptions {
  executablePath?: string;
  /**
   * The browser-wide device scale factor (`--force-device-scale-factor`): pages then render, and the CDP screencast
   * captures, at CSS size × this factor, provided the page does not emulate a scale factor of its own (the pool
   * sets its viewports with deviceScaleFactor 0, no override). Default: Chromium's own (1 in headless mode).
   */
  deviceScaleFactor?: number;
  extraArgs?: string[];
}

export async function launchBrowser(options: LaunchOptions = {}): Promise<Browser> {
  const scale = options.deviceScaleFactor;
  if (scale !== undefined && !(Number.isFinite(scale) && scale > 0 && scale <= 10)) {
    throw new RangeError(`The device scale factor must be above 0 and at most 10, not ${scale}.`);
  }
  chromium.setGraphicsMode = false;
  const executablePath = options.executablePath ?? process.env.CHROMIUM_PATH ?? (await chromium.executablePath());
  return puppeteer.launch({
    executablePath,
    headless: 'shell',
    args: [
      ...chromium.args.filter((flag) => !unwantedFlags.has(flag)),
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
      ...(options.extraArgs ?? []),
    ],
    defaultViewport: null,
    protocolTimeout: 60_000,
  });
}
