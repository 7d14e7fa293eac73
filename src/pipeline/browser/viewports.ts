import type { Protocol } from 'puppeteer-core';
import type { Resolution, ViewportName } from '../types.js';

/**
 * How each project viewport is emulated. The page is laid out at a CSS viewport a real device of that kind has, and
 * `deviceScaleFactor` is chosen so that captured frames come out at the output resolution's pixel size (no resampling
 * of the capture):
 *
 * - desktop: 1440×810 CSS px (16:9, a common laptop width) → 1920×1080 at DPR 4/3, 1280×720 at DPR 8/9.
 * - tablet: 1180×664 CSS px, an iPad (10th gen / Air) in landscape cropped to 16:9 (1180×663.75, rounded) →
 *   1920×1080 at DPR 1080/664 (1.6265), 1280×720 at DPR 720/664 (1.0843).
 * - mobile: 390×844 CSS px, an iPhone in portrait, filling the video's height: frames are 499×1080 (1080p, DPR
 *   499/390) or 333×720 (720p, DPR 720/844): the compositor pads (or frames it in a device mockup) to 16:9. The width
 *   is odd; the compositor's padding makes the final even-sized 16:9 frame.
 *
 * The scale factor is the browser's own, not an emulated one: the pool launches Chromium with
 * `--force-device-scale-factor=<deviceScaleFactor>` (one browser per factor) and sets the page's viewport with no
 * scale override, because with an emulated factor (Emulation.setDeviceMetricsOverride) the CDP screencast delivers
 * frames at the CSS size and the encoder would upscale them. Chromium sizes the surface to the CSS size × the factor
 * rounded up (ignoring float error), so the factor is the largest one at which the CSS viewport fits in `frame`
 * (`min(frame.width / css.width, frame.height / css.height)`): one axis is exact, the other falls short by less
 * than a pixel and is rounded up to fill it (the tablet's width: 1919.3 → 1920), and the page keeps its CSS size.
 *
 * User agents are those of current real browsers (not HeadlessChrome, which many sites treat as a bot): Chrome on
 * Windows for desktop, with matching client hints; Safari on iPhone and on iPad (the "iPad; CPU OS" form Safari uses
 * in mobile mode, so sites serve their tablet layout). Safari sends no client hints, so none are set for those.
 */
export interface ViewportSpec {
  name: ViewportName;
  /** CSS pixels */
  width: number;
  height: number;
  /** The browser's scale factor for this viewport (a launch flag, see above); also the page's devicePixelRatio. */
  deviceScaleFactor: number;
  isMobile: boolean;
  hasTouch: boolean;
  isLandscape: boolean;
  userAgent: string;
  /** navigator.platform */
  platform: string;
  /** Sec-CH-UA-* and navigator.userAgentData; undefined for Safari, which has neither. */
  userAgentMetadata?: Protocol.Emulation.UserAgentMetadata;
  /** The pixel size screencast frames have: width × DPR by height × DPR, rounded up (see above). */
  frame: { width: number; height: number };
}

/** The Chrome major version of the @sparticuz/chromium build we ship; the pool passes the running browser's. */
export const DEFAULT_CHROME_MAJOR = 153;

export const outputSizes: Record<Resolution, { width: number; height: number }> = {
  '720p': { width: 1280, height: 720 },
  '1080p': { width: 1920, height: 1080 },
};

const cssSizes: Record<ViewportName, { width: number; height: number }> = {
  desktop: { width: 1440, height: 810 },
  tablet: { width: 1180, height: 664 },
  mobile: { width: 390, height: 844 },
};

// iOS 26 Safari freezes the OS part of its user agent at 18_x and reports its own version as Version/26.x.
const iPhoneUserAgent =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 18_7 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/26.5 Mobile/15E148 Safari/604.1';
const iPadUserAgent =
  'Mozilla/5.0 (iPad; CPU OS 18_7 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/26.5 Mobile/15E148 Safari/604.1';

function desktopUserAgent(chromeMajor: number): string {
  // Chrome's reduced user agent: the OS part is frozen and only the major version is real.
  return `Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/${chromeMajor}.0.0.0 Safari/537.36`;
}

function desktopMetadata(chromeMajor: number): Protocol.Emulation.UserAgentMetadata {
  const major = String(chromeMajor);
  const full = `${chromeMajor}.0.0.0`;
  return {
    brands: [
      { brand: 'Google Chrome', version: major },
      { brand: 'Chromium', version: major },
      { brand: 'Not/A)Brand', version: '24' },
    ],
    fullVersionList: [
      { brand: 'Google Chrome', version: full },
      { brand: 'Chromium', version: full },
      { brand: 'Not/A)Brand', version: '24.0.0.0' },
    ],
    fullVersion: full,
    platform: 'Windows',
    platformVersion: '19.0.0',
    architecture: 'x86',
    model: '',
    mobile: false,
    bitness: '64',
    wow64: false,
  };
}

/**
 * `frame`: the pixel size frames should have instead of the output's (the recording's size in a presentation's
 * window, captureSizeFor): frame-by-frame capture takes screenshots at the page's device size, so the browser's
 * factor is chosen to render at that size directly rather than render more pixels and scale them down.
 */
export function viewportFor(
  name: ViewportName,
  resolution: Resolution,
  options: { chromeMajor?: number; frame?: { width: number; height: number } } = {},
): ViewportSpec {
  const css = cssSizes[name];
  const output = options.frame ?? outputSizes[resolution];
  // Landscape viewports fill the output; the portrait phone fills the output height.
  const frame = name === 'mobile' ? { width: Math.round((css.width * output.height) / css.height), height: output.height } : { ...output };
  const deviceScaleFactor = Math.min(frame.width / css.width, frame.height / css.height);
  const chromeMajor = options.chromeMajor ?? DEFAULT_CHROME_MAJOR;
  switch (name) {
    case 'desktop':
      return {
        name, ...css, deviceScaleFactor, isMobile: false, hasTouch: false, isLandscape: true,
        userAgent: desktopUserAgent(chromeMajor), platform: 'Win32', userAgentMetadata: desktopMetadata(chromeMajor), frame,
      };
    case 'tablet':
      return { name, ...css, deviceScaleFactor, isMobile: true, hasTouch: true, isLandscape: true, userAgent: iPadUserAgent, platform: 'iPad', frame };
    case 'mobile':
      return { name, ...css, deviceScaleFactor, isMobile: true, hasTouch: true, isLandscape: false, userAgent: iPhoneUserAgent, platform: 'iPhone', frame };
  }
}
