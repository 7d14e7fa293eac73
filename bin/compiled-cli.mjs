// The `showreel` command compiled to plain JavaScript, so that a command starts without running ~300 TypeScript
// modules one by one through tsx's loader (measured: 0.85 s -> 0.47 s to the first line of `showreel demo`).
//
// Built with esbuild on first use, and again whenever a file under src/ changes (its path, size or time), into
// node_modules/.cache/showreel/cli-<fingerprint>/; a build takes ~0.2 s. Anything that goes wrong returns null and the
// caller runs the sources through tsx as before: the compiled copy can only make a command start sooner.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

/** The compiled entry point (a file URL to import), or null when it cannot be had. */
export async function compiledCli(root) {
  try {
    const src = path.join(root, 'src');
    const files = sourceFiles(src);
    const fingerprint = createHash('sha256');
    for (const file of files) {
      const stat = statSync(file);
      fingerprint.update(`${path.relative(src, file)}\0${stat.size}\0${stat.mtimeMs}\n`);
    }
    const cache = path.join(root, 'node_modules', '.cache', 'showreel');
    const dir = path.join(cache, `cli-${fingerprint.digest('hex').slice(0, 16)}`);
    const entry = path.join(dir, 'main.js');
    if (!existsSync(entry)) await build(root, cache, dir);
    return pathToFileURL(entry).href;
  } catch {
    return null;
  }
}

function sourceFiles(dir) {
  const found = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) found.push(...sourceFiles(file));
    else found.push(file);
  }
  return found.sort();
}

async function build(root, cache, dir) {
  const { build: esbuild } = await import('esbuild');
  mkdirSync(cache, { recursive: true });
  // Built beside its final place and renamed into it: two commands started at once never see half a build.
  const staging = `${dir}.${process.pid}.tmp`;
  try {
    await esbuild({
      entryPoints: [path.join(root, 'src', 'cli', 'main.ts')],
      outdir: staging,
      bundle: true,
      splitting: true,
      format: 'esm',
      platform: 'node',
      target: 'node22',
      // npm packages stay where they are: resolved from node_modules, as under tsx.
      packages: 'external',
      sourcemap: 'linked',
      logLevel: 'silent',
      plugins: [sourcePaths],
    });
    try {
      renameSync(staging, dir);
    } catch (error) {
      // Another command built the same sources first: its copy is as good.
      if (!existsSync(path.join(dir, 'main.js'))) throw error;
    }
    // Older builds go, one per edit of the sources would pile up; not those of the last hour, which a command still
    // running may yet load a part of.
    for (const old of readdirSync(cache)) {
      const file = path.join(cache, old);
      if (old.startsWith('cli-') && file !== dir && Date.now() - statSync(file).mtimeMs > 3_600_000) rmSync(file, { recursive: true, force: true });
    }
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}

/**
 * Modules that find files next to themselves (the migrations, the dashboard's and the embed's static files, the
 * background assets) do it from import.meta.url and import.meta.dirname: in one bundle those would name the bundle's
 * folder, so each module's own are written into it.
 */
const sourcePaths = {
  name: 'source-paths',
  setup(build) {
    build.onLoad({ filter: /\.ts$/ }, (args) => {
      const text = readFileSync(args.path, 'utf8')
        .replaceAll('import.meta.url', JSON.stringify(pathToFileURL(args.path).href))
        .replaceAll('import.meta.dirname', JSON.stringify(path.dirname(args.path)))
        .replaceAll('import.meta.filename', JSON.stringify(args.path));
      return { contents: text, loader: 'ts' };
    });
  },
};
