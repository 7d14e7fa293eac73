import fs from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import type { TestApp, TestUser } from '../helpers/app.js';
import { makeDemoMedia } from '../embeds/embed-harness.js';

/** A browser's user agent: beacons from anything else (curl, HeadlessChrome) are not counted. */
export const BROWSER_AGENT = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0.0.0 Safari/537.36';

/** A ready demo of the user's (an upload of a 6 s test video: no recording needed). */
export async function readyDemo(app: TestApp, user: TestUser): Promise<{ projectId: string; demoId: string }> {
  const project = await app.api('/api/v1/projects', { key: user.key, body: { name: 'Analytics', url: 'https://acme.example/' } });
  const media = await makeDemoMedia();
  try {
    const upload = await fetch(`${app.url}/api/v1/demos/local-upload?project_id=${project.body.id}&prompt=Watch%20me`, {
      method: 'POST',
      headers: { authorization: `Bearer ${user.key}`, 'content-type': 'video/mp4' },
      body: await fs.readFile(media.video),
    });
    const demoId = ((await upload.json()) as { id: string }).id;
    return { projectId: project.body.id, demoId };
  } finally {
    await media.cleanup();
  }
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
