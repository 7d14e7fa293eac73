import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'puppeteer-core';
import { launchBrowser } from '../../../src/pipeline/browser/launch.js';
import { startTestApp, type TestApp } from '../../helpers/app.js';
import { publishStoryVersion, sampleStory } from '../../helpers/story-demo.js';
import { makeDemoMedia, startHostSite, type HostSite } from '../../embeds/embed-harness.js';

/**
 * Chapters and captions (issue 36) as a viewer meets them, in real Chromium: a 6-second demo with three chapters
 * (0, 2 and 4 s) and two captions, published with its story without recording anything. The share page lists the
 * chapters and seeks; the CC button shows the captions; a page embedding the player hears `chapterchange`.
 */
describe('chapters and captions in the players', () => {
  let app: TestApp;
  let site: HostSite;
  let browser: Browser;
  let media: Awaited<ReturnType<typeof makeDemoMedia>>;
  let demoId: string;
  /**
   * The pages as visitors reach them: at the service's public URL (http://localhost:<port> for a test app). A
   * `<track>` loads only from the page's own origin (the `<video>` has no `crossorigin`), and the pages point their
   * tracks at the public URL, so the same page fetched as 127.0.0.1 would show no chapters.
   */
  let publicUrl: string;

  before(async () => {
    [app, site, media, browser] = await Promise.all([startTestApp(), startHostSite(), makeDemoMedia(), launchBrowser({ allowPrivate: true })]);
    const user = await app.createUser({ credits: 20 });
    const project = await app.api('/api/v1/projects', { key: user.key, body: { name: 'Acme', url: 'https://acme.example/' } });
    demoId = (await app.api('/api/v1/demos', { key: user.key, body: { project_id: project.body.id, prompt: 'Show the pricing and what customers say', duration_target: '5s' } })).body.id;
    await publishStoryVersion(app, demoId, sampleStory(), media);
    publicUrl = app.url.replace('127.0.0.1', 'localhost');
  });
  after(async () => {
    await browser?.close();
    await Promise.all([app?.stop(), site?.close(), media?.cleanup()]);
  });

  const newPage = async (): Promise<Page> => {
    const page = await (await browser.createBrowserContext()).newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(String(error)));
    page.on('console', (message) => message.type() === 'error' && errors.push(message.text()));
    (page as Page & { errors: string[] }).errors = errors;
    return page;
  };
  const errorsOf = (page: Page) => (page as Page & { errors: string[] }).errors;

  it('loads the chapters track on the share page, marks the timeline, and seeks when a chapter in the list is clicked', async () => {
    const page = await newPage();
    await page.goto(`${publicUrl}/share/${demoId}`);
    // The chapters track loads its three cues (hidden: they drive the list and the markers, not on-screen text).
    await page.waitForFunction(() => {
      const track = document.querySelector<HTMLTrackElement>('video track[kind="chapters"]');
      return track?.readyState === 2 && (track.track.cues?.length ?? 0) === 3;
    }, { polling: 100, timeout: 15_000 });
    const cues = await page.$eval('video track[kind="chapters"]', (t) => [...((t as HTMLTrackElement).track.cues ?? [])].map((c) => [(c as VTTCue).text, c.startTime, c.endTime]));
    assert.deepEqual(cues, [['Acme', 0, 2], ['Pricing', 2, 4], ['What customers say', 4, 6]]);
    assert.equal(await page.$eval('video track[kind="chapters"]', (t) => (t as HTMLTrackElement).track.mode), 'hidden');
    // Markers on the timeline where chapters 2 and 3 start (a third and two thirds of 6 s).
    await page.waitForSelector('.markers i');
    assert.deepEqual(await page.$$eval('.markers i', (marks) => marks.map((m) => [(m as HTMLElement).style.left, (m as HTMLElement).title])), [['33.333%', 'Pricing'], ['66.667%', 'What customers say']]);

    // The list reads as the chapters, with their times; clicking "What customers say" jumps the video to 4 s.
    const list = await page.$$eval('nav.chapters button', (buttons) => buttons.map((b) => (b as HTMLElement).innerText.trim()));
    assert.deepEqual(list, ['0:00 Acme', '0:02 Pricing', '0:04 What customers say']);
    const [, , third] = await page.$$('nav.chapters button');
    await third!.click();
    await page.waitForFunction(() => Math.abs(document.querySelector('video')!.currentTime - 4) < 0.05, { polling: 100, timeout: 5000 });
    // The chapter now playing is the one the list marks.
    await page.waitForFunction(() => document.querySelectorAll('nav.chapters button')[2]!.getAttribute('aria-current') === 'true', { polling: 100, timeout: 5000 });
    assert.deepEqual(await page.$$eval('nav.chapters button', (b) => b.map((x) => x.getAttribute('aria-current'))), ['false', 'false', 'true']);
    assert.deepEqual(errorsOf(page), [], 'no script error and nothing the CSP refused');
    await page.close();
  });

  it('keeps captions off until the CC button is pressed, then shows the caption of the moment', async () => {
    const page = await newPage();
    await page.goto(`${publicUrl}/share/${demoId}`);
    const cc = await page.waitForSelector('button.cc', { timeout: 15_000 });
    assert.equal(await page.$eval('button.cc', (b) => b.getAttribute('aria-pressed')), 'false');
    assert.equal(await page.$eval('video track[kind="captions"]', (t) => (t as HTMLTrackElement).track.mode), 'hidden', 'off by default');
    assert.equal(await page.$eval('video track[kind="captions"]', (t) => t.hasAttribute('default')), false);

    await cc!.click();
    assert.equal(await page.$eval('button.cc', (b) => b.getAttribute('aria-pressed')), 'true');
    assert.equal(await page.$eval('video track[kind="captions"]', (t) => (t as HTMLTrackElement).track.mode), 'showing');
    // At 3 s the pricing caption is the active cue of a showing track: the one the browser draws over the video.
    await page.$eval('video', (v) => void ((v as HTMLVideoElement).currentTime = 3));
    await page.waitForFunction(() => {
      const track = document.querySelector<HTMLTrackElement>('video track[kind="captions"]')!.track;
      return track.mode === 'showing' && track.activeCues?.length === 1 && (track.activeCues[0] as VTTCue).text === 'Pricing: from $9 to $49 a month';
    }, { polling: 100, timeout: 5000 });
    // Pressed again, they go.
    await cc!.click();
    assert.equal(await page.$eval('video track[kind="captions"]', (t) => (t as HTMLTrackElement).track.mode), 'hidden');
    assert.deepEqual(errorsOf(page), []);
    await page.close();
  });

  it('tells a Player.js listener on the embedding page which chapter is playing', async () => {
    // The host page speaks the Player.js protocol to the embed in its iframe, as any player.js client would.
    site.page(
      '/host.html',
      `<!doctype html><html><body>
<iframe id="player" src="${publicUrl}/embed/${demoId}?muted=1" width="640" height="360" allow="autoplay"></iframe>
<script>
window.__heard = [];
const frame = document.getElementById('player');
const send = (message) => frame.contentWindow.postMessage(JSON.stringify({ context: 'player.js', ...message }), '*');
window.addEventListener('message', (e) => {
  if (e.source !== frame.contentWindow) return;
  const data = JSON.parse(e.data);
  if (data.event === 'ready') {
    send({ method: 'addEventListener', value: 'chapterchange', listener: 'chapters-1' });
    window.__listening = true;
  }
  else window.__heard.push(data);
});
window.__seek = (s) => send({ method: 'setCurrentTime', value: s });
</script></body></html>`,
    );
    const page = await newPage();
    await page.goto(`${site.origin('127.0.0.1')}/host.html`);
    const frame = await (await page.waitForSelector('iframe'))!.contentFrame();
    await frame!.waitForFunction(() => document.querySelector<HTMLTrackElement>('video track[kind="chapters"]')?.readyState === 2, { polling: 100, timeout: 15_000 });
    const chapterEvents = () => page.evaluate(() => (window as any).__heard.filter((m: any) => m.event === 'chapterchange'));
    // Listening once the player is ready, then seeking to the second chapter's first instant (as a client going to
    // a chapter does) and then into the third.
    await page.waitForFunction(() => (window as any).__listening === true, { polling: 100, timeout: 15_000 });
    await page.evaluate(() => (window as any).__seek(2));
    await page.waitForFunction(() => (window as any).__heard.some((m: any) => m.event === 'chapterchange' && m.value.index === 1), { polling: 100, timeout: 10_000 });
    await page.evaluate(() => (window as any).__seek(4.5));
    await page.waitForFunction(() => (window as any).__heard.some((m: any) => m.event === 'chapterchange' && m.value.index === 2), { polling: 100, timeout: 10_000 });
    const heard = await chapterEvents();
    const last = heard.at(-1);
    assert.equal(last.context, 'player.js');
    assert.equal(last.listener, 'chapters-1');
    assert.deepEqual(last.value, { index: 2, title: 'What customers say', start: 4, end: 6 });
    assert.ok(heard.some((m: any) => m.value.index === 1 && m.value.title === 'Pricing' && m.value.start === 2));
    assert.deepEqual(errorsOf(page), []);
    await page.close();
  });
});
