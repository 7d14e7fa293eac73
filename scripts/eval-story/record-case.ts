import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser } from 'puppeteer-core';
import { analysePage } from '../../src/pipeline/analyse/analyse-page.js';
import { recordScript } from '../../src/pipeline/record/recorder.js';
import type { ActionScript, InteractionTimeline } from '../../src/pipeline/types.js';
import { VIEWPORT } from './score.js';

/**
 * Records the script on the page as the worker does (analysis first: overlays dismissed and lazy content loaded,
 * then back to the top), into a throwaway 720p capture, and returns the timeline the recorder reported: where the
 * page was really scrolled and when, what was focused, where the cursor went.
 */
export async function recordCase(browser: Browser, url: string, script: ActionScript): Promise<InteractionTimeline> {
  const workDir = await mkdtemp(path.join(tmpdir(), 'eval-story-'));
  const page = await browser.newPage();
  try {
    await page.setViewport(VIEWPORT);
    await page.goto(url, { waitUntil: 'load', timeout: 30_000 });
    await analysePage(page, { timeoutMs: 30_000 });
    // As the worker does: the scrolling element's own scrollTo (a page may declare a scrollTo of its own).
    await page.evaluate(() => (document.scrollingElement ?? document.documentElement).scrollTo({ top: 0, left: 0, behavior: 'instant' }));
    const recording = await recordScript(page, script, { format: 'capture', resolution: '720p', outFile: path.join(workDir, 'clean.mkv') });
    return recording.timeline;
  } finally {
    await page.close();
    await rm(workDir, { recursive: true, force: true });
  }
}
