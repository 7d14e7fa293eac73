import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before } from 'node:test';
import type { Browser } from 'puppeteer-core';
import { launchBrowser } from '../../src/pipeline/browser/launch.js';
import { createBrowserPool, type BrowserPool } from '../../src/pipeline/browser/pool.js';
import { viewportFor } from '../../src/pipeline/browser/viewports.js';
import { recordingCaptureSize } from '../../src/pipeline/produce-recording.js';
import { createPlanner } from '../../src/pipeline/plan/planner.js';
import { startFixtureServer, type FixtureServer } from './fixture-server.js';

export interface RecordingRig {
  sites: FixtureServer;
  browsers: BrowserPool;
  /** a throwaway folder for the videos */
  work: string;
}

/** The offline heuristic planner the recorded tests plan with (no model is reached). */
export const heuristicPlanner = () =>
  createPlanner({ SHOWREEL_PLANNER: 'heuristic', OPENAI_API_KEY: undefined, OPENAI_BASE_URL: 'http://127.0.0.1:1', OPENAI_MODEL: 'none' });

/**
 * What a test that records fixture pages through the pipeline needs, set up before its tests and torn down after:
 * the fixture server, a one-browser pool and a work folder. Call inside a `describe`; read the fields in tests.
 */
export function recordingRig(prefix: string): RecordingRig {
  const rig = {} as RecordingRig;
  before(async () => {
    rig.sites = await startFixtureServer();
    rig.browsers = createBrowserPool({ size: 1 });
    rig.work = await fs.mkdtemp(path.join(os.tmpdir(), prefix));
  });
  after(async () => {
    await rig.browsers?.close();
    await rig.sites?.close();
    if (rig.work) await fs.rm(rig.work, { recursive: true, force: true });
  });
  return rig;
}

export interface CaptureRig {
  sites: FixtureServer;
  /** a browser as a job's: the scale factor at which the desktop viewport renders at its size in the default window */
  browser: Browser;
  /** the fixture site's address */
  url: string;
  /** a throwaway folder for the captures and videos */
  work: string;
}

/**
 * What a test that records a fixture site frame by frame, without the pipeline around it, needs: the fixture server,
 * a browser launched as a job's for a 720p desktop recording, and a work folder. Call inside a `describe`.
 */
export function captureRig(prefix: string, site: string): CaptureRig {
  const rig = {} as CaptureRig;
  before(async () => {
    rig.work = await fs.mkdtemp(path.join(os.tmpdir(), prefix));
    rig.sites = await startFixtureServer();
    rig.url = rig.sites.url(site);
    const viewport = viewportFor('desktop', '720p', { frame: recordingCaptureSize(null, '720p', 'desktop') });
    rig.browser = await launchBrowser({ deviceScaleFactor: viewport.deviceScaleFactor, allowPrivate: true }); // the fixture is on loopback
  });
  after(async () => {
    await rig.browser?.close();
    await rig.sites?.close();
    if (rig.work) await fs.rm(rig.work, { recursive: true, force: true });
  });
  return rig;
}
