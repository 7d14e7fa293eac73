import fs from 'node:fs/promises';
import path from 'node:path';
import { completeDemoJob, startDemoJob } from '../../src/demos/index.js';
import { inTransaction } from '../../src/platform/command.js';
import { mediaKey, variantMediaKey } from '../../src/platform/storage/index.js';
import type { TestApp } from './app.js';

/**
 * Issue 59 without recording anything: stands in for the worker finishing a demo's running job with a video and the
 * given aspect variants, each file a few bytes naming itself ("v1 video-9x16.mp4"), and the presentation it was made
 * with when given (as the worker reports a restyle's). Returns the version.
 */
export async function publishVariantVersion(app: TestApp, demoId: string, aspects: Array<'9:16' | '1:1'>, presentation?: object): Promise<number> {
  const [demo] = await app.sql<{ latest_job_id: string; latest_version: number }[]>`select latest_job_id, latest_version from demos where id = ${demoId}`;
  const version = demo!.latest_version + 1;
  const write = async (key: string) => {
    const file = path.join(app.dataDir, 'media', ...key.split('/'));
    await fs.mkdir(path.dirname(file), { recursive: true });
    await fs.writeFile(file, `v${version} ${key.split('/').at(-1)}`);
    return key;
  };
  const keys = {
    videoKey: await write(mediaKey(demoId, version, 'video', 'mp4')),
    thumbnailKey: await write(mediaKey(demoId, version, 'thumbnail', 'png')),
    gifKey: await write(mediaKey(demoId, version, 'gif', 'gif')),
  };
  const variants: Array<{ aspect: '9:16' | '1:1'; videoKey: string; gifKey: string; thumbnailKey: string }> = [];
  for (const aspect of aspects) {
    const slug = aspect.replace(':', 'x');
    variants.push({
      aspect,
      videoKey: await write(variantMediaKey(demoId, version, 'video', slug, 'mp4')),
      gifKey: await write(variantMediaKey(demoId, version, 'gif', slug, 'gif')),
      thumbnailKey: await write(variantMediaKey(demoId, version, 'thumbnail', slug, 'png')),
    });
  }
  await inTransaction(app.sql, async (tx) => {
    await startDemoJob(tx, demoId, demo!.latest_job_id, 1, { actor: 'pipeline' });
    await completeDemoJob(tx, { demoId, jobId: demo!.latest_job_id, ...keys, durationMs: 6000, actionScript: '{"steps":[]}', variants, ...(presentation ? { presentation: JSON.stringify(presentation) } : {}) }, { actor: 'pipeline' });
  });
  return version;
}
