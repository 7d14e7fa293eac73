import fs from 'node:fs/promises';
import path from 'node:path';
import { completeDemoJob, startDemoJob } from '../../src/demos/index.js';
import { inTransaction } from '../../src/platform/command.js';
import { mediaKey } from '../../src/platform/storage/index.js';
import type { TimedStory } from '../../src/pipeline/story-text/types.js';
import type { TestApp } from './app.js';

/**
 * Chapters and captions (issue 36) without recording anything: stands in for the worker finishing a demo's running
 * job with a story, the way produce-recording hands one over (`DemoJobSucceeded.story`). The version's media are
 * the given files (a real video for a browser to play), else a few bytes that name the version.
 */
export async function publishStoryVersion(
  app: TestApp,
  demoId: string,
  story: TimedStory | null,
  media: { video: string; thumbnail: string } | null = null,
): Promise<number> {
  const [demo] = await app.sql<{ latest_job_id: string; latest_version: number }[]>`select latest_job_id, latest_version from demos where id = ${demoId}`;
  const version = demo!.latest_version + 1;
  const keys = { videoKey: mediaKey(demoId, version, 'video', 'mp4'), thumbnailKey: mediaKey(demoId, version, 'thumbnail', 'png'), gifKey: mediaKey(demoId, version, 'gif', 'gif') };
  const sources: Record<keyof typeof keys, string | null> = { videoKey: media?.video ?? null, thumbnailKey: media?.thumbnail ?? null, gifKey: null };
  for (const [name, key] of Object.entries(keys) as Array<[keyof typeof keys, string]>) {
    const file = path.join(app.dataDir, 'media', ...key.split('/'));
    await fs.mkdir(path.dirname(file), { recursive: true });
    const source = sources[name];
    if (source) await fs.copyFile(source, file);
    else await fs.writeFile(file, `version ${version}`);
  }
  await inTransaction(app.sql, async (tx) => {
    await startDemoJob(tx, demoId, demo!.latest_job_id, 1, { actor: 'pipeline' });
    await completeDemoJob(
      tx,
      { demoId, jobId: demo!.latest_job_id, ...keys, durationMs: 6000, actionScript: '{"steps":[]}', story: story ? JSON.stringify(story) : null },
      { actor: 'pipeline' },
    );
  });
  return version;
}

/** A story of a 6-second demo: three chapters and two captions, in English. */
export function sampleStory(overrides: Partial<TimedStory> = {}): TimedStory {
  return {
    language: 'en',
    chapters: [
      { title: 'Acme', startMs: 0, endMs: 2000 },
      { title: 'Pricing', startMs: 2000, endMs: 4000 },
      { title: 'What customers say', startMs: 4000, endMs: 6000 },
    ],
    captions: [
      { startMs: 500, endMs: 1900, lines: ['Acme: invoices in minutes'], avoid: null },
      { startMs: 2100, endMs: 3900, lines: ['Pricing: from $9 to $49 a month'], avoid: null },
    ],
    captionsOff: null,
    ...overrides,
  };
}
