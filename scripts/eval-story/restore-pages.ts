/**
 * `node --import tsx scripts/eval-story/restore-pages.ts [--mirrors DIR] [--set real|flows] [NAME …]`: brings the
 * real pages and the flows sites back on a new machine from the snapshots the search tool's `fetch` left in
 * `../.mirror/<owner>+<name>/` (fetch every manifest's `repository` first). Each manifest's files are taken at its
 * `commit` and laid out as README.md says; pages already present are left alone. What a snapshot lacks (its largest
 * blobs) is left out and named in the page's SOURCE.
 *
 * A page that is one HTML file in a sub-folder (`examples/landing-page.html`) keeps its whole repository and becomes
 * `index.html` at the root with each relative link rewritten to the same file from there (`../assets/x` → `assets/x`,
 * `app.css` → `examples/app.css`): the page loads what it loaded where it was.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { flowPagesDir } from './flows-set.js';
import { realPagesDir } from './real-set.js';

interface Manifest {
  name: string;
  repository: string;
  commit: string;
  path: string;
  licence?: string;
  removed?: string[];
}

const args = process.argv.slice(2);
const option = (flag: string): string | undefined => {
  const at = args.indexOf(flag);
  if (at < 0) return undefined;
  const [value] = args.splice(at, 2).slice(1);
  return value;
};
const mirrors = option('--mirrors') ?? path.resolve(import.meta.dirname, '..', '..', '..', '.mirror');
const onlySet = option('--set');
const onlyNames = new Set(args);

function gitDir(repository: string): string | null {
  const base = path.join(mirrors, repository.replace('/', '+'), 'repo');
  for (const candidate of [path.join(base, '.git'), base]) if (existsSync(path.join(candidate, 'HEAD'))) return candidate;
  return null;
}

const git = (dir: string, ...rest: string[]): string => execFileSync('git', ['--git-dir', dir, ...rest], { encoding: 'utf8', maxBuffer: 1 << 28 });

/** The tree at `commit` into `into`, without the blobs the snapshot does not hold; returns those left out. */
function extract(dir: string, commit: string, into: string): string[] {
  const listing = git(dir, 'ls-tree', '-r', '-z', commit).split('\0').filter(Boolean);
  const entries = listing.map((line) => {
    const [meta, file] = line.split('\t') as [string, string];
    return { type: meta.split(' ')[1], sha: meta.split(' ')[2]!, file };
  }).filter((e) => e.type === 'blob');
  const check = execFileSync('git', ['--git-dir', dir, 'cat-file', '--batch-check'], { input: entries.map((e) => e.sha).join('\n') + '\n', encoding: 'utf8', maxBuffer: 1 << 28 });
  const missing = check.split('\n').filter((line) => line.endsWith(' missing')).map((line) => line.split(' ')[0]!);
  const left = entries.filter((e) => missing.includes(e.sha)).map((e) => e.file);
  const excludes = left.map((file) => `:(exclude,literal)${file}`);
  const tar = execFileSync('git', ['--git-dir', dir, 'archive', commit, '--', '.', ...excludes], { maxBuffer: 1 << 30, stdio: ['ignore', 'pipe', 'pipe'] });
  execFileSync('tar', ['-x', '-C', into], { input: tar, maxBuffer: 1 << 30 });
  return left;
}

/** A page's relative links re-aimed from `fromDir` (inside the repository) to the repository's root. */
export function rebaseLinks(html: string, fromDir: string): string {
  const rebase = (value: string): string => {
    if (/^(?:[a-z][a-z0-9+.-]*:|\/\/|\/|#|\{)/i.test(value) || value.trim() === '') return value;
    const [pathPart, rest = ''] = value.split(/(?=[?#])/, 2) as [string, string?];
    return path.posix.normalize(path.posix.join(fromDir, pathPart)).replace(/^(\.\.\/)+/, '') + rest;
  };
  return html
    .replace(/\b(src|href|poster|data-src|data-background|data-bg|action)=("([^"]*)"|'([^']*)')/gi, (_m, attr: string, _q, dq?: string, sq?: string) =>
      dq !== undefined ? `${attr}="${rebase(dq)}"` : `${attr}='${rebase(sq!)}'`)
    .replace(/url\((['"]?)([^'")]+)\1\)/g, (_m, quote: string, value: string) => `url(${quote}${rebase(value)}${quote})`);
}

function licenceFile(root: string): string | null {
  const found = readdirSync(root).find((file) => /^(licen[cs]e|copying)(\.(md|txt))?$/i.test(file));
  return found ? path.join(root, found) : null;
}

function restore(manifest: Manifest, targetRoot: string, markReady: boolean): string {
  const target = path.join(targetRoot, manifest.name);
  if (existsSync(path.join(target, markReady ? 'READY' : 'index.html'))) return 'present';
  const dir = gitDir(manifest.repository);
  if (!dir) return `no snapshot of ${manifest.repository} under ${mirrors} (fetch it first)`;
  try {
    git(dir, 'cat-file', '-e', `${manifest.commit}^{commit}`);
  } catch {
    return `the snapshot of ${manifest.repository} lacks commit ${manifest.commit}`;
  }
  const work = mkdtempSync(path.join(os.tmpdir(), `restore-${manifest.name}-`));
  try {
    const left = extract(dir, manifest.commit, work);
    const where = manifest.path.replace(/^\.?\/?$/, '');
    rmSync(target, { recursive: true, force: true });
    mkdirSync(targetRoot, { recursive: true });
    let moved = '';
    if (where === '') cpSync(work, target, { recursive: true });
    else if (!/\.html?$/.test(where)) cpSync(path.join(work, where), target, { recursive: true });
    else if (!where.includes('/')) {
      cpSync(work, target, { recursive: true });
      if (where !== 'index.html') {
        cpSync(path.join(work, where), path.join(target, 'index.html'));
        moved = `${where} copied to index.html`;
      }
    } else {
      cpSync(work, target, { recursive: true });
      const html = readFileSync(path.join(work, where), 'utf8');
      writeFileSync(path.join(target, 'index.html'), rebaseLinks(html, path.posix.dirname(where)));
      moved = `${where} copied to index.html, its relative links re-aimed from ${path.posix.dirname(where)}/`;
    }
    for (const entry of manifest.removed ?? []) {
      const named = entry.split(' (')[0]!.trim();
      if (named && !named.includes(' ') && existsSync(path.join(target, named))) rmSync(path.join(target, named), { recursive: true, force: true });
    }
    const licence = licenceFile(target) ?? licenceFile(work);
    if (licence && licence !== path.join(target, 'LICENSE')) cpSync(licence, path.join(target, 'LICENSE'));
    else if (!licence) writeFileSync(path.join(target, 'LICENSE'), `No licence file in the repository. The manifest says: ${manifest.licence ?? 'nothing'}\n`);
    writeFileSync(path.join(target, 'SOURCE'), [
      `repository: https://github.com/${manifest.repository}`, `commit: ${manifest.commit}`, `path: ${manifest.path || '.'}`,
      ...(moved ? [`moved: ${moved}`] : []),
      ...(manifest.removed?.length ? [`removed: ${manifest.removed.join('; ')}`] : []),
      ...(left.length ? [`not in the snapshot: ${left.join(', ')}`] : []),
      '',
    ].join('\n'));
    if (markReady) writeFileSync(path.join(target, 'READY'), '');
    return left.length ? `restored (${left.length} blobs absent from the snapshot)` : 'restored';
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

const sets = [
  { set: 'real', manifests: path.join(import.meta.dirname, 'real'), target: realPagesDir(), ready: false },
  { set: 'flows', manifests: path.join(import.meta.dirname, 'flows'), target: flowPagesDir(), ready: true },
].filter((s) => !onlySet || s.set === onlySet);

let failed = 0;
for (const { set, manifests, target, ready } of sets) {
  for (const file of readdirSync(manifests).filter((f) => f.endsWith('.json')).sort()) {
    const manifest = JSON.parse(readFileSync(path.join(manifests, file), 'utf8')) as Manifest;
    if (onlyNames.size > 0 && !onlyNames.has(manifest.name)) continue;
    let outcome: string;
    try {
      outcome = restore(manifest, target, ready);
    } catch (error) {
      outcome = `failed: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`;
    }
    if (!outcome.startsWith('restored') && outcome !== 'present') failed += 1;
    console.log(`${set} ${manifest.name}: ${outcome}`);
  }
}
process.exit(failed > 0 ? 1 : 0);
