import { randomBytes } from 'node:crypto';
import type { TestApp, TestUser } from '../helpers/app.js';
import { publishStoryVersion, sampleStory } from '../helpers/story-demo.js';

/** A browser's user agent: beacons from anything else (curl, HeadlessChrome) are not counted. */
export const BROWSER_AGENT = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0.0.0 Safari/537.36';

/**
 * A demo whose version the worker made, stood in for: no media to play, but the chapters its story names, which the
 * owner's drop-off per chapter is read by (a chapter beacon for any other index is not ours to count).
 */
export async function demoWithChapters(app: TestApp, user: TestUser, titles: string[]): Promise<string> {
  const project = await app.api('/api/v1/projects', { key: user.key, body: { name: 'Analytics', url: 'https://acme.example/' } });
  const demoId = (await app.api('/api/v1/demos', { key: user.key, body: { project_id: project.body.id, prompt: 'Watch me', duration_target: '5s' } })).body.id as string;
  const chapters = titles.map((title, i) => ({ title, startMs: i * 1000, endMs: (i + 1) * 1000 }));
  await publishStoryVersion(app, demoId, sampleStory({ chapters }));
  return demoId;
}

export const newViewId = () => randomBytes(16).toString('hex');

/** POST /api/v1/beacon as sendBeacon sends a string: text/plain, from a browser. */
export async function sendBeacon(app: TestApp, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${app.url}/api/v1/beacon`, {
    method: 'POST',
    headers: { 'content-type': 'text/plain;charset=UTF-8', 'user-agent': BROWSER_AGENT, ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

/** The analytics of a demo once `until` holds (beacons are written within a second), or the last answer. */
export async function analyticsWhen(app: TestApp, key: string, demoId: string, until: (body: any) => boolean, query = ''): Promise<any> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const response = await app.api(`/api/v1/demos/${demoId}/analytics${query}`, { key });
    if (response.status !== 200) throw new Error(`analytics: HTTP ${response.status} ${response.text}`);
    if (until(response.body) || Date.now() > deadline) return response.body;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** Beacons stored for a demo, straight from the table (what a flush wrote). */
export async function storedBeacons(app: TestApp, demoId: string): Promise<number> {
  const [row] = await app.sql<{ n: number }[]>`select count(*)::int as n from view_beacons where demo_id = ${demoId}`;
  return row!.n;
}
