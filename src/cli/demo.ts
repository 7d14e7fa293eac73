import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { type AspectRatio, aspectRatios, type Presentation, templateIds } from '../demos/presentation.js';
import type { Config } from '../platform/config.js';
import { AppError } from '../platform/errors.js';
import type { Logger } from '../platform/logger.js';
import { describeIssues } from '../platform/validation.js';
import { type Parsed, UsageError, stringOption } from './command.js';
import type { ServiceCommand } from './service-command.js';
import { SITE_ACCESS_HELP, SITE_ACCESS_OPTIONS, SITE_ACCESS_USAGE, siteAccessFromOptions } from './site-access-options.js';
import { NARRATION_HELP, NARRATION_OPTIONS, NARRATION_USAGE, narrationFromOptions } from './narration-options.js';

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
  // Issue 59: one frame or several, comma-separated; the first is --out's, the others go beside it (demo-9x16.mp4).
  aspect: z
    .string()
    .default('16:9')
    .transform((value) => [...new Set(value.split(',').map((part) => part.trim().replace(/x/i, ':')))])
    .pipe(z.array(z.enum(aspectRatios)).min(1)),
});

const USAGE = `demo URL "PROMPT" [--out demo.mp4] [--template auto|${templateIds.join('|')}] [--section S] [--resolution 720p|1080p] [--duration 5s|10s|30s] [--viewport desktop|tablet|mobile] [--mode script|agent] [--aspect 16:9|9:16|1:1[,…]] ${SITE_ACCESS_USAGE} ${NARRATION_USAGE}`;

/**
 * `showreel demo <url> "<prompt>" [--out demo.mp4] [--template …] [--resolution …] [--duration …]`: the same
 * stages as the worker (analyse, plan, record, encode), locally, with no server and no database. Writes the
 * video, a GIF and a PNG thumbnail next to it; progress goes to stderr, a JSON summary to stdout (with `warnings`:
 * what the prompt asked for that the page lacks, also said on stderr).
 */
export const demoCommand: ServiceCommand = {
  name: 'demo',
  local: true,
  summary: 'One demo, locally, without a server (video, GIF and thumbnail)',
  usage: USAGE,
  help: [
    '--out FILE       the video, .mp4 or .webm (default: demo.mp4); the GIF and PNG go next to it',
    '--template T     the presentation template (default: auto)',
    '--section S      the section of the page to show',
    '--resolution R   720p or 1080p (default: 1080p)',
    '--duration D     5s, 10s or 30s (default: 10s)',
    '--viewport V     desktop, tablet or mobile (default: desktop)',
    '--mode M         script or agent (default: script)',
    '--aspect A       16:9, 9:16 or 1:1, or several comma-separated (default: 16:9): the first is --out\'s frame, each',
    '                 other is made from the same recording beside it (demo-9x16.mp4, .gif, .png)',
    ...SITE_ACCESS_HELP,
    ...NARRATION_HELP,
  ],
  options: {
    ...Object.fromEntries(['out', 'template', 'section', 'resolution', 'duration', 'viewport', 'mode', 'aspect'].map((name) => [name, { type: 'string' as const }])),
    ...SITE_ACCESS_OPTIONS,
    ...NARRATION_OPTIONS,
  },
  positionals: { min: 2, max: 2 },
  async run(parsed, { config, logger, print }) {
    print(await recordDemo(parsed, config, logger));
  },
};

async function recordDemo(parsedWords: Parsed, config: Config, logger: Logger) {
  const option = (name: string) => stringOption(parsedWords, name);
  const parsed = input.safeParse({
    url: parsedWords.positionals[0],
    prompt: parsedWords.positionals[1],
    out: option('out'),
    template: option('template'),
    section: option('section'),
    resolution: option('resolution'),
    duration: option('duration'),
    viewport: option('viewport'),
    mode: option('mode'),
    aspect: option('aspect'),
  });
  if (!parsed.success) throw new UsageError(`${describeIssues(parsed.error.issues)}\nUsage: showreel ${USAGE}`);
  const args = parsed.data;
  const access = await siteAccessFromOptions(parsedWords);
  const allowSubmit = parsedWords.values['allow-submit'] === true;
  const narration = narrationFromOptions(parsedWords, config.SHOWREEL_SPEECH);
  // The pipeline (Chromium, ffmpeg) loads only for a real recording, not for --help or bad usage.
  const [{ createBrowserPool }, { renderOutputs }, { createPlanner }, { pageWorkBudgetMs, produceRecording, recordingCaptureSize }, { checkUrl }, { enterSite, assertSignedIn }, { createSpeechEngine }] = await Promise.all([
    import('../pipeline/browser/pool.js'),
    import('../pipeline/encode/render-outputs.js'),
    import('../pipeline/plan/planner.js'),
    import('../pipeline/produce-recording.js'),
    import('../platform/network/ssrf-guard.js'),
    import('../pipeline/browser/site-access.js'),
    import('../pipeline/narration/speech.js'),
  ]);
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
    const timeoutMs = pageWorkBudgetMs(args.duration, args.aspect.length - 1);
    const produced = await browsers.withPage({ viewport: args.viewport, resolution: args.resolution, allowPrivate, captureSize, timeoutMs }, async (page, ctx) => {
      // Issue 56: signed in first, off camera; a sign-in that does not work is said as a sentence (exit 1).
      await asSentence(async () => {
        if (access) say('signing in', access.kind === 'cookies' ? `with ${access.cookies.length} cookie${access.cookies.length === 1 ? '' : 's'}` : `as ${access.username}`);
        await enterSite(page, access, args.url, async (url, name) => {
          const response = await ctx.goto(url, { waitUntil: 'load', timeout: 30_000 });
          if (response && response.status() >= 400) throw new AppError(400, `The ${name} answered HTTP ${response.status()}.`);
        });
        await ctx.goto(args.url, { waitUntil: 'load', timeout: 30_000 });
        await assertSignedIn(page, access, args.url);
      });
      let lastRecording = -1;
      return produceRecording(
        page,
        {
          url: args.url, prompt: args.prompt, viewport: args.viewport, format, resolution: args.resolution,
          durationTarget: args.duration, mode: args.mode, template: { id: args.template, ...(args.section ? { sectionHint: args.section } : {}) },
          // 16:9 alone is the presentation as it always was (null), so that video stays what it was.
          presentation: withAspect(narration, args.aspect),
          aspect: args.aspect[0]!,
          outFile: out,
          workDir: work,
          allowSubmit,
          ...(narration ? { speech: createSpeechEngine(config) } : {}),
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
    const outputs = await renderOutputs({ videoFile: out, durationMs: produced.recording.durationMs, gifWidth: 640, gif: produced.composed.gif, thumbnail: produced.composed.thumbnail });
    say('ready');
    // Issue 55: what the prompt asked for that the page lacks, on stderr with the progress, and in the summary.
    for (const warning of produced.warnings) say('warning', warning);
    return {
      video: out,
      gif: outputs.gif,
      thumbnail: outputs.thumbnail,
      duration_ms: produced.recording.durationMs,
      template: produced.plan?.templateId ?? args.template,
      steps: produced.script.steps.length,
      capture_fps: Math.round(produced.recording.captureFps * 10) / 10,
      warnings: produced.warnings,
      // Issue 59: each line as spoken, and any left unsaid, when --narrate.
      ...(produced.story?.narration ? { narration: { voice: produced.story.narration.voice, lines: produced.story.narration.lines.map((line) => ({ text: line.text, start_ms: line.startMs, end_ms: line.endMs })), unsaid: produced.story.narration.unsaid } } : {}),
      // Issue 59: the other frames, made from the same recording.
      ...(produced.composed.variants.length > 0
        ? { aspect: args.aspect[0], variants: produced.composed.variants.map((v) => ({ aspect: v.aspect, video: v.outFile, gif: v.gif?.file ?? null, thumbnail: v.thumbnail?.file ?? null })) }
        : args.aspect[0] !== '16:9' ? { aspect: args.aspect[0] } : {}),
    };
  } catch (error) {
    await fs.rm(out, { force: true });
    throw error;
  } finally {
    await browsers.close();
    await fs.rm(work, { recursive: true, force: true });
  }
}

/** A job's failure (a sign-in that did not work) printed as its sentence, not logged as a crash. */
async function asSentence(step: () => Promise<void>): Promise<void> {
  try {
    await step();
  } catch (error) {
    if (error instanceof Error && error.name === 'PermanentJobError') throw new AppError(400, error.message);
    throw error;
  }
}

/**
 * The one-shot demo's presentation: narration when asked (`--narrate`), and the cuts when more than 16:9 alone; null
 * when neither, so the video is the one it always was.
 */
function withAspect(narration: Presentation | null, aspect: AspectRatio[]): Presentation | null {
  const cuts = aspect.length === 1 && aspect[0] === '16:9' ? null : { aspect };
  return narration || cuts ? { ...(narration ?? {}), ...(cuts ?? {}) } : null;
}
