import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

/**
 * Redoc's standalone bundle, served from node_modules (never a CDN) for the /docs page, with its licences.
 *
 * One change is made to the bytes: Redoc's sidebar attribution ("API docs by Redocly") always renders an <img> of
 * https://cdn.redoc.ly/redoc/logo-mini.svg, and no option turns it off. The page must fetch nothing from another
 * origin, so the address becomes `data:,` (an empty image: Redoc's own onError hides it); the attribution link stays.
 * The CSP would block the request anyway; this keeps it from being attempted. test/http/docs/docs.browser.test.ts
 * fails if a future Redoc fetches from anywhere else.
 */
const REDOC_DIR = path.dirname(createRequire(import.meta.url).resolve('redoc/package.json'));
const CDN_LOGO = 'https://cdn.redoc.ly/redoc/logo-mini.svg';

export interface DocsAsset {
  body: Buffer;
  gzipped: Buffer;
  etag: string;
  version: string;
  contentType: string;
}

let bundle: DocsAsset | null = null;
let licence: DocsAsset | null = null;

function asset(body: Buffer, contentType: string): DocsAsset {
  const version = createHash('sha256').update(body).digest('base64url').slice(0, 16);
  return { body, gzipped: gzipSync(body, { level: 9 }), etag: `"${version}"`, version, contentType };
}

/** The bundle, loaded and compressed once per process (1.1 MB, 0.3 MB gzipped). */
export function redocBundle(): DocsAsset {
  bundle ??= asset(
    Buffer.from(readFileSync(path.join(REDOC_DIR, 'bundles', 'redoc.standalone.js'), 'utf8').replaceAll(CDN_LOGO, 'data:,')),
    'text/javascript; charset=utf-8',
  );
  return bundle;
}

/**
 * Redoc's MIT licence and the notices of what its bundle contains, at the address the bundle's first line points
 * to (`redoc.standalone.js.LICENSE.txt`, beside it).
 */
export function redocLicence(): DocsAsset {
  licence ??= asset(
    Buffer.from(
      [
        `Redoc ${redocVersion()} (https://github.com/Redocly/redoc), served unmodified but for its sidebar logo's address (see the /docs page's source).`,
        '',
        readFileSync(path.join(REDOC_DIR, 'LICENSE'), 'utf8'),
        '',
        'Third-party notices of redoc.standalone.js:',
        '',
        readFileSync(path.join(REDOC_DIR, 'bundles', 'redoc.standalone.js.LICENSE.txt'), 'utf8'),
      ].join('\n'),
    ),
    'text/plain; charset=utf-8',
  );
  return licence;
}

export function redocVersion(): string {
  return (JSON.parse(readFileSync(path.join(REDOC_DIR, 'package.json'), 'utf8')) as { version: string }).version;
}
