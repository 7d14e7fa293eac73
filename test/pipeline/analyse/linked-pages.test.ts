import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'puppeteer-core';
import { analysePage } from '../../../src/pipeline/analyse/index.js';
import { linkedPageCandidates, readLinkedPages } from '../../../src/pipeline/analyse/linked-pages.js';
import { launchBrowser } from '../../../src/pipeline/browser/launch.js';
import { sameSiteAs } from '../../../src/pipeline/produce-flow.js';
import { startFixtureServer, type FixtureServer } from '../../helpers/fixture-server.js';

/**
 * Issue 56: before a demo is planned, what the pages its menu links to say. A café whose home page has no opening
 * hours links to a "Visit" page that has them: the reader brings back that page's headings with the words under each,
 * by GETs only, and leaves out what the home page shows too.
 */
describe("the pages a site's menu links to, read before planning", () => {
  let browser: Browser;
  let sites: FixtureServer;
  let page: Page;
  const requests: Array<{ method: string; url: string }> = [];

  before(async () => {
    [browser, sites] = await Promise.all([launchBrowser({ allowPrivate: true }), startFixtureServer({ onRequest: (method, url) => requests.push({ method, url }) })]);
    page = await browser.newPage();
  });
  after(async () => {
    await browser?.close();
    await sites?.close();
  });

  it("brings back each linked page's headings with their words, by GETs only", async () => {
    const url = `${sites.url('flow-cafe')}index.html`;
    await page.goto(url, { waitUntil: 'load' });
    const { outline } = await analysePage(page);
    requests.length = 0;
    const linked = await readLinkedPages(page, outline, sameSiteAs(url));
    assert.deepEqual(linked.map((p) => p.label).sort(), ['MENU', 'OUR STORY', 'VISIT'], 'every page of the menu but this one, by its label as shown');
    const visit = linked.find((p) => p.label === 'VISIT')!;
    assert.equal(visit.title, 'Visit — Copper Kettle');
    const hours = visit.parts.find((part) => part.heading === "Come on in, we're open");
    assert.ok(hours, 'the hours heading is read');
    assert.match(hours.text, /Saturday 8:00 to 16:00/, 'with the words under it');
    assert.ok(!visit.parts.some((part) => part.heading === 'Our promise to you'), 'a part the home page shows too is left out');
    assert.deepEqual(requests.filter((r) => r.method !== 'GET'), [], 'nothing but GETs');
    assert.ok(requests.some((r) => r.url.endsWith('/visit.html')), 'the linked page was fetched');
  });

  it("reads an admin page's card headings, which are h5s (datta-able's Typography page and its Blockquotes)", async () => {
    const url = `${sites.url('flow-admin')}index.html`;
    await page.goto(url, { waitUntil: 'load' });
    const { outline } = await analysePage(page);
    const linked = await readLinkedPages(page, outline, sameSiteAs(url));
    const typography = linked.find((p) => p.label === 'Typography');
    assert.ok(typography, `the Typography page is read: ${JSON.stringify(linked.map((p) => p.label))}`);
    const quotes = typography.parts.find((part) => part.heading === 'Blockquotes');
    assert.ok(quotes, `its card headed "Blockquotes" is a part: ${JSON.stringify(typography.parts.map((part) => part.heading))}`);
    assert.match(quotes.text, /contained in a blockquote element/);
  });

  it('reads no page of another site, and nothing when the menu only scrolls this page', async () => {
    const url = `${sites.url('flow-cafe')}index.html`;
    await page.goto(url, { waitUntil: 'load' });
    const { outline } = await analysePage(page);
    const elsewhere = (candidate: string) => new URL(candidate).hostname === 'elsewhere.example';
    assert.deepEqual(await readLinkedPages(page, outline, elsewhere), []);
    const anchors = { ...outline, navigation: outline.navigation.map((link) => ({ ...link, href: `${url}#${link.label.toLowerCase().replace(/\W+/g, '-')}` })) };
    assert.deepEqual(await readLinkedPages(page, anchors, sameSiteAs(url)), []);
  });

  it("finds the links of a dropdown a CSS hover opens, and reads a category's page that repeats the home page's cards under a title of its own", async () => {
    const url = `${sites.url('flow-hovermenu')}index.html`;
    await page.goto(url, { waitUntil: 'load' });
    const { outline } = await analysePage(page);
    const login = outline.menuLinks?.find((link) => link.label === 'Log in');
    assert.ok(login, `the hidden "Log in" is a menu link: ${JSON.stringify(outline.menuLinks?.map((link) => link.label))}`);
    assert.equal(login.opener?.label, 'Categories ▾');
    assert.equal(login.opener?.hover, true, 'opened by hovering its own link, which a click would follow');
    const linked = await readLinkedPages(page, outline, sameSiteAs(url));
    const romance = linked.find((p) => p.href.endsWith('/categories.html'));
    assert.deepEqual(romance?.parts.map((part) => part.heading), ['Romance'], 'the cards the home page shows too are left out, its title kept');
  });

  it('leaves out a page that does not answer in time', async () => {
    const url = `${sites.url('flow-cafe')}index.html`;
    await page.goto(url, { waitUntil: 'load' });
    const { outline } = await analysePage(page);
    assert.deepEqual(await readLinkedPages(page, outline, sameSiteAs(url), { timeoutMs: 0 }), []);
  });
});

describe('the pages a docs home leads into from its cards', () => {
  it("reads the page its cards link to when its menu links nowhere, the menu's pages first", () => {
    // coderdocs: a home page whose menu is its logo, and whose cards (Introduction, FAQs, …) each lead into docs-page.html.
    const link = (label: string, href: string) => ({ label, kind: 'nav-link' as const, href, rect: { x: 0, y: 0, width: 300, height: 200 }, selector: 'a', fallbackSelectors: [] });
    const outline = {
      url: 'http://localhost:4000/coder/index.html', title: 'CoderDocs', description: null, viewport: { width: 1280, height: 800 }, documentHeight: 3000,
      stickyHeaderHeight: 0, sections: [], actions: [], forms: [], media: [], dismissedOverlays: [],
      navigation: [link('CoderDocs', 'http://localhost:4000/coder/index.html'), link('Blog', 'http://localhost:4000/coder/blog.html')],
      contentLinks: [link('Introduction', 'http://localhost:4000/coder/docs-page.html#section-1'), link('FAQs', 'http://localhost:4000/coder/docs-page.html#section-9'), link('Elsewhere', 'https://example.org/')],
    };
    const sameSite = (url: string) => new URL(url).host === 'localhost:4000';
    assert.deepEqual(linkedPageCandidates(outline, sameSite).map((l) => l.label), ['Blog', 'Introduction'], 'each page once, none of another site, not this one');
  });
});
