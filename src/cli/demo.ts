import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { templateIds } from '../demos/presentation.js';
import { createBrowserPool } from '../pipeline/browser/pool.js';
import { renderOutputs } from '../pipeline/encode/render-outputs.js';
import { createPlanner } from '../pipeline/plan/planner.js';
import { produceRecording, recordingCaptureSize } from '../pipeline/produce-recording.js';
import type { Config } from '../platform/config.js';
import type { Logger } from '../platform/logger.js';
import { checkUrl } from '../platform/network/ssrf-guard.js';
import { describeIssues } from '../platform/validation.js';
import { UsageError } from './arguments.js';

const input = z.object({
  url: z.url({ protocol: /^https?$/ }),
  prompt: z.string().trim().min(1).max(500),
  out: z.string().min(1).regex(/\.(mp4|webm)$/i, 'must end in .mp4 or .webm').default('demo.mp4'),
  template: z.enum(['auto', ...templateIds]).default('auto'),
  section: z.string().min(1).max(120).optional(),
  resolution: z.enum(['720p', '1080p']).default('1080p'),
  duration: z.enum(['5s', '10s', '30s']).default('10s'),
  viewport: z.enum(['desktop', 'tablet', 'mobile']).default('desktop'),
  mode: z.enum(['script', 'agent']).default('script'),
});

/**
 * `showreel demo <url> "<prompt>" [--out demo.mp4] [--template …] [--resolution …] [--duration …]`: the same
 * stages as the worker (analyse, plan, record, encode), locally, with no server and no database. Writes the
 * video, a GIF and a PNG thumbnail next to it; progress goes to stderr, a JSON summary to stdout.
 */
export async function runDemoCommand(positional: string[], options: Map<string, string | true>, config: Config, logger: Logger) {
  const parsed = input.safeParse({
    url: positional[0],
    prompt: positional[1],
    out: options.get('out') ?? undefined,
    template: options.get('template') ?? undefined,
    section: options.get('section') ?? undefined,
    resolution: options.get('resolution') ?? undefined,
    duration: options.get('duration') ?? undefined,
    viewport: options.get('viewport') ?? undefined,
    mode: options.get('mode') ?? undefined,
  });
  if (!parsed.success) {
    throw new UsageError(`${describeIssues(parsed.error.issues)}\nUsage: showreel demo <url> "<prompt>" [--out demo.mp4] [--template auto|${templateIds.join('|')}] [--resolution 720p|1080p] [--duration 5s|10s|30s]`);
  }
  const args = parsed.data;
  const allowPrivate = config.SHOWREEL_ALLOW_PRIVATE_URLS;
  const target = await checkUrl(args.url, { allowPrivate });
  if (!target.ok) throw new UsageError(`${args.url} cannot be recorded: ${target.reason}`);

  const out = path.resolve(args.out);
  const format = out.toLowerCase().endsWith('.webm') ? 'webm' : 'mp4';
  const started = Date.now();
  const say = (step: string, detail = ''): void => void process.stderr.write(`[${((Date.now() - started) / 1000).toFixed(1)}s] ${step}${detail ? ` ${detail}` : ''}\n`);
  const browsers = createBrowserPool({ size: 1, logger });
  const work = await fs.mkdtemp(path.join(os.tmpdir(), 'showreel-demo-'));
  try {
    say('loading', args.url);
    const captureSize = recordingCaptureSize(null, args.resolution, args.viewport);
    const produced = await browsers.withPage({ viewport: args.viewport, resolution: args.resolution, allowPrivate, captureSize }, async (page, ctx) => {
      await ctx.goto(args.url, { waitUntil: 'load', timeout: 30_000 });
      let lastRecording = -1;
      return produceRecording(
        page,
        {
          url: args.url, prompt: args.prompt, viewport: args.viewport, format, resolution: args.resolution,
          durationTarget: args.duration, mode: args.mode, template: { id: args.template, ...(args.section ? { sectionHint: args.section } : {}) },
          presentation: null,
          outFile: out,
          workDir: work,
        },
        createPlanner(config, { logger }),
        (step, fraction) => {
          if (step !== 'recording') {
            if (fraction === 0) say(step);
            return;
          }
          const percent = Math.floor(fraction * 10) * 10;
          if (percent !== lastRecording) say('recording', `${percent}%`);
          lastRecording = percent;
        },
      );
    });
    say('rendering', 'GIF and thumbnail');
    const outputs = await renderOutputs({ videoFile: out, durationMs: produced.recording.durationMs, gifWidth: 640 });
    say('ready');
    return {
      video: out,
      gif: outputs.gif,
      thumbnail: outputs.thumbnail,
      duration_ms: produced.recording.durationMs,
      template: produced.plan?.templateId ?? args.template,
      steps: produced.script.steps.length,
      capture_fps: Math.round(produced.recording.captureFps * 10) / 10,
    };
  } catch (error) {
    await fs.rm(out, { force: true });
    throw error;
  } finally {
    await browsers.close();
    await fs.rm(work, { recursive: true, force: true });
  }
}
