import type { IncomingMessage, ServerResponse } from 'node:http';
import { findKeptDemoVersion, findPublicDemo } from '../../demos/index.js';
import { captionsVtt, chaptersVtt } from '../../pipeline/story-text/webvtt.js';
import type { TimedStory } from '../../pipeline/story-text/types.js';
import type { Services } from '../context.js';
import { sendError } from '../respond.js';

const UUID = '[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}';
const TRACK = new RegExp(`^/(chapters|captions)/(${UUID})\\.vtt$`);

/**
 * `/chapters/<id>.vtt` and `/captions/<id>.vtt` (issue 36): a demo's chapters and captions as WebVTT, public by
 * unguessable id like its video (media-routes.ts), with the same rules: plain, the version the demo shows (cached
 * briefly); `?v=N`, version N while its media are kept (cached for good: a version's story never changes), else 404.
 * Written from the stored story on each request (a few hundred bytes), so there are no files to keep in step with
 * the video's. CORS-open, as a `<track>` on another site's `<video crossorigin>` needs.
 */
export async function handleStoryTrack(services: Services, req: IncomingMessage, res: ServerResponse, path: string): Promise<void> {
  const match = TRACK.exec(path);
  if (!match) return sendError(res, 404, `No track at ${path}; tracks are /chapters/<demo id>.vtt and /captions/<demo id>.vtt.`);
  if (req.method !== 'GET' && req.method !== 'HEAD') return sendError(res, 405, `Use GET or HEAD for a track, not ${req.method}.`, { Allow: 'GET, HEAD' });
  const kind = match[1] as 'chapters' | 'captions';
  const demoId = match[2]!.toLowerCase();
  const v = new URL(req.url ?? '/', 'http://x').searchParams.get('v');
  const asked = v !== null && /^[1-9]\d{0,6}$/.test(v) ? Number(v) : null;
  const demo = await findPublicDemo(services.sql, demoId);
  if (!demo) return sendError(res, 404, 'This demo has no such track (yet).');
  const version = asked === null ? null : await findKeptDemoVersion(services.sql, demoId, asked);
  if (asked !== null && !version) return sendError(res, 404, `Version ${asked} of this demo does not exist or is no longer kept.`);
  const story = parseTimedStory(version ? (version.story ?? null) : (demo.story ?? null));
  if (!story) return sendError(res, 404, `This demo has no ${kind} (it was uploaded, or recorded before ${kind} existed).`);
  if (kind === 'captions' && story.captionsOff) return sendError(res, 404, story.captionsOff);
  const body = kind === 'chapters' ? chaptersVtt(story) : captionsVtt(story);
  res.writeHead(200, {
    'Content-Type': 'text/vtt; charset=utf-8',
    'Content-Length': Buffer.byteLength(body),
    'Cache-Control': version ? 'public, max-age=31536000, immutable' : 'public, max-age=300',
    'Access-Control-Allow-Origin': '*',
    'X-Content-Type-Options': 'nosniff',
  });
  res.end(req.method === 'HEAD' ? undefined : body);
}

function parseTimedStory(text: string | null): TimedStory | null {
  if (!text) return null;
  try {
    const story = JSON.parse(text) as TimedStory;
    return Array.isArray(story.chapters) && Array.isArray(story.captions) ? story : null;
  } catch {
    return null;
  }
}
