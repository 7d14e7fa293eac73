import { spawn } from 'node:child_process';
import path from 'node:path';

/**
 * Records one flow exactly as a user would: `showreel demo URL "PROMPT" --out FILE --duration 10s` (the one-shot
 * CLI, 1080p, the default presentation), run as a child process so that every stage the CLI goes through (and any
 * option it gains) is the one measured. Loopback URLs are allowed for it (the sites are served on 127.0.0.1).
 */

const SHOWREEL = path.resolve(import.meta.dirname, '..', '..', 'bin', 'showreel.mjs');

export interface FlowRecording {
  video: string;
  /** the CLI's JSON summary (template, steps, warnings, …) */
  summary: Record<string, unknown>;
  wallS: number;
}

export async function recordFlow(url: string, prompt: string, out: string, duration: string): Promise<FlowRecording> {
  const started = Date.now();
  const args = [SHOWREEL, 'demo', url, prompt, '--out', out, '--duration', duration, '--resolution', '1080p'];
  const env = { ...process.env, SHOWREEL_ALLOW_PRIVATE_URLS: 'true', LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn' };
  const { code, stdout, stderr } = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve, reject) => {
    const child = spawn(process.execPath, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
    child.on('error', reject);
    child.on('close', (exit) => resolve({ code: exit, stdout: Buffer.concat(out).toString(), stderr: Buffer.concat(err).toString() }));
  });
  if (code !== 0) {
    const reason = stderr.trim().split('\n').filter(Boolean).slice(-2).join(' / ') || `exit ${code}`;
    throw new Error(`showreel demo failed: ${reason}`);
  }
  const summary = parseSummary(stdout);
  return { video: typeof summary.video === 'string' ? summary.video : out, summary, wallS: (Date.now() - started) / 1000 };
}

/** The CLI prints its summary as JSON on stdout (one line when piped; parsed whole first, in case it is indented). */
function parseSummary(stdout: string): Record<string, unknown> {
  const text = stdout.trim();
  try {
    return JSON.parse(text) as Record<string, unknown>;
  } catch {
    return JSON.parse(text.split('\n').at(-1) ?? '{}') as Record<string, unknown>;
  }
}
