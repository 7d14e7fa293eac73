/**
 * `npm run contact-sheet -- <demo id | video file> [--out file.png] [--columns N] [--rows N] [--tile-width PX]`:
 * a PNG grid of frames at even intervals through a video, each labelled with its time, for reviewing output.
 *
 * An existing file is used as is. Anything else is a demo id: the demo's current video (whoever owns it: this is
 * an operator tool) comes from the same database and storage as the server (DATABASE_URL, else the embedded
 * PostgreSQL of SHOWREEL_DATA_DIR; SHOWREEL_STORAGE) into a temp file. Default output:
 * `contact-sheet-<file name or demo id>.png` in the current directory.
 *
 * Prints the output path and exits 0; on failure one line on stderr and exit 1. Logs (warnings only, unless
 * LOG_LEVEL says otherwise) go to stderr.
 */
import { createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { parseArgs } from 'node:util';
import { findPublicDemo } from '../src/demos/index.js';
import { registerDomain } from '../src/domain.js';
import { renderContactSheet, type ContactSheetOptions } from '../src/pipeline/encode/contact-sheet.js';
import { ConfigError, loadConfig } from '../src/platform/config.js';
import { createLogger } from '../src/platform/logger.js';
import { openDatabase } from '../src/platform/open-database.js';
import { createStorage } from '../src/platform/storage/index.js';

const USAGE = 'Usage: npm run contact-sheet -- <demo id | video file> [--out file.png] [--columns N] [--rows N] [--tile-width PX]';
const DEMO_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Bad arguments: the message is followed by the usage, on the same line. */
class UsageError extends Error {}

async function main(argv: string[]): Promise<number> {
  const { target, out, options } = parseArguments(argv);
  const file = path.resolve(workingDirectory(), target);
  const exists = (await fs.stat(file).catch(() => null)) !== null;
  if (DEMO_ID.test(target) && !exists) {
    const demoId = target.toLowerCase();
    await withDemoVideo(demoId, (videoFile) => render(videoFile, outFile(out, demoId), options));
  } else {
    // A missing path or a directory is explained by renderContactSheet, in the same words as for any caller.
    await render(file, outFile(out, path.parse(file).name), options);
  }
  return 0;
}

/**
 * Where relative paths start: the directory the operator typed the command in. `npm run` moves scripts to the
 * package root and says where it was called from in INIT_CWD; run any other way, that is the process's own.
 */
function workingDirectory(): string {
  return (process.env.npm_lifecycle_event === 'contact-sheet' && process.env.INIT_CWD) || process.cwd();
}

function outFile(out: string | undefined, name: string): string {
  return path.resolve(workingDirectory(), out ?? `contact-sheet-${name}.png`);
}

function parseArguments(argv: string[]): { target: string; out: string | undefined; options: ContactSheetOptions } {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: { out: { type: 'string' }, columns: { type: 'string' }, rows: { type: 'string' }, 'tile-width': { type: 'string' } },
    });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const { positionals, values } = parsed;
  if (positionals.length !== 1) throw new UsageError(positionals.length === 0 ? 'Name a demo id or a video file.' : 'Name one demo id or video file.');
  return {
    target: positionals[0]!,
    out: values.out,
    options: {
      columns: wholeNumber('--columns', values.columns),
      rows: wholeNumber('--rows', values.rows),
      tileWidth: wholeNumber('--tile-width', values['tile-width']),
    },
  };
}

function wholeNumber(flag: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value)) throw new UsageError(`${flag} must be a whole number.`);
  return Number(value);
}

async function render(videoFile: string, out: string, options: ContactSheetOptions): Promise<void> {
  const sheet = await renderContactSheet(videoFile, out, options);
  if (!sheet.labelled) process.stderr.write('No font found: the tiles carry no time labels.\n');
  process.stdout.write(`${sheet.outFile}\n`);
}

/** Copies the demo's current video out of storage into a temp file, runs `use` on it, and removes the copy. */
async function withDemoVideo(demoId: string, use: (videoFile: string) => Promise<void>): Promise<void> {
  const config = loadConfig();
  const logger = createLogger(process.env.LOG_LEVEL ? config.LOG_LEVEL : 'warn', process.stderr);
  registerDomain();
  const database = await openDatabase(config, logger, { poolSize: 2 });
  let videoKey: string;
  try {
    const demo = await findPublicDemo(database.sql, demoId);
    if (!demo) throw new Error(`There is no demo ${demoId}.`);
    if (!demo.video_key) throw new Error(`Demo ${demoId} has no video yet (status: ${demo.status}).`);
    videoKey = demo.video_key;
  } finally {
    await database.close();
  }

  const source = await createStorage(config).read(videoKey);
  if (!source) throw new Error(`The video of demo ${demoId} is missing from storage (${videoKey}).`);
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'showreel-contact-sheet-'));
  try {
    const videoFile = path.join(dir, path.basename(videoKey));
    await pipeline(source, createWriteStream(videoFile));
    await use(videoFile);
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}

const code = await main(process.argv.slice(2)).catch((error: unknown) => {
  // A bad environment already explains itself, one line per variable.
  if (error instanceof ConfigError) process.stderr.write(`${error.message}\n`);
  else if (error instanceof UsageError) process.stderr.write(`${error.message} ${USAGE}\n`);
  else process.stderr.write(`Contact sheet failed: ${error instanceof Error ? error.message : String(error)}\n`);
  return 1;
});
process.exit(code);
