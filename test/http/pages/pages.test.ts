import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { DemoRecord } from '../../../src/demos/index.js';
import { demoUrls } from '../../../src/demos/urls.js';
import { renderEmbedPage } from '../../../src/http/pages/embed-page.js';
import { escapeHtml, html, raw, truncateText } from '../../../src/http/pages/html.js';
import { buildOembed, fitEmbedSize } from '../../../src/http/pages/oembed.js';
import { handlePageRequest } from '../../../src/http/pages/routes.js';
import { renderSharePage } from '../../../src/http/pages/share-page.js';
import { startTestApp, type TestApp, type TestUser } from '../../helpers/app.js';
import { failJob, finishJob } from '../../helpers/pipeline.js';

const EVIL = `Quotes " and ' and <script>alert(1)</script> \`tick\` & "><img src=x onerror=alert(2)>`;
const UNKNOWN_ID = '7d1c2b3a-4e5f-4a6b-9c8d-0e1f2a3b4c5d';

/** Reverses escapeHtml (the only entities our pages use). */
function unescape(text: string): string {
  return text
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&#96;/g, '`')
    .replace(/&amp;/g, '&');
}

/** meta property/name → content, unescaped. */
function metaTags(page: string): Map<string, string> {
  const tags = new Map<string, string>();
  for (const m of page.matchAll(/<meta (?:property|name)="([^"]+)" content="([^"]*)">/g)) tags.set(m[1]!, unescape(m[2]!));
  return tags;
}

const ALLOWED_TAGS = new Set(['html', 'head', 'meta', 'title', 'link', 'style', 'body', 'main', 'div', 'h1', 'p', 'video', 'source', 'a', 'footer', 'span', 'noscript']);
/** The one script a page may have: the embed player's own static file (never inline, never user text). */
const PLAYER_SCRIPT = /<script src="[^"]*\/player\.js\?v=[\w-]+" defer><\/script>/;

/**
 * Every tag in the page is well formed, of a known element, with double-quoted attributes, and none is an event
 * handler: so no user text became markup or left its attribute.
 */
function assertNoInjection(withScript: string) {
  const page = withScript.replace(PLAYER_SCRIPT, '');
  assert.doesNotMatch(page, /<script/i);
  assert.doesNotMatch(page, /<img/i);
  const tags = page.replace(/^<!doctype html>\n/, '').match(/<[^>]*>/g) ?? [];
  assert.ok(tags.length > 10);
  for (const tag of tags) {
    const m = /^<\/?([a-z0-9]+)((?:\s+[a-z:-]+(?:="[^"<>`]*")?)*)\s*>$/.exec(tag);
    assert.ok(m, `malformed tag ${tag}`);
    assert.ok(ALLOWED_TAGS.has(m[1]!), `unexpected element in ${tag}`);
    for (const attr of m[2]!.matchAll(/\s+([a-z:-]+)(?:="[^"]*")?/g)) assert.doesNotMatch(attr[1]!, /^on/, `event handler in ${tag}`);
  }
}

function fakeDemo(overrides: Partial<DemoRecord> = {}): DemoRecord {
  const at = new Date('2025-01-01T00:00:00Z');
  return {
    id: UNKNOWN_ID,
    project_id: 'p',
    user_id: 'u',
    prompt: 'Show how to start a free trial',
    status: 'ready',
    title: 'Start a free trial',
    action_script: null,
    ai_plan: null,
    snapshots: null,
    video_key: 'demos/x/video.mp4',
    gif_key: null,
    thumbnail_key: 'demos/x/thumb.png',
    duration_ms: 10_000,
    recording_log: null,
    format: 'mp4',
    resolution: '1080p',
    duration_target: '10s',
    mode: null,
    context: null,
    context_hash: null,
    presentation: null,
    version: 1,
    error: null,
    source: 'generated',
    latest_job_id: null,
    created_at: at,
    updated_at: at,
    refreshed_at: null,
    ...overrides,
  };
}

describe('html helpers', () => {
  it('escapes every character that could open markup or close an attribute', () => {
    assert.equal(escapeHtml(`<a href="x" title='y'>\`&`), '&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&#96;&amp;');
  });

  it('the html tag escapes values, keeps nested templates, drops null/false, joins arrays', () => {
    const inner = html`<b>${'<i>'}</b>`;
    assert.equal(html`<p title="${'"x"'}">${inner}${null}${false}${undefined}${[html`<br>`, '<hr>', 1]}</p>`.value, '<p title="&quot;x&quot;"><b>&lt;i&gt;</b><br>&lt;hr&gt;1</p>');
    assert.equal(html`${raw('<style>a{}</style>')}`.value, '<style>a{}</style>');
    // A look-alike object is not trusted markup.
    assert.equal(html`${{ value: '<x>', toString: () => '<x>' } as never}`.value, '&lt;x&gt;');
  });

  it('truncates on a word boundary, by grapheme, with an ellipsis', () => {
    assert.equal(truncateText('short  and\nsweet', 50), 'short and sweet');
    assert.equal(truncateText('one two three four five six', 12), 'one two…');
    assert.equal(truncateText('👩‍👩‍👧‍👦'.repeat(5), 3), '👩‍👩‍👧‍👦👩‍👩‍👧‍👦…');
  });
});

describe('page rendering (pure)', () => {
  const secure = demoUrls('https://showreel.example', UNKNOWN_ID, 'mp4');

  it('an https share page offers the X/Twitter player card and secure URLs', () => {
    const tags = metaTags(renderSharePage(fakeDemo(), secure));
    assert.equal(tags.get('twitter:card'), 'player');
    assert.equal(tags.get('twitter:player'), `https://showreel.example/embed/${UNKNOWN_ID}`);
    assert.equal(tags.get('twitter:player:width'), '1920');
    assert.equal(tags.get('twitter:player:height'), '1080');
    // Media addresses carry the version, so a refreshed demo's page never shows a cached older video.
    assert.equal(tags.get('og:video:secure_url'), `https://showreel.example/video/${UNKNOWN_ID}.mp4?v=1`);
    assert.equal(tags.get('og:image:secure_url'), `https://showreel.example/thumb/${UNKNOWN_ID}.png?v=1`);
    assert.match(renderSharePage(fakeDemo({ version: 3 }), secure), new RegExp(`<source src="https://showreel.example/video/${UNKNOWN_ID}.mp4\\?v=3"`));
  });

  it('uses the video type and size of the demo', () => {
    const urls = demoUrls('https://showreel.example', UNKNOWN_ID, 'webm');
    const page = renderSharePage(fakeDemo({ format: 'webm', resolution: '720p' }), urls);
    const tags = metaTags(page);
    assert.equal(tags.get('og:video:type'), 'video/webm');
    assert.equal(tags.get('og:video:width'), '1280');
    assert.equal(tags.get('og:video:height'), '720');
    assert.match(page, new RegExp(`<source src="https://showreel.example/video/${UNKNOWN_ID}.webm\\?v=1" type="video/webm">`));
  });

  it('escapes a hostile title and prompt on every page and in oEmbed', () => {
    const demo = fakeDemo({ title: EVIL, prompt: `${EVIL} prompt` });
    for (const page of [renderSharePage(demo, secure), renderEmbedPage(demo, secure)]) assertNoInjection(page);
    const tags = metaTags(renderSharePage(demo, secure));
    assert.equal(tags.get('og:title'), truncateText(EVIL, 70));
    assert.equal(tags.get('og:description'), `${EVIL} prompt`);
    const oembed = buildOembed(demo, secure);
    assert.doesNotMatch(oembed.html, /<script|<img/);
    assert.match(oembed.html, /^<iframe src="[^"]+" width="960" height="540" frameborder="0" allow="autoplay; fullscreen; picture-in-picture" allowfullscreen title="[^"<>]*"><\/iframe>$/);
  });

  it('shows the title without the prompt under it, as if the prompt were its subtitle (issue 55)', () => {
    const demo = fakeDemo({ title: 'Rewards and our team', prompt: 'Show the rewards, then end on the team' });
    const page = renderSharePage(demo, secure);
    const body = page.slice(page.indexOf('<body'));
    assert.match(body, /<h1>Rewards and our team<\/h1>/);
    assert.ok(!body.includes('Show the rewards, then end on the team'), 'the prompt is not on the page a viewer reads');
  });

  it('without a thumbnail: no poster, no image tags, a summary card', () => {
    const page = renderSharePage(fakeDemo({ thumbnail_key: null }), secure);
    assert.doesNotMatch(page, /poster=/);
    const tags = metaTags(page);
    assert.equal(tags.get('og:image'), undefined);
    assert.equal(tags.get('twitter:card'), 'summary');
  });

  it('a refreshing demo with a finished version keeps playing; a failed first generation says so', () => {
    const refreshing = renderSharePage(fakeDemo({ status: 'refreshing' }), secure);
    assert.match(refreshing, /<video /);
    assert.doesNotMatch(refreshing, /http-equiv="refresh"/);
    const failed = renderSharePage(fakeDemo({ status: 'failed', video_key: null, thumbnail_key: null }), secure);
    assert.match(failed, /could not be recorded/);
    assert.doesNotMatch(failed, /<video |http-equiv="refresh"/);
    assert.match(renderEmbedPage(fakeDemo({ status: 'failed', video_key: null }), secure), /could not be recorded/);
  });

  it('fits the oEmbed size to maxwidth/maxheight keeping 16:9', () => {
    assert.deepEqual(fitEmbedSize(), { width: 960, height: 540 });
    assert.deepEqual(fitEmbedSize({ maxwidth: 2000 }), { width: 960, height: 540 });
    assert.deepEqual(fitEmbedSize({ maxwidth: 640 }), { width: 640, height: 360 });
    assert.deepEqual(fitEmbedSize({ maxwidth: 500 }), { width: 500, height: 281 });
    assert.deepEqual(fitEmbedSize({ maxheight: 300 }), { width: 533, height: 299 });
    assert.deepEqual(fitEmbedSize({ maxwidth: 640, maxheight: 200 }), { width: 355, height: 199 });
    assert.deepEqual(fitEmbedSize({ maxwidth: 1 }), { width: 1, height: 1 });
  });

  it('oEmbed names the thumbnail only when its size is known and it fits the limits', () => {
    assert.equal(buildOembed(fakeDemo(), secure).thumbnail_width, 1280);
    assert.equal(buildOembed(fakeDemo(), secure, { maxwidth: 640 }).thumbnail_url, undefined);
    assert.equal(buildOembed(fakeDemo({ source: 'upload' }), secure).thumbnail_url, undefined);
    assert.equal(buildOembed(fakeDemo({ thumbnail_key: null }), secure).thumbnail_url, undefined);
  });
});

describe('public pages over HTTP', () => {
  let app: TestApp;
  let user: TestUser;
  let projectId: string;
  let server: http.Server;
  let base: string;
  let ready: { id: string };
  let pending: { id: string };
  const failures: unknown[] = [];

  const createDemo = async (prompt: string) => {
    const created = await app.api('/api/v1/demos', { key: user.key, body: { project_id: projectId, prompt } });
    assert.equal(created.status, 202);
    return created.body as { id: string; jobId: string };
  };

  before(async () => {
    app = await startTestApp();
    user = await app.createUser({ credits: 50 });
    projectId = (await app.api('/api/v1/projects', { key: user.key, body: { name: 'Acme', url: 'https://acme.example' } })).body.id;
    server = http.createServer((req, res) => {
      handlePageRequest(req, res, { sql: app.sql, config: { PUBLIC_URL: base } })
        .then((handled) => {
          if (!handled) {
            res.writeHead(418);
            res.end();
          }
        })
        .catch((error: unknown) => {
          failures.push(error);
          res.destroy();
        });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

    const made = await createDemo(`Show the pricing page. ${EVIL}`);
    await finishJob(app.sql, made.id, made.jobId);
    // A title as hostile as the prompt (titles come from the AI or from an upload form).
    await app.sql`update demos set title = ${EVIL} where id = ${made.id}`;
    ready = made;
    pending = await createDemo('Show the signup flow');
  });
  after(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    await app.stop();
    assert.deepEqual(failures, []);
  });

  const get = (path: string, init: RequestInit = {}) => fetch(base + path, init);

  it('serves a share page that unfurls: og and twitter tags with absolute URLs, player, oEmbed link', async () => {
    const response = await get(`/share/${ready.id}`);
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('content-type'), 'text/html; charset=utf-8');
    assert.equal(response.headers.get('cache-control'), 'public, max-age=60');
    assert.equal(response.headers.get('x-content-type-options'), 'nosniff');
    assert.equal(response.headers.get('referrer-policy'), 'strict-origin-when-cross-origin');
    const page = await response.text();
    assert.match(page, /^<!doctype html>\n<html lang="en">/);
    const latest = demoUrls(base, ready.id, 'mp4');
    const urls = { ...latest, videoUrl: `${latest.videoUrl}?v=1`, thumbnailUrl: `${latest.thumbnailUrl}?v=1` };
    const tags = metaTags(page);
    assert.equal(tags.get('og:type'), 'video.other');
    assert.equal(tags.get('og:url'), urls.shareUrl);
    assert.equal(tags.get('og:title'), truncateText(EVIL, 70));
    assert.equal(tags.get('og:description'), `Show the pricing page. ${EVIL}`);
    assert.equal(tags.get('og:image'), urls.thumbnailUrl);
    assert.equal(tags.get('og:image:width'), '1280');
    assert.equal(tags.get('og:image:height'), '720');
    assert.equal(tags.get('og:video'), urls.videoUrl);
    assert.equal(tags.get('og:video:secure_url'), undefined, 'not https');
    assert.equal(tags.get('og:video:type'), 'video/mp4');
    assert.equal(tags.get('og:video:width'), '1920');
    assert.equal(tags.get('og:video:height'), '1080');
    // http: X/Twitter only plays https players, so the large image card.
    assert.equal(tags.get('twitter:card'), 'summary_large_image');
    assert.equal(tags.get('twitter:title'), truncateText(EVIL, 70));
    assert.equal(tags.get('twitter:description'), `Show the pricing page. ${EVIL}`);
    assert.equal(tags.get('twitter:image'), urls.thumbnailUrl);
    for (const [name, value] of tags) if (/(url|image|video|player)$/.test(name)) assert.match(value, /^http:\/\/127\.0\.0\.1:\d+\//, name);

    const video = /<video ([^>]*)>/.exec(page);
    assert.ok(video);
    assert.match(video[1]!, /\bcontrols\b/);
    assert.match(video[1]!, /\bplaysinline\b/);
    assert.match(video[1]!, /preload="metadata"/);
    assert.ok(video[1]!.includes(`poster="${urls.thumbnailUrl}"`), video[1]);
    assert.ok(page.includes(`<source src="${urls.videoUrl}" type="video/mp4">`));
    const oembedLink = /<link rel="alternate" type="application\/json\+oembed" href="([^"]+)"/.exec(page);
    assert.ok(oembedLink);
    assert.equal(unescape(oembedLink[1]!), `${base}/oembed?url=${encodeURIComponent(urls.shareUrl)}&format=json`);
    assert.match(page, /Made with <a href="[^"]+" rel="noopener">Showreel<\/a>/);
    // The one address off this service: the link back to the product (issue 35), which loads nothing.
    const product = /<p class="product"><a href="([^"]+)" rel="noopener nofollow" data-product>.*?<\/p>/.exec(page);
    assert.ok(product, 'a link back to the product');
    assert.doesNotMatch(page.replace(product[0], ''), /https?:\/\/(?!127\.0\.0\.1)[a-z]/i, 'no other external asset or link');
  });

  it('escapes the hostile title and prompt everywhere', async () => {
    for (const path of [`/share/${ready.id}`, `/embed/${ready.id}`]) {
      const page = await (await get(path)).text();
      assertNoInjection(page);
      assert.ok(page.includes('&lt;script&gt;alert(1)&lt;/script&gt;'), path);
    }
    const oembed = await (await get(`/oembed?url=${encodeURIComponent(`${base}/share/${ready.id}`)}`)).json();
    assert.equal(oembed.title, truncateText(EVIL, 120));
    assert.doesNotMatch(oembed.html, /<script|<img/);
  });

  it('share may not be framed; embed may be framed anywhere', async () => {
    const share = await get(`/share/${ready.id}`);
    const shareCsp = share.headers.get('content-security-policy') ?? '';
    assert.match(shareCsp, /frame-ancestors 'none'/);
    assert.match(shareCsp, /default-src 'none'/);
    assert.match(shareCsp, /media-src 'self'/);
    assert.match(shareCsp, /img-src 'self'/);
    assert.match(shareCsp, /style-src 'unsafe-inline'/);
    // One script, the player's static file from the service's origin (view beacons, issue 38): no inline script.
    assert.match(shareCsp, /script-src http:\/\/127\.0\.0\.1:\d+;/);
    assert.doesNotMatch(shareCsp, /script-src[^;]*'unsafe/);
    assert.equal(share.headers.get('x-frame-options'), 'DENY');

    const embed = await get(`/embed/${ready.id}`);
    assert.equal(embed.status, 200);
    assert.match(embed.headers.get('content-security-policy') ?? '', /frame-ancestors \*/);
    assert.equal(embed.headers.get('x-frame-options'), null);
    assert.equal(embed.headers.get('content-type'), 'text/html; charset=utf-8');
    const page = await embed.text();
    assert.match(page, /<video controls playsinline preload="metadata" poster="[^"]+\/thumb\/[^"]+\.png\?v=\d+"/);
    assert.match(page, /object-fit:contain/);
    assert.doesNotMatch(page, /<h1|<footer|og:/, 'no chrome');
  });

  it('shows a demo still being recorded, reloading itself, uncached', async () => {
    for (const path of [`/share/${pending.id}`, `/embed/${pending.id}`]) {
      const response = await get(path);
      assert.equal(response.status, 200);
      assert.equal(response.headers.get('cache-control'), 'no-store');
      const page = await response.text();
      assert.match(page, /still being recorded/);
      assert.match(page, /<meta http-equiv="refresh" content="10">/);
      assert.doesNotMatch(page, /<video|og:video/);
    }
  });

  it('says politely that a first generation failed', async () => {
    const made = await createDemo('A page that will not load');
    await failJob(app.sql, made.id, made.jobId);
    const page = await (await get(`/share/${made.id}`)).text();
    assert.match(page, /could not be recorded/);
    assert.doesNotMatch(page, /http-equiv="refresh"/);
  });

  it('404s unknown, malformed and deleted demos with an HTML page', async () => {
    const deleted = await createDemo('Soon gone');
    await finishJob(app.sql, deleted.id, deleted.jobId);
    assert.equal((await app.api(`/api/v1/demos/${deleted.id}`, { key: user.key, method: 'DELETE' })).status, 200);
    for (const id of [UNKNOWN_ID, 'not-a-uuid', deleted.id, '%3Cscript%3E']) {
      for (const kind of ['share', 'embed']) {
        const response = await get(`/${kind}/${id}`);
        assert.equal(response.status, 404, `${kind}/${id}`);
        assert.equal(response.headers.get('content-type'), 'text/html; charset=utf-8');
        assert.equal(response.headers.get('cache-control'), 'no-store');
        assert.match(await response.text(), /could not be found/);
        assert.match(response.headers.get('content-security-policy') ?? '', kind === 'embed' ? /frame-ancestors \*/ : /frame-ancestors 'none'/);
      }
    }
    const oembed = await get(`/oembed?url=${encodeURIComponent(`${base}/share/${deleted.id}`)}`);
    assert.equal(oembed.status, 404);
    assert.equal(typeof (await oembed.json()).error, 'string');
  });

  it('answers oEmbed with a video iframe, CORS open, fitted to maxwidth/maxheight', async () => {
    const shareUrl = `${base}/share/${ready.id}`;
    const response = await get(`/oembed?url=${encodeURIComponent(shareUrl)}&format=json`);
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('content-type'), 'application/json; charset=utf-8');
    assert.equal(response.headers.get('access-control-allow-origin'), '*');
    const body = await response.json();
    assert.deepEqual(Object.keys(body).sort(), [
      'height', 'html', 'provider_name', 'provider_url', 'thumbnail_height', 'thumbnail_url', 'thumbnail_width', 'title', 'type', 'version', 'width',
    ]);
    assert.equal(body.version, '1.0');
    assert.equal(body.type, 'video');
    assert.equal(body.provider_name, 'Showreel');
    assert.equal(body.provider_url, `${base}/`);
    assert.equal(body.width, 960);
    assert.equal(body.height, 540);
    assert.equal(body.thumbnail_url, `${base}/thumb/${ready.id}.png`);
    assert.equal(body.thumbnail_width, 1280);
    assert.equal(body.thumbnail_height, 720);
    assert.ok(body.html.startsWith(`<iframe src="${base}/embed/${ready.id}" width="960" height="540" frameborder="0" allow="autoplay; fullscreen; picture-in-picture" allowfullscreen title="`));

    const fitted = await (await get(`/oembed?url=${encodeURIComponent(shareUrl)}&maxwidth=480&maxheight=400`)).json();
    assert.equal(fitted.width, 480);
    assert.equal(fitted.height, 270);
    assert.match(fitted.html, /width="480" height="270"/);
    assert.equal(fitted.thumbnail_url, undefined, 'a 1280 wide thumbnail does not fit 480');

    // Query strings on the share URL and a trailing slash are fine; format defaults to json.
    assert.equal((await get(`/oembed?url=${encodeURIComponent(`${shareUrl}/?utm_source=x`)}`)).status, 200);
    // A pending demo has an answer too: the iframe shows the recording notice.
    assert.equal((await get(`/oembed?url=${encodeURIComponent(`${base}/share/${pending.id}`)}`)).status, 200);
  });

  it('rejects bad oEmbed requests: 400 missing or malformed url or size, 404 not ours, 501 xml', async () => {
    const shareUrl = encodeURIComponent(`${base}/share/${ready.id}`);
    const cases: [string, number][] = [
      ['/oembed', 400],
      ['/oembed?url=', 400],
      ['/oembed?url=not%20a%20url', 400],
      [`/oembed?url=${shareUrl}&maxwidth=abc`, 400],
      [`/oembed?url=${shareUrl}&maxwidth=0`, 400],
      [`/oembed?url=${shareUrl}&maxheight=-5`, 400],
      [`/oembed?url=${encodeURIComponent(`https://evil.example/share/${ready.id}`)}`, 404],
      [`/oembed?url=${encodeURIComponent(`${base}/embed/${ready.id}`)}`, 404],
      [`/oembed?url=${encodeURIComponent(`${base}/share/${UNKNOWN_ID}`)}`, 404],
      [`/oembed?url=${encodeURIComponent(`${base}/share/nope`)}`, 404],
      [`/oembed?url=${shareUrl}&format=xml`, 501],
    ];
    for (const [path, status] of cases) {
      const response = await get(path);
      assert.equal(response.status, status, path);
      assert.equal(response.headers.get('access-control-allow-origin'), '*');
      const body = await response.json();
      assert.deepEqual(Object.keys(body), ['error'], path);
    }
  });

  it('answers HEAD like GET without a body, 405 other methods, and leaves other paths alone', async () => {
    for (const path of [`/share/${ready.id}`, `/embed/${ready.id}`, `/oembed?url=${encodeURIComponent(`${base}/share/${ready.id}`)}`]) {
      const getResponse = await get(path);
      const getBody = await getResponse.text();
      const head = await get(path, { method: 'HEAD' });
      assert.equal(head.status, 200, path);
      assert.equal(head.headers.get('content-type'), getResponse.headers.get('content-type'));
      assert.equal(head.headers.get('content-length'), String(Buffer.byteLength(getBody)));
      assert.equal(await head.text(), '');
    }
    assert.equal((await get(`/share/${UNKNOWN_ID}`, { method: 'HEAD' })).status, 404);

    for (const path of [`/share/${ready.id}`, `/embed/${ready.id}`, '/oembed']) {
      const response = await get(path, { method: 'POST', body: '{}' });
      assert.equal(response.status, 405, path);
      assert.match(response.headers.get('allow') ?? '', /^GET, HEAD/);
    }
    const preflight = await get('/oembed', { method: 'OPTIONS' });
    assert.equal(preflight.status, 204);
    assert.equal(preflight.headers.get('access-control-allow-origin'), '*');

    for (const path of ['/', '/share', `/share/${ready.id}/more`, '/sharex/1', `/video/${ready.id}.mp4`, '/oembedx']) {
      assert.equal((await get(path)).status, 418, path);
    }
  });
});
