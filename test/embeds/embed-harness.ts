import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import assert from 'node:assert/strict';
import { ffmpegBinaries } from '../../src/pipeline/encode/ffmpeg-binaries.js';
import type { TestApp } from '../helpers/app.js';
import { finishJob } from '../helpers/pipeline.js';

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, '../..');

/**
 * A customer's site for browser tests: serves the pages a test registers, on its own port. Reached as
 * http://127.0.0.1:<port> and http://localhost:<port>, it is two origins (two hosts) for the allowlist and CORS.
 */
export interface HostSite {
  port: number;
  origin(host: '127.0.0.1' | 'localhost'): string;
  page(pathname: string, html: string): void;
  close(): Promise<void>;
}

export async function startHostSite(): Promise<HostSite> {
  const pages = new Map<string, string>();
  const server = http.createServer((req, res) => {
    const body = pages.get((req.url ?? '/').split('?')[0]!);
    res.writeHead(body ? 200 : 404, { 'Content-Type': 'text/html; charset=utf-8' });
    res.end(body ?? 'not found');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    origin: (host) => `http://${host}:${port}`,
    page: (pathname, html) => void pages.set(pathname, html),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** A 6-second 640x360 H.264 test pattern with a thumbnail: long enough to pause and seek in. */
export async function makeDemoMedia(): Promise<{ video: string; thumbnail: string; cleanup(): Promise<void> }> {
  const { ffmpeg } = await ffmpegBinaries();
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'showreel-embed-media-'));
  const video = path.join(dir, 'video.mp4');
  const thumbnail = path.join(dir, 'thumb.png');
  const source = ['-f', 'lavfi', '-i', 'testsrc=size=640x360:rate=30'];
  await run(ffmpeg, ['-v', 'error', '-nostdin', '-y', ...source, '-t', '6', '-pix_fmt', 'yuv420p', '-c:v', 'libx264', '-preset', 'ultrafast', '-movflags', '+faststart', video]);
  await run(ffmpeg, ['-v', 'error', '-nostdin', '-y', ...source, '-frames:v', '1', thumbnail]);
  // A browser test picks these files in Chromium's file chooser, and Chromium runs as its own unprivileged user
  // (issue 34's sandbox), so they must be readable by others, not only by the root that made them.
  await fs.chmod(dir, 0o755);
  await Promise.all([video, thumbnail].map((file) => fs.chmod(file, 0o644)));
  return { video, thumbnail, cleanup: () => fs.rm(dir, { recursive: true, force: true }) };
}

/** Stands in for the worker: stores real media where the pipeline would and reports the job done. */
export async function completeWithMedia(app: TestApp, demoId: string, media: { video: string; thumbnail: string }): Promise<void> {
  const dir = path.join(app.dataDir, 'media', 'demos', demoId);
  await fs.mkdir(dir, { recursive: true });
  await fs.copyFile(media.video, path.join(dir, 'video.mp4'));
  await fs.copyFile(media.thumbnail, path.join(dir, 'thumb.png'));
  const [demo] = await app.sql<{ latest_job_id: string }[]>`select latest_job_id from demos where id = ${demoId}`;
  await finishJob(app.sql, demoId, demo!.latest_job_id);
}

/** The fenced blocks of docs/embedding.md in a language: the snippets a customer copies. */
export async function docSnippet(language: 'js' | 'python'): Promise<string> {
  const doc = await fs.readFile(path.join(root, 'docs/embedding.md'), 'utf8');
  const blocks = [...doc.matchAll(/```(\w+)\n([\s\S]*?)```/g)].filter((m) => m[1] === language).map((m) => m[2]!);
  const snippet = blocks.find((b) => b.includes('signedEmbedUrl') || b.includes('signed_embed_url'));
  assert.ok(snippet, `docs/embedding.md has a ${language} signing snippet`);
  return snippet;
}

/** Writes a snippet to a file and runs it as the docs say, with the payload as its argument; returns the URL it printed. */
export async function runSnippet(language: 'js' | 'python', env: Record<string, string>, payload: unknown): Promise<string> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'showreel-snippet-'));
  try {
    const file = path.join(dir, language === 'js' ? 'sign-embed.mjs' : 'sign_embed.py');
    await fs.writeFile(file, await docSnippet(language));
    const command = language === 'js' ? process.execPath : 'python3';
    const { stdout } = await run(command, [file, JSON.stringify(payload)], { env: { ...process.env, ...env } });
    return stdout.trim();
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}

