import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'puppeteer-core';
import { analysePage, type PageAnalysis } from '../../../src/pipeline/analyse/analyse-page.js';
import { evaluateInPage } from '../../../src/pipeline/analyse/in-page.js';
import { launchBrowser } from '../../../src/pipeline/browser/launch.js';
import type { PageOutline, Rect } from '../../../src/pipeline/types.js';
import { startFixtureServer, type FixtureServer } from '../../helpers/fixture-server.js';

const VIEWPORT = { width: 1440, height: 810 };

let server: FixtureServer;
let browser: Browser;

before(async () => {
  server = await startFixtureServer();
  browser = await launchBrowser({ allowPrivate: true });
});

after(async () => {
  await browser?.close();
  await server?.close();
});

/** Requests a page made to anything but the fixture server (the sites must be self-contained). */
const external = new WeakMap<Page, string[]>();

async function newPage(): Promise<Page> {
  const page = await browser.newPage();
  await page.setViewport(VIEWPORT);
  const list: string[] = [];
  external.set(page, list);
  page.on('request', (request) => {
    const url = request.url();
    if (!url.startsWith(`${server.origin}/`) && !url.startsWith('data:')) list.push(url);
  });
  return page;
}

async function openAndAnalyse(site: string, file = ''): Promise<{ page: Page; analysis: PageAnalysis }> {
  const page = await newPage();
  await page.goto(`${server.url(site)}${file}`, { waitUntil: 'domcontentloaded', timeout: 30_000 });
  const analysis = await analysePage(page, { timeoutMs: 30_000 });
  return { page, analysis };
}

interface Checked {
  selector: string;
  fallbackSelectors: string[];
  rect: Rect | null;
}

/** Every target of the outline: its selectors each match exactly one element, the same one, where the rect says. */
async function assertSelectorsResolve(page: Page, outline: PageOutline): Promise<void> {
  const targets: Array<Checked & { what: string }> = [];
  const add = (what: string, t: { selector: string; fallbackSelectors?: string[]; rect: Rect }) =>
    targets.push({ what, selector: t.selector, fallbackSelectors: t.fallbackSelectors ?? [], rect: t.rect });
  for (const s of outline.sections) add(`section ${s.id}`, s);
  for (const a of outline.navigation) add(`nav "${a.label}"`, a);
  for (const a of outline.actions) add(`action "${a.label}"`, a);
  for (const f of outline.forms) {
    add(`form "${f.label}"`, f);
    for (const field of f.fields) add(`field "${field.label}"`, field);
    if (f.submit) add(`submit "${f.submit.label}"`, f.submit);
  }
  for (const m of outline.media) add(`media ${m.selector}`, m);
  assert.ok(targets.length > 0);

  assert.deepEqual(external.get(page) ?? [], [], 'the page loads nothing from outside the fixture server');
  const problems = await evaluateInPage(
    page,
    (list: Array<Checked & { what: string }>) => {
      const out: string[] = [];
      for (const t of list) {
        const els: Element[] = [];
        for (const sel of [t.selector, ...t.fallbackSelectors]) {
          let matches: NodeListOf<Element>;
          try {
            matches = document.querySelectorAll(sel);
          } catch {
            out.push(`${t.what}: invalid selector ${sel}`);
            continue;
          }
          if (matches.length !== 1) out.push(`${t.what}: ${sel} matches ${matches.length} elements`);
          else els.push(matches[0] as Element);
        }
        if (els.some((e) => e !== els[0])) out.push(`${t.what}: its selectors resolve to different elements`);
        const el = els[0];
        if (el && t.rect) {
          const r = el.getBoundingClientRect();
          const got = { x: r.left + window.scrollX, y: r.top + window.scrollY, width: r.width, height: r.height };
          const off = (['x', 'y', 'width', 'height'] as const).filter((k) => Math.abs(got[k] - (t.rect as Rect)[k]) > 4);
          if (off.length > 0) out.push(`${t.what}: rect ${JSON.stringify(t.rect)} but the element is at ${JSON.stringify(got)}`);
        }
      }
      return out;
    },
    targets,
  );
  assert.deepEqual(problems, []);
}

/** Visible, on screen at the top of the page, and not covered by anything (what a click would hit). */
async function isVisibleAndUncovered(page: Page, selector: string): Promise<boolean> {
  return evaluateInPage(
    page,
    (sel: string) => {
      const el = document.querySelector(sel);
      if (!el || !el.checkVisibility({ opacityProperty: true, visibilityProperty: true })) return false;
      const r = el.getBoundingClientRect();
      if (r.width < 1 || r.height < 1 || r.bottom <= 0 || r.top >= window.innerHeight) return false;
      const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
      return !!hit && (hit === el || el.contains(hit));
    },
    selector,
  );
}

async function isShown(page: Page, selector: string): Promise<boolean> {
  return evaluateInPage(
    page,
    (sel: string) => {
      const el = document.querySelector(sel);
      if (!el || !el.checkVisibility({ opacityProperty: true, visibilityProperty: true })) return false;
      const r = el.getBoundingClientRect();
      return r.width > 0 && r.height > 0 && r.bottom > 0 && r.top < window.innerHeight && r.right > 0 && r.left < window.innerWidth;
    },
    selector,
  );
}

const kinds = (outline: PageOutline) => outline.sections.map((s) => s.kind);

describe('analysePage on a SaaS landing page (BEM, sticky header, cookie banner, scroll reveals)', () => {
  let page: Page;
  let analysis: PageAnalysis;
  before(async () => {
    ({ page, analysis } = await openAndAnalyse('saas'));
  });
  after(async () => {
    await page?.close();
  });

  it('finds the hero first, then logos, features, testimonials, pricing, FAQ, a closing CTA and the footer', () => {
    const { outline } = analysis;
    assert.equal(outline.title, 'Flowboard — Project planning your whole team will actually use');
    assert.match(outline.description ?? '', /free 14-day trial/);
    assert.deepEqual(outline.viewport, VIEWPORT);
    assert.deepEqual(kinds(outline), ['hero', 'logos', 'features', 'testimonials', 'pricing', 'faq', 'cta', 'footer']);
    const hero = outline.sections[0]!;
    assert.equal(hero.heading, 'Plan, track and ship work your whole team can see');
    assert.ok(hero.text.length > 0 && hero.text.length <= 200);
    assert.ok(outline.sections.every((s) => s.text.length <= 200), 'summaries are at most 200 characters');
    const faq = outline.sections.find((s) => s.kind === 'faq')!;
    assert.equal(faq.heading, 'Frequently asked questions');
    assert.equal(faq.id, 'faq');
    const testimonials = outline.sections.find((s) => s.kind === 'testimonials')!;
    assert.match(testimonials.text, /We replaced three tools/);
    const ids = outline.sections.map((s) => s.id);
    assert.equal(new Set(ids).size, ids.length, 'section ids are unique');
    const ys = outline.sections.map((s) => s.rect.y);
    assert.deepEqual(ys, [...ys].sort((a, b) => a - b), 'sections are in document order');
  });

  it('points the pricing section at the element holding all three tiers', async () => {
    const pricing = analysis.outline.sections.find((s) => s.kind === 'pricing')!;
    assert.equal(pricing.heading, 'Simple pricing that scales with you');
    assert.match(pricing.text, /Starter \$0\/mo/);
    const tiers = await evaluateInPage(page, (sel: string) => (document.querySelector(sel) as HTMLElement).innerText, pricing.selector);
    for (const tier of ['Starter', 'Pro', 'Enterprise', '$0', '$12', '$29']) assert.ok(tiers.includes(tier), `pricing holds ${tier}`);
  });

  it('picks the hero "Start free trial" as the primary CTA, with a selector that resolves to the visible button', async () => {
    const primary = analysis.outline.actions.filter((a) => a.kind === 'primary-cta');
    assert.equal(primary.length, 1);
    const cta = primary[0]!;
    assert.equal(cta.label, 'Start free trial');
    assert.match(cta.href ?? '', /\/signup\?plan=trial$/, 'the hero button, not the small one in the header');
    assert.ok(cta.rect.y > analysis.outline.stickyHeaderHeight && cta.rect.y + cta.rect.height < VIEWPORT.height, 'above the fold');
    assert.ok(await isVisibleAndUncovered(page, cta.selector));
    for (const fallback of cta.fallbackSelectors) assert.ok(await isVisibleAndUncovered(page, fallback));
    const header = analysis.outline.actions.find((a) => a.kind === 'cta' && a.label === 'Start free trial' && a.rect.y < 69);
    assert.ok(header, 'the header button is a CTA too');
  });

  it('dismisses the cookie banner by accepting it, and leaves the sticky header alone', async () => {
    assert.equal(analysis.outline.dismissedOverlays.length, 1);
    assert.match(analysis.outline.dismissedOverlays[0]!, /^cookie banner .*clicked "accept"/i);
    assert.deepEqual(analysis.snapshot.dismissedOverlays, analysis.outline.dismissedOverlays);
    assert.equal(await isShown(page, '#cookie-consent'), false);
    assert.equal(await evaluateInPage(page, () => localStorage.getItem('flowboard.cookie-consent'), null), 'all', 'the page saw the click');
    assert.equal(await isShown(page, '.site-header'), true);
  });

  it('measures the sticky header and lists the main navigation', () => {
    const { outline } = analysis;
    assert.ok(outline.stickyHeaderHeight >= 66 && outline.stickyHeaderHeight <= 72, `sticky header ${outline.stickyHeaderHeight}`);
    const labels = outline.navigation.map((n) => n.label);
    for (const label of ['Features', 'Customers', 'Pricing', 'FAQ', 'Docs']) assert.ok(labels.includes(label), `nav has ${label}`);
    assert.ok(outline.navigation.every((n) => n.kind === 'nav-link'));
    assert.ok(!outline.actions.some((a) => a.kind === 'nav-link'));
    assert.ok(outline.documentHeight > 3 * VIEWPORT.height);
    assert.equal(outline.media.length, 1, 'the product screenshot; logos and avatars are too small to count');
  });

  it('gives every target selectors that match exactly its element', async () => {
    await assertSelectorsResolve(page, analysis.outline);
  });

  it('leaves the page at the top and returns a snapshot', async () => {
    assert.equal(await evaluateInPage(page, () => window.scrollY, null), 0, 'left at the top');
    const { snapshot, outline } = analysis;
    assert.equal(snapshot.url, server.url('saas'));
    assert.equal(snapshot.title, outline.title);
    assert.equal(snapshot.sectionCount, outline.sections.length);
    assert.equal(snapshot.documentHeight, outline.documentHeight);
    assert.ok(!Number.isNaN(Date.parse(snapshot.capturedAt)));
  });
});

describe('analysePage on an agency one-pager (utility classes, newsletter modal, lazy images)', () => {
  let page: Page;
  let analysis: PageAnalysis;
  let lazyBefore: number;
  before(async () => {
    page = await newPage();
    await page.goto(server.url('agency'), { waitUntil: 'domcontentloaded' });
    lazyBefore = await evaluateInPage(page, () => document.querySelectorAll('img[data-src]').length, null);
    analysis = await analysePage(page);
  });
  after(async () => {
    await page?.close();
  });

  it('closes the newsletter popup that appears after half a second, with its close button', async () => {
    const { dismissedOverlays } = analysis.outline;
    assert.equal(dismissedOverlays.length, 1);
    assert.match(dismissedOverlays[0]!, /^dialog .*Nord Letter.*clicked "close"/i);
    assert.equal(await isShown(page, '#nl-modal'), false);
    assert.equal(await evaluateInPage(page, () => document.body.classList.contains('modal-open'), null), false, 'scrolling unlocked');
    assert.equal(await evaluateInPage(page, () => sessionStorage.getItem('nl-seen'), null), '1', 'the page saw the close');
    assert.ok(!analysis.outline.forms.some((f) => f.fields.some((field) => field.name === 'email')), 'the hidden newsletter form is not listed');
  });

  it('loads the lazy case-study images while scrolling', async () => {
    assert.equal(lazyBefore, 3, 'three images wait for data-src');
    const images = await evaluateInPage(
      page,
      () =>
        Array.from(document.querySelectorAll('img.lazy')).map((img) => ({
          src: img.getAttribute('src'),
          complete: (img as HTMLImageElement).complete,
          width: (img as HTMLImageElement).naturalWidth,
          dataSrc: img.getAttribute('data-src'),
        })),
      null,
    );
    assert.equal(images.length, 3);
    for (const img of images) {
      assert.match(img.src ?? '', /^img\/case-[a-z]+\.svg$/);
      assert.equal(img.dataSrc, null);
      assert.ok(img.complete && img.width > 0, `${img.src} loaded`);
    }
  });

  it('outlines the hero, services, case studies, studio, contact CTA and footer', async () => {
    const { outline } = analysis;
    assert.deepEqual(kinds(outline), ['hero', 'features', 'media', 'content', 'content', 'cta', 'footer']);
    const hero = outline.sections[0]!;
    assert.equal(hero.heading, 'We make brands people remember.');
    assert.equal(hero.rect.y, 0);
    assert.equal(hero.rect.height, VIEWPORT.height, 'a full-bleed, full-height hero');
    const work = outline.sections.find((s) => s.heading === 'Selected case studies');
    assert.ok(work);
    assert.equal(work.kind, 'media');
    assert.equal(work.id, 'work');
    const caseImages = outline.media.filter((m) => m.rect.y >= work.rect.y && m.rect.y < work.rect.y + work.rect.height);
    assert.equal(caseImages.length, 4);
    assert.equal(outline.sections.find((s) => s.id === 'contact')?.kind, 'cta');
    assert.equal(outline.stickyHeaderHeight, 0, 'the header scrolls away');
    assert.deepEqual(
      outline.navigation.map((n) => n.label),
      ['Work', 'Services', 'Studio', 'Contact'],
    );
    const primary = outline.actions.find((a) => a.kind === 'primary-cta');
    assert.equal(primary?.label, 'See our work');
    assert.ok(await isVisibleAndUncovered(page, primary!.selector));
  });

  it('gives every target selectors that match exactly its element (utility class names escaped)', async () => {
    await assertSelectorsResolve(page, analysis.outline);
  });
});

describe('analysePage on an app with a sign-up form (semantic markup)', () => {
  let page: Page;
  let analysis: PageAnalysis;
  before(async () => {
    ({ page, analysis } = await openAndAnalyse('signup-app'));
  });
  after(async () => {
    await page?.close();
  });

  it('finds the sign-up form with its name, email and password fields and its submit button', () => {
    const { outline } = analysis;
    assert.equal(outline.forms.length, 1);
    const form = outline.forms[0]!;
    assert.equal(form.label, 'Create your Ledgerly account');
    const byType = (type: string) => form.fields.find((f) => f.type === type);
    assert.deepEqual(
      form.fields.map((f) => [f.label, f.name, f.type]),
      [
        ['Full name', 'fullName', 'text'],
        ['Work email', 'email', 'email'],
        ['Password', 'password', 'password'],
        ['I agree to the Terms and Privacy Policy.', 'terms', 'checkbox'],
      ],
    );
    assert.ok(byType('email') && byType('password'));
    assert.ok(form.submit);
    assert.equal(form.submit.label, 'Create account');
    assert.ok(form.fields.every((f) => f.rect.y >= form.rect.y && f.rect.y < form.submit!.rect.y));
  });

  it('classifies hero, how-it-works, the form section and the footer, and the hero CTA as primary', () => {
    const { outline } = analysis;
    assert.deepEqual(kinds(outline), ['hero', 'features', 'form', 'footer']);
    assert.deepEqual(outline.sections.map((s) => s.id), ['intro', 'how', 'signup', 'footer']);
    const primary = outline.actions.find((a) => a.kind === 'primary-cta');
    assert.equal(primary?.label, 'Create your free account');
    assert.ok(primary?.href?.endsWith('#signup'));
    assert.deepEqual(outline.dismissedOverlays, []);
    assert.equal(outline.stickyHeaderHeight, 0);
  });

  it('gives selectors the recorder can type into: validation, then the success state, without network', async () => {
    await assertSelectorsResolve(page, analysis.outline);
    const form = analysis.outline.forms[0]!;
    const field = (type: string) => form.fields.find((f) => f.type === type)!;
    const requests: string[] = [];
    page.on('request', (r) => requests.push(r.url()));

    await page.click(form.submit!.selector);
    const errors = await evaluateInPage(page, () => document.getElementById('email-error')?.textContent ?? '', null);
    assert.match(errors, /valid email/);

    await page.type(field('text').selector, 'Ada Lovelace');
    await page.type(field('email').selector, 'ada@example.com');
    await page.type(field('password').selector, 'analytical1');
    await page.click(field('checkbox').selector);
    await page.click(form.submit!.selector);
    await page.waitForSelector('#signup-done:not([hidden])', { timeout: 5000 });
    assert.match(await evaluateInPage(page, () => document.getElementById('signup-done')!.textContent ?? '', null), /Welcome aboard, Ada!/);
    assert.deepEqual(requests, []);
  });

  it('also analyses the standalone /signup.html page', async () => {
    const { page: signupPage, analysis: signup } = await openAndAnalyse('signup-app', 'signup.html');
    try {
      assert.equal(signup.outline.forms.length, 1);
      const types = signup.outline.forms[0]!.fields.map((f) => f.type);
      assert.ok(types.includes('email') && types.includes('password'));
      assert.equal(signup.outline.sections[0]?.kind, 'form');
      assert.equal(signup.outline.actions.find((a) => a.kind === 'primary-cta')?.label, 'Create account');
      await assertSelectorsResolve(signupPage, signup.outline);
    } finally {
      await signupPage.close();
    }
  });
});

describe('analysePage on a long docs page (divs only, fixed top bar, sticky sidebar)', () => {
  let page: Page;
  let analysis: PageAnalysis;
  before(async () => {
    ({ page, analysis } = await openAndAnalyse('docs'));
  });
  after(async () => {
    await page?.close();
  });

  it('splits the content into its many headed sections, none of them the sidebar', () => {
    const { outline } = analysis;
    const headed = outline.sections.filter((s) => s.heading);
    assert.ok(headed.length >= 8, `${headed.length} headed sections`);
    const headings = headed.map((s) => s.heading);
    for (const h of ['Installation', 'Quick start', 'Configuration', 'Streams', 'Subscriptions', 'Error handling', 'API reference', 'Changelog'])
      assert.ok(headings.includes(h), `a section headed ${h}`);
    assert.ok(!headings.some((h) => h?.startsWith('#')), 'heading anchors are not part of the heading');
    assert.equal(outline.sections.find((s) => s.heading === 'Installation')?.selector, '#installation');
    assert.ok(outline.sections.every((s) => s.rect.x >= 280), 'the sidebar column is not a section');
    assert.ok(!outline.sections.some((s) => s.kind === 'hero' || s.kind === 'pricing'), 'no marketing kinds in docs');
  });

  it('detects the fixed top bar as the sticky header and the page as long', async () => {
    const { outline } = analysis;
    assert.equal(outline.stickyHeaderHeight, 60);
    assert.ok(outline.documentHeight > 5 * VIEWPORT.height, `document ${outline.documentHeight}px`);
    assert.deepEqual(outline.dismissedOverlays, [], 'a fixed top bar and a sticky sidebar are not overlays');
    assert.equal(await isShown(page, '.topbar'), true);
    assert.equal(await isShown(page, '.sidebar-inner'), true);
  });

  it('lists the sidebar links as navigation, the search box as a form, and the top-bar button as the primary CTA', () => {
    const { outline } = analysis;
    const anchors = outline.navigation.filter((n) => n.href?.includes('#'));
    assert.ok(anchors.length >= 20, `${anchors.length} in-page links`);
    assert.ok(outline.navigation.some((n) => n.label === 'Quick start' && n.href?.endsWith('#quick-start')));
    const search = outline.forms.find((f) => f.fields.some((field) => field.type === 'search'));
    assert.ok(search);
    assert.equal(search.fields[0]!.label, 'Search the docs');
    assert.equal(search.fields[0]!.selector, '#doc-search');
    assert.equal(outline.actions.find((a) => a.kind === 'primary-cta')?.label, 'Get started');
    assert.ok(outline.actions.filter((a) => a.label === 'Copy').every((a) => a.kind === 'button'), 'copy buttons are plain buttons');
  });

  it('gives every target selectors that match exactly its element', async () => {
    await assertSelectorsResolve(page, analysis.outline);
  });
});

describe('analysePage on a charity page (a sticky header under an announcement bar)', () => {
  let page: Page;
  let analysis: PageAnalysis;
  before(async () => {
    ({ page, analysis } = await openAndAnalyse('riverkeep'));
  });
  after(async () => {
    await page?.close();
  });

  it('counts the header that sticks once the bar scrolls away, so sections are not planned under it', async () => {
    const { outline } = analysis;
    const header = await page.$eval('header', (h) => h.getBoundingClientRect().height);
    assert.equal(outline.stickyHeaderHeight, Math.round(header), `sticky header ${outline.stickyHeaderHeight}, the header is ${header} px`);
  });
});

describe('analysePage on a conference page (eyebrows over slogan headings, a ticket bar fixed to the bottom)', () => {
  let page: Page;
  let analysis: PageAnalysis;
  before(async () => {
    ({ page, analysis } = await openAndAnalyse('harbourline'));
  });
  after(async () => {
    await page?.close();
  });

  it('keeps the eyebrow that names a section and where its heading is', async () => {
    const speakers = analysis.outline.sections.find((section) => section.id === 'speakers');
    assert.equal(speakers?.kicker?.toLowerCase(), 'line-up');
    const heading = await page.$eval('#speakers h2', (h) => {
      const r = h.getBoundingClientRect();
      return { y: r.top + window.scrollY, height: r.height };
    });
    assert.ok(Math.abs((speakers?.headingRect?.y ?? 0) - heading.y) <= 1, `heading at ${heading.y}, outline says ${speakers?.headingRect?.y}`);
  });

  it('measures the bar fixed to the bottom, so nothing is planned under it', async () => {
    const bar = await page.evaluate(() => {
      const fixed = Array.from(document.querySelectorAll('body *')).find((el) => getComputedStyle(el).position === 'fixed' && el.getBoundingClientRect().bottom >= innerHeight - 2);
      return fixed ? innerHeight - fixed.getBoundingClientRect().top : 0;
    });
    assert.ok(bar > 0, 'the fixture has a bottom bar');
    assert.equal(analysis.outline.stickyFooterHeight, Math.round(bar));
  });
});
