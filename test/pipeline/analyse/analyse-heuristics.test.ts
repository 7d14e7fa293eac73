/**
 * The analysis heuristics on small synthetic pages, each built to exercise one kind of markup the fixture sites do
 * not have: a native modal <dialog>, an overlay without any button, a cookie bar at the top, fixed furniture that
 * must be left alone, a long flat article, generated ids.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { analysePage } from '../../../src/pipeline/analyse/analyse-page.js';
import { dismissOverlays } from '../../../src/pipeline/analyse/dismiss-overlays.js';
import { evaluateInPage } from '../../../src/pipeline/analyse/in-page.js';
import type { Page } from 'puppeteer-core';
import { htmlPages } from './html-pages.js';

const pageWith = htmlPages();

const shown = (page: Page, selector: string) =>
  evaluateInPage(
    page,
    (sel: string) => {
      const el = document.querySelector(sel);
      if (!el || !el.checkVisibility({ opacityProperty: true, visibilityProperty: true })) return false;
      const r = el.getBoundingClientRect();
      return r.width > 0 && r.height > 0;
    },
    selector,
  );

const filler = (n: number) => Array.from({ length: n }, (_, i) => `<p>Paragraph ${i + 1} with enough words to be read as real content on the page.</p>`).join('');

describe('dismissing overlays', () => {
  it('closes a native modal <dialog> with "No thanks", hides a button-less interstitial, and keeps fixed furniture', async () => {
    const page = await pageWith(`
      <style>
        .side { position: fixed; left: 0; top: 0; bottom: 0; width: 300px; background: #eee; z-index: 10; }
        .side a { display: block; padding: 6px 16px; }
        main { margin-left: 300px; padding: 24px; }
        .bubble { position: fixed; right: 20px; bottom: 20px; width: 60px; height: 60px; border-radius: 50%; background: #06f; z-index: 99; border: 0; }
        .interstitial { position: fixed; inset: 0; background: rgba(0,0,0,.75); z-index: 1000; display: grid; place-items: center; color: #fff; }
      </style>
      <div class="side"><a href="#a">Alpha</a><a href="#b">Beta</a><a href="#c">Gamma</a><a href="#d">Delta</a><a href="#e">Epsilon</a><a href="#f">Zeta</a></div>
      <main><section id="a"><h1>Product</h1>${filler(30)}</section></main>
      <button class="bubble" aria-label="Open chat"></button>
      <dialog id="promo"><h2>Spring sale</h2><p>20% off every plan this week.</p><button id="shop">Shop now</button> <button id="nothanks">No thanks</button></dialog>
      <div class="interstitial"><p>Preparing your experience…</p></div>
      <script>
        document.getElementById('promo').showModal();
        document.getElementById('nothanks').addEventListener('click', () => document.getElementById('promo').close());
        document.getElementById('shop').addEventListener('click', () => { document.title = 'shop clicked'; });
        document.documentElement.style.overflow = 'hidden';
      </script>`);
    try {
      const dismissed = await dismissOverlays(page, { settleMs: 0 });
      assert.equal(dismissed.length, 2, dismissed.join('\n'));
      assert.ok(dismissed.some((d) => /^dialog "Spring sale.*: clicked "no thanks"$/.test(d)), dismissed.join('\n'));
      assert.ok(dismissed.some((d) => /Preparing your experience.*: hidden$/.test(d)), dismissed.join('\n'));
      assert.equal(await evaluateInPage(page, () => (document.getElementById('promo') as HTMLDialogElement).open, null), false);
      assert.notEqual(await page.title(), 'shop clicked', 'never clicks a call to action');
      assert.equal(await shown(page, '.interstitial'), false);
      assert.equal(await shown(page, '.side'), true, 'a fixed sidebar is not an overlay');
      assert.equal(await shown(page, '.bubble'), true, 'a chat bubble is not an overlay');
      assert.notEqual(
        await evaluateInPage(page, () => getComputedStyle(document.documentElement).overflowY, null),
        'hidden',
        'scrolling is given back after a modal',
      );
      assert.deepEqual(await dismissOverlays(page, { settleMs: 0 }), [], 'nothing left to dismiss');
    } finally {
      await page.close();
    }
  });

  it('accepts a cookie bar at the top without touching the sticky header under it, and waits for a late popup', async () => {
    const page = await pageWith(`
      <header style="position: sticky; top: 0; height: 64px; background: #fff; border-bottom: 1px solid #ddd; display: flex; gap: 16px; align-items: center; padding: 0 24px">
        <nav><a href="/">Home</a> <a href="/pricing">Pricing</a> <a href="/about">About</a></nav>
      </header>
      <div id="consent" style="position: fixed; top: 0; left: 0; right: 0; background: #222; color: #fff; padding: 14px 24px; z-index: 500">
        This website uses cookies to improve your experience. <a href="/cookie-policy">Learn more</a> <button id="ok">Got it</button>
      </div>
      <main style="padding: 24px"><h1>Hello</h1>${filler(40)}</main>
      <div id="late" role="dialog" aria-label="Offer" hidden style="position: fixed; right: 24px; bottom: 24px; width: 420px; padding: 24px; background: #fff; box-shadow: 0 10px 30px #0004">
        <p>Get 10% off your first order</p><button aria-label="Dismiss offer">✕</button>
      </div>
      <script>
        document.getElementById('ok').onclick = () => document.getElementById('consent').remove();
        const late = document.getElementById('late');
        late.querySelector('button').onclick = () => { late.hidden = true; };
        setTimeout(() => { late.hidden = false; }, 400);
      </script>`);
    try {
      const dismissed = await dismissOverlays(page, { settleMs: 1200 });
      assert.equal(dismissed.length, 2, dismissed.join('\n'));
      assert.match(dismissed[0]!, /^cookie banner "This website uses cookies.*: clicked "got it"$/);
      assert.match(dismissed[1]!, /^dialog "Get 10% off.*: clicked "dismiss offer"$/);
      assert.equal(await evaluateInPage(page, () => document.getElementById('consent'), null), null, 'removed by its own button');
      assert.equal(await shown(page, 'header'), true);
    } finally {
      await page.close();
    }
  });

  it('waits for a popup that is still fading in, then uses its close button', async () => {
    const page = await pageWith(`
      <style>
        @keyframes appear { from { opacity: 0; transform: translateY(20px); } to { opacity: 1; transform: none; } }
        #pop { position: fixed; inset: 0; background: rgba(0,0,0,.5); display: grid; place-items: center; }
        #pop[hidden] { display: none; }
        #card { background: #fff; padding: 32px; width: 420px; animation: appear .4s ease-out .35s both; }
      </style>
      <main style="padding: 24px"><h1>Fade-in popup</h1>${filler(10)}</main>
      <div id="pop" hidden><div id="card" role="dialog" aria-label="Join our newsletter"><h2>Join 20,000 readers</h2>
        <button id="x" aria-label="Close">×</button></div></div>
      <script>
        document.getElementById('x').onclick = () => { document.getElementById('pop').hidden = true; document.title = 'closed'; };
        setTimeout(() => { document.getElementById('pop').hidden = false; }, 100);
      </script>`);
    try {
      // Polls every 250 ms: one pass lands while the card is still invisible (opacity 0 during its delay).
      const dismissed = await dismissOverlays(page, { settleMs: 1200 });
      assert.equal(dismissed.length, 1, dismissed.join('\n'));
      assert.match(dismissed[0]!, /: clicked "close"$/);
      assert.equal(await page.title(), 'closed');
    } finally {
      await page.close();
    }
  });

  it('survives a consent button that reloads the page', async () => {
    const page = await pageWith(`
      <main style="padding: 24px"><h1>Reloading consent</h1>${filler(10)}</main>
      <div style="position: fixed; bottom: 0; left: 0; right: 0; padding: 20px; background: #fff; box-shadow: 0 -4px 20px #0003">
        We use cookies for analytics. <button onclick="setTimeout(() => location.reload(), 50)">Accept all</button>
      </div>`);
    try {
      const dismissed = await dismissOverlays(page, { settleMs: 0 });
      assert.ok(dismissed.length <= 1, dismissed.join('\n'));
      assert.equal(await evaluateInPage(page, () => document.readyState, null), 'complete');
    } finally {
      await page.close();
    }
  });
});

describe('outlining unfamiliar markup', () => {
  it('splits a long flat article into one section per h2, each pointing at its heading', async () => {
    const parts = ['Why we built it', 'How it works', 'What it costs', 'What comes next'];
    const page = await pageWith(`
      <article style="max-width: 760px; margin: 0 auto; padding: 24px">
        <h1>Introducing Relay</h1>${filler(3)}
        ${parts.map((p) => `<h2>${p}</h2>${filler(8)}`).join('')}
      </article>`);
    try {
      const { outline } = await analysePage(page);
      assert.deepEqual(
        outline.sections.map((s) => s.heading),
        ['Introducing Relay', ...parts],
        'the title and intro, then one section per h2',
      );
      const checks = await evaluateInPage(
        page,
        (sections: Array<{ selector: string; y: number; height: number }>) =>
          sections.map((s) => {
            const matches = document.querySelectorAll(s.selector);
            const el = matches[0];
            const top = el ? el.getBoundingClientRect().top + window.scrollY : -1;
            return { count: matches.length, tag: el?.tagName, atHeading: Math.abs(top - s.y) <= 2, height: s.height };
          }),
        outline.sections.map((s) => ({ selector: s.selector, y: s.rect.y, height: s.rect.height })),
      );
      for (const c of checks) {
        assert.equal(c.count, 1);
        assert.match(c.tag ?? '', /^H[12]$/);
        assert.ok(c.atHeading);
        assert.ok(c.height > 100, 'a section spans its heading and the text under it');
      }
      for (const s of outline.sections) assert.match(s.text, /^Paragraph 1 /);
    } finally {
      await page.close();
    }
  });

  it("splits a long blog post with just two parts at its headings, through the article's wrappers; a short one stays whole", async () => {
    const post = (paragraphs: number) => `
      <header style="height: 600px; background: #333; color: #fff"><h1>Man must explore</h1></header>
      <article><div class="container"><div class="row"><div class="col">
        ${filler(paragraphs)}<h2>The Final Frontier</h2>${filler(paragraphs)}<h2>Reaching for the Stars</h2>${filler(paragraphs)}
      </div></div></div></article>`;
    const long = await pageWith(post(20));
    try {
      const { outline } = await analysePage(long);
      assert.deepEqual(outline.sections.map((s) => s.heading).filter((h) => h !== 'Man must explore'), ['The Final Frontier', 'Reaching for the Stars']);
    } finally {
      await long.close();
    }
    const short = await pageWith(post(2));
    try {
      const { outline } = await analysePage(short);
      assert.ok(!outline.sections.some((s) => s.heading === 'Reaching for the Stars'), JSON.stringify(outline.sections.map((s) => s.heading)));
    } finally {
      await short.close();
    }
  });

  it('ignores generated ids, prefers data-testid, and never uses state classes', async () => {
    const page = await pageWith(`
      <div id=":r1:">
        <section id="ember1234" class="hero is-visible" style="padding: 80px 24px; min-height: 400px">
          <h1 style="font-size: 48px">Ship faster</h1>
          <a class="btn active" href="/start" style="display: inline-block; padding: 14px 24px; background: #e33; color: #fff; border-radius: 8px">Get started</a>
        </section>
        <section data-testid="pricing-block" style="padding: 40px 24px">
          <h2>Plans</h2><div>Basic €9/month</div><div>Team €29/month</div>
        </section>
        <section style="padding: 40px 24px"><h2>Questions?</h2>
          <details><summary>Is there a trial?</summary>Yes.</details><details><summary>Can I cancel?</summary>Any time.</details>
        </section>
      </div>`);
    try {
      const { outline } = await analysePage(page);
      assert.deepEqual(
        outline.sections.map((s) => s.kind),
        ['hero', 'pricing', 'faq'],
      );
      const all = [...outline.sections, ...outline.actions].flatMap((t) => [t.selector, ...t.fallbackSelectors]);
      assert.ok(!all.some((s) => s.includes(':r1:') || s.includes('ember1234')), all.join('\n'));
      assert.ok(!all.some((s) => /\.(is-visible|active)\b/.test(s)), all.join('\n'));
      assert.equal(outline.sections[1]!.selector, '[data-testid="pricing-block"]');
      const primary = outline.actions.find((a) => a.kind === 'primary-cta');
      assert.equal(primary?.label, 'Get started');
      assert.equal(await evaluateInPage(page, (sel: string) => document.querySelectorAll(sel).length, primary!.selector), 1);
    } finally {
      await page.close();
    }
  });

  it("knows prices per head or per night as pricing: an event's passes, a hotel's rooms", async () => {
    const page = await pageWith(`
      <section style="padding: 80px 24px; min-height: 400px"><h1 style="font-size: 48px">Northwind DevDays</h1><p>Two days in Utrecht.</p></section>
      <section id="passes" style="padding: 40px 24px"><h2>Come along</h2><div>Standard €240 per person</div><div>Student €60</div><div>Group of four €800</div></section>
      <section style="padding: 40px 24px"><h2>Where to sleep</h2><div>Canal room €140 / night</div><div>Loft €210 / night</div></section>
      <section style="padding: 40px 24px"><h2>Our numbers</h2><div>Raised €2,000,000 for 12 charities</div><div>€40 average gift</div></section>`);
    try {
      const { outline } = await analysePage(page);
      assert.deepEqual(
        outline.sections.map((s) => [s.heading, s.kind]),
        [['Northwind DevDays', 'hero'], ['Come along', 'pricing'], ['Where to sleep', 'pricing'], ['Our numbers', 'content']],
      );
    } finally {
      await page.close();
    }
  });

  it('leaves an announcement bar above the header out, and finds the hero under it', async () => {
    const page = await pageWith(`
      <div class="announcement" style="background:#0b3;color:#fff;padding:10px 24px;font-size:14px">Welcoming new patients · Same-day emergency slots · <a href="#book">Call 01632 960418</a></div>
      <header style="position:sticky;top:0;background:#fff;padding:16px 24px"><a href="#care">Care</a> <a href="#book">Book</a></header>
      <section id="welcome" style="padding:80px 24px;min-height:420px"><h1 style="font-size:48px">A dentist you might look forward to</h1><p>Unhurried appointments.</p><a href="#book" class="btn">Book an appointment</a></section>
      <section id="care" style="padding:40px 24px">${'<h2>Everything your mouth needs</h2>'}${filler(4)}</section>`);
    try {
      const { outline } = await analysePage(page);
      assert.deepEqual(
        outline.sections.map((s) => [s.id, s.kind]),
        [['welcome', 'hero'], ['care', 'content']],
      );
    } finally {
      await page.close();
    }
  });

  it('counts a header that only sticks once the page scrolls (a class a scroll handler adds) as the sticky header', async () => {
    const page = await pageWith(`
      <style>header{background:#fff;padding:20px 24px;height:32px} header.stuck{position:fixed;top:0;left:0;right:0;box-shadow:0 2px 8px #0002}</style>
      <header><a href="#plans">Plans</a> <a href="#faq">FAQ</a></header>
      <section style="padding:80px 24px;min-height:480px"><h1>Books that balance themselves</h1><a href="#plans" class="btn">Start free</a></section>
      <section id="plans" style="padding:40px 24px"><h2>Plans for every size</h2>${filler(6)}</section>
      <section id="faq" style="padding:40px 24px"><h2>Questions</h2>${filler(6)}</section>
      <script>addEventListener('scroll', () => document.querySelector('header').classList.toggle('stuck', scrollY > 60));</script>`);
    try {
      const { outline } = await analysePage(page);
      assert.equal(outline.stickyHeaderHeight, 72, 'the stuck header: 32 px and 20 px of padding above and below');
      assert.equal(await evaluateInPage(page, (_: null) => window.scrollY, null), 0, 'and the page is back at the top');
    } finally {
      await page.close();
    }
  });

  it('splits a docs page\'s narrow text column by its headings, whatever their level (markdown\'s h1 for every part)', async () => {
    const part = (title: string) => `<h1>${title}</h1>${filler(9)}`;
    const page = await pageWith(`
      <header style="padding:80px 24px;background:#234;color:#fff;text-align:center"><h1>copykit</h1><p>Copy text to the clipboard.</p></header>
      <main style="width:600px;margin:0 auto">${['Install', 'Usage', 'Events', 'Browser support'].map(part).join('')}</main>`);
    try {
      const { outline } = await analysePage(page);
      const headings = outline.sections.map((s) => s.heading);
      for (const title of ['Install', 'Usage', 'Events', 'Browser support']) assert.ok(headings.includes(title), `a section "${title}" in ${JSON.stringify(headings)}`);
    } finally {
      await page.close();
    }
  });

  it("splits a docs part of several screens by its own sub-headings (\"Usage\" over \"Usage with jQuery\"), but not a release log's short entries", async () => {
    const sub = (title: string) => `<h3>${title}</h3>${filler(12)}`;
    const release = (v: string) => `<h3>${v}</h3><p>Bugfix: one small thing fixed.</p>`;
    const page = await pageWith(`
      <header style="padding:80px 24px;background:#234;color:#fff;text-align:center"><h1>headkit</h1><p>Hide your header until you need it.</p></header>
      <main style="width:640px;margin:0 auto">
        <h2>Installation</h2>${filler(4)}
        <h2>Usage</h2>${filler(2)}${['Options', 'Methods', 'Dealing with anchor links', 'Usage with jQuery'].map(sub).join('')}
        <h2>Browser support</h2>${filler(4)}
        <h2>Changelog</h2>${Array.from({ length: 30 }, (_, i) => release(`v0.${30 - i}.0`)).join('')}
      </main>`);
    try {
      const { outline } = await analysePage(page);
      const headings = outline.sections.map((s) => s.heading);
      for (const title of ['Usage', 'Options', 'Usage with jQuery', 'Browser support', 'Changelog']) assert.ok(headings.includes(title), `a section "${title}" in ${JSON.stringify(headings)}`);
      assert.ok(!headings.includes('v0.29.0'), 'a release is a line of the log, not a part of the page');
      const usage = outline.sections.find((s) => s.heading === 'Usage')!;
      assert.ok(usage.rect.height < 810, 'the title part ends where its first sub-part starts');
    } finally {
      await page.close();
    }
  });

  it("reads the parts of an admin page whose panel is one screen tall and lets its content run on down the page", async () => {
    const part = (title: string) => `<h3>${title}</h3><div class="row" style="height:700px">${filler(3)}</div>`;
    const page = await pageWith(`
      <div class="wrapper" style="min-height:100vh">
        <div class="sidebar" style="position:fixed;left:0;top:0;width:240px;height:100vh;background:#123"><a href="#">Dashboard</a><a href="#">Widgets</a></div>
        <div class="main-panel" style="margin-left:260px;height:100vh">
          <div class="page-inner">${['Card', 'Timeline', 'Pricing', 'Pricing 2', 'Customized Card'].map(part).join('')}</div>
        </div>
      </div>`);
    try {
      const { outline } = await analysePage(page);
      const headings = outline.sections.map((s) => s.heading);
      for (const title of ['Timeline', 'Pricing', 'Pricing 2']) assert.ok(headings.includes(title), `a section "${title}" in ${JSON.stringify(headings)}`);
    } finally {
      await page.close();
    }
  });

  it('keeps the last part of a page headed by h6 throughout as a part, while a real footer is still the footer', async () => {
    // The last part has links and no h1 or h2, as a footer has; but it is headed as every other part is.
    const part = (id: string, title: string, extra = '') => `<div id="${id}" style="padding:40px 0"><h6>${title}</h6>${filler(4)}${extra}</div>`;
    const links = '<a href="/a">Demo</a> <a href="/b">Source</a> <a href="/c">More</a>';
    const body = (footer: string) => `
      <header style="padding:80px 24px;background:#234;color:#fff;text-align:center"><h1>Kit</h1><p>A boilerplate.</p></header>
      <main style="width:700px;margin:0 auto">${part('grid', 'The grid')}${part('buttons', 'Buttons')}${part('forms', 'Forms')}${footer}</main>`;
    const withExamples = await pageWith(body(part('examples', 'Examples', `<div style="display:flex;gap:20px"><div><h6>Landing page</h6>${links}</div><div><h6>Coming soon</h6></div></div>`)));
    const withFooter = await pageWith(body(`<div id="end" style="display:flex;gap:40px;padding:40px 0"><div><h6>Product</h6>${links}</div><div><h6>Company</h6>${links}</div></div>`));
    try {
      const last = async (page: Page) => (await analysePage(page)).outline.sections.at(-1)!;
      const examples = await last(withExamples);
      assert.equal(examples.kind !== 'footer' && examples.heading, 'Examples');
      assert.equal((await last(withFooter)).kind, 'footer');
    } finally {
      await Promise.all([withExamples.close(), withFooter.close()]);
    }
  });

  it('splits a <section> of stacked image-and-text rows, each with its own heading, into one section per row; a titled grid of cards stays whole', async () => {
    const row = (title: string, flip: boolean) => `<div style="display:flex;${flip ? 'flex-direction:row-reverse;' : ''}height:420px">
      <div style="flex:1;background:#8ab"></div><div style="flex:1;padding:40px"><h2>${title}</h2><p>Words about ${title.toLowerCase()} for the reader.</p></div></div>`;
    const card = (title: string) => `<div style="flex:1;padding:24px"><h3>${title}</h3><p>A short line about ${title.toLowerCase()}.</p></div>`;
    const page = await pageWith(`
      <header style="padding:120px 24px;background:#234;color:#fff;text-align:center"><h1>Landing</h1><p>Generate more leads.</p></header>
      <section class="icons" style="padding:60px 0"><h2>Why it helps</h2><div style="display:flex;gap:20px">${['Responsive', 'Ready', 'Easy'].map(card).join('')}</div></section>
      <section class="showcase"><div class="container">${row('Fully Responsive Design', false)}${row('Updated For Bootstrap 5', true)}${row('Easy to Use & Customize', false)}</div></section>
      <section style="padding:80px 0;text-align:center"><h2>What people are saying</h2>${filler(3)}</section>`);
    try {
      const { outline } = await analysePage(page);
      const headings = outline.sections.map((s) => s.heading);
      assert.deepEqual(headings.slice(1), ['Why it helps', 'Fully Responsive Design', 'Updated For Bootstrap 5', 'Easy to Use & Customize', 'What people are saying']);
    } finally {
      await page.close();
    }
    // A UI kit's long section: a wave drawn above it (no words), rows each headed by an h3, and the next part's
    // title at its foot.
    const kit = await pageWith(`
      <header style="padding:120px 24px;background:#234;color:#fff;text-align:center"><h1>Kit</h1><p>A beautiful extension.</p></header>
      <section><div style="height:80px"><svg width="1280" height="60"><path d="M0 60 L1280 0 L1280 60 Z" fill="#eee"/></svg></div>
        <div style="width:1200px;margin:0 auto">${row('CSS Components', false).replace(/h2>/g, 'h3>')}</div>
        <div style="width:1200px;margin:0 auto">${row('Javascript Components', true).replace(/h2>/g, 'h3>')}${row('Complex Documentation', false).replace(/h2>/g, 'h3>')}</div>
        <div style="text-align:center;padding:20px"><h2>Beautiful Example Pages</h2><p>Take the examples we made for you.</p></div></section>`);
    try {
      const headings = (await analysePage(kit)).outline.sections.map((s) => s.heading);
      for (const title of ["CSS Components", "Javascript Components", "Complex Documentation"]) assert.ok(headings.includes(title), `a section "${title}" in ${JSON.stringify(headings)}`);
    } finally {
      await kit.close();
    }
  });

  it('takes a band of icons with a figure each for numbers, not for a strip of logos', async () => {
    const icon = '<svg width="48" height="48" viewBox="0 0 48 48"><circle cx="24" cy="24" r="20" fill="#c60"/></svg>';
    const fact = (n: string, label: string) => `<div style="flex:1;text-align:center">${icon}<h2>${n}</h2><h3>${label}</h3></div>`;
    const logo = (name: string) => `<div style="flex:1;text-align:center">${icon.replace('width="48"', 'width="120"')}<span>${name}</span></div>`;
    const page = await pageWith(`
      <header style="padding:120px 24px;background:#234;color:#fff;text-align:center"><h1>Builders</h1><p>Since 2008.</p></header>
      <section id="facts" style="display:flex;padding:60px 0">${fact('1789', 'Total projects')}${fact('647', 'Staff members')}${fact('4000', 'Hours of work')}${fact('44', 'Countries')}</section>
      <section id="brands" style="display:flex;padding:60px 0">${['Acme', 'Globex', 'Initech', 'Umbrella'].map(logo).join('')}</section>
      <section style="padding:80px 0"><h2>Contact</h2>${filler(3)}</section>`);
    try {
      const { outline } = await analysePage(page);
      const kindOf = (id: string) => outline.sections.find((s) => s.selector.includes(id))?.kind;
      assert.notEqual(kindOf('facts'), 'logos');
      assert.equal(kindOf('brands'), 'logos');
    } finally {
      await page.close();
    }
  });

  it('names the widgets a section holds by their role and structure (a data table, a countdown too), and the eyebrow above its heading', async () => {
    const page = await pageWith(`
      <section style="padding: 80px 24px; min-height: 300px"><h1>Tally</h1><p>Money, sorted.</p></section>
      <section style="padding: 40px 24px"><p>Products</p><h2>Tools you will open daily</h2>
        <div class="track" style="display: flex; gap: 16px; overflow-x: auto; width: 600px">
          ${['Budgets', 'Round-ups', 'Bill radar', 'Pots', 'Salary early'].map((t) => `<div style="flex: 0 0 240px; height: 120px">${t}</div>`).join('')}
        </div></section>
      <section style="padding: 40px 24px"><h2>Watch it grow</h2><input type="range" min="5" max="100"><span>£25 a week</span></section>
      <section style="padding: 40px 24px"><h2>Pick a plan</h2><button role="switch" aria-checked="false">Yearly</button><div>Free £0</div></section>
      <section style="padding: 40px 24px"><h2>Day by day</h2><div role="tablist"><button role="tab">Thu</button><button role="tab">Fri</button></div></section>
      <section style="padding: 40px 24px"><h2>Asked and answered</h2><details><summary>Is it a bank?</summary>Yes.</details><details><summary>Fees?</summary>None.</details></section>
      <section style="padding: 40px 24px"><h2>Next to the others</h2><table><tr><th></th><th>Tally</th><th>Bank</th></tr><tr><td>Round-ups</td><td>✓</td><td></td></tr><tr><td>Pots</td><td>✓</td><td>✓</td></tr></table></section>
      <section style="padding: 40px 24px"><p>Special offer</p><h2>Pine Bath Oil</h2><div><span aria-label="days">15</span> <span aria-label="hours">21</span> <span aria-label="minutes">46</span> <span aria-label="seconds">08</span></div></section>
      <section style="padding: 40px 24px"><h2>Launch week</h2><ul style="display: flex; gap: 12px"><li>02<br>Days</li><li>11<br>Hrs</li><li>09<br>Min</li></ul></section>
      <section style="padding: 40px 24px"><h2>In numbers</h2><div><div>120</div><div>45</div><div>12</div><div>99</div></div></section>`);
    try {
      const { outline } = await analysePage(page);
      const byHeading = Object.fromEntries(outline.sections.map((s) => [s.heading, s]));
      assert.deepEqual(byHeading['Tools you will open daily']?.widgets, ['carousel']);
      assert.equal(byHeading['Tools you will open daily']?.kicker, 'Products');
      assert.deepEqual(byHeading['Watch it grow']?.widgets, ['slider']);
      assert.deepEqual(byHeading['Pick a plan']?.widgets, ['toggle']);
      assert.deepEqual(byHeading['Day by day']?.widgets, ['tabs']);
      assert.deepEqual(byHeading['Asked and answered']?.widgets, ['accordion']);
      assert.deepEqual(byHeading['Next to the others']?.widgets, ['table']);
      // A countdown's cells by their units (labels or words); a band of bare numbers is none.
      assert.deepEqual(byHeading['Pine Bath Oil']?.widgets, ['countdown']);
      assert.deepEqual(byHeading['Launch week']?.widgets, ['countdown']);
      assert.equal(byHeading['In numbers']?.widgets, undefined);
      assert.equal(byHeading['Tally']?.widgets, undefined);
    } finally {
      await page.close();
    }
  });

  it('finds the hero under a tall header bar of logo and menu, a subtitle under a heading, and a row of equal headings', async () => {
    // As a pizzeria's page (blind batch 2026-12-05): a 270 px header of its own, then the hero; three service boxes
    // each headed by an h2, the first of which names the section.
    const box = (title: string) => `<div style="flex:1;padding:24px"><h2>${title}</h2><p>${'Lorem ipsum dolor sit amet. '.repeat(3)}</p></div>`;
    const page = await pageWith(`
      <section style="height:270px;background:#111;color:#fff"><img alt="" style="width:120px;height:120px"><nav><a href="#">Home</a> <a href="#">Menu</a> <a href="#">Blog</a></nav></section>
      <section style="height:700px;padding:40px"><h1 style="font-size:64px">VINCENT PIZZA.</h1><h2>MAKING PEOPLE HAPPY</h2><p>Italian pizza with cherry tomatoes.</p><div class="btn">VIEW MENU</div></section>
      <section style="display:flex;padding:60px 0">${box('QUALITY FOODS')}${box('FASTEST DELIVERY')}${box('ORIGINAL RECIPES')}</section>
      <section style="padding:80px 24px;min-height:400px"><h2>HOT SALES</h2><p>Prosciutto $3.50</p><p>Diablo $3.50</p></section>`);
    try {
      const { outline } = await analysePage(page);
      const byHeading = Object.fromEntries(outline.sections.map((s) => [s.heading, s]));
      assert.equal(byHeading['VINCENT PIZZA.']?.kind, 'hero');
      assert.equal(byHeading['VINCENT PIZZA.']?.subtitle, 'MAKING PEOPLE HAPPY');
      assert.deepEqual(byHeading['QUALITY FOODS']?.peerHeadings, ['FASTEST DELIVERY', 'ORIGINAL RECIPES']);
      assert.equal(byHeading['HOT SALES']?.peerHeadings, undefined);
      assert.equal(byHeading['HOT SALES']?.subtitle, undefined);
    } finally {
      await page.close();
    }
  });

  it("reads a link with no words of its own laid over a whole card by the card's heading; an icon link beside a heading stays unnamed", async () => {
    // As a docs home's tiles (flows blind batch 2026-12-05): each card's <a> is an empty box stretched over it.
    const tile = (title: string, href: string) => `<div style="position:relative;width:300px;height:200px;display:inline-block;margin:8px"><h3>${title}</h3><p>Lorem ipsum dolor sit amet.</p><a href="${href}" style="position:absolute;inset:0"><span></span></a></div>`;
    const page = await pageWith(`
      <section style="padding:80px 24px;min-height:400px"><h1>PrettyDocs</h1><p>Docs made easy.</p></section>
      <section style="padding:40px 24px">${tile('Quick Start', 'start.html')}${tile('Charts', 'charts.html')}</section>
      <section style="padding:40px 24px"><h2>Follow us</h2><a href="https://example.org/x" style="display:inline-block;width:24px;height:24px"><span></span></a></section>`);
    try {
      const { outline } = await analysePage(page);
      const links = [...outline.actions, ...(outline.contentLinks ?? []), ...outline.navigation];
      const byHref = (end: string) => links.find((link) => link.href?.endsWith(end))?.label;
      assert.equal(byHref('start.html'), 'Quick Start');
      assert.equal(byHref('charts.html'), 'Charts');
      assert.equal(byHref('/x'), undefined);
    } finally {
      await page.close();
    }
  });

  it('keeps a narrow centred column with its own heading (an FAQ in a 520 px box) between full-width bands as a part; a side note does not become one', async () => {
    const questions = ['What is it for?', 'Is there a free trial?', 'Can I change plans later?', 'How is my data secured?']
      .map((q) => `<details style="border-bottom:1px solid #ddd;padding:12px 0"><summary>${q}</summary><p>Yes.</p></details>`).join('');
    const page = await pageWith(`
      <div style="padding:120px 24px;text-align:center"><h1 style="font-size:56px">Every startup begins with a spark</h1><p>Tools to build and grow.</p></div>
      <div style="padding:40px 24px;text-align:center"><h2>Our pricing plans</h2><div style="display:flex;gap:24px;justify-content:center">${'<div style="width:300px;height:360px;border:1px solid #ccc">Plan</div>'.repeat(3)}</div></div>
      <div style="position:relative;max-width:520px;margin:80px auto 0;padding:0 16px">
        <img alt="" style="position:absolute;left:-160px;z-index:-1;width:1000px;height:1000px" src="data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg'/%3E">
        <p style="text-align:center">FAQ's</p><h2 style="text-align:center">Frequently asked questions</h2>${questions}
      </div>
      <div style="width:260px;margin:40px 0 0 24px"><h3>A side note</h3><p>Set to the left, narrow, with a heading of its own.</p><p>It holds two short paragraphs.</p></div>
      <div style="padding:80px 24px;text-align:center"><h2>Ready to get started?</h2><p>Join thousands of teams.</p><a href="#" class="btn">Start free trial</a></div>`);
    try {
      const { outline } = await analysePage(page);
      const headings = outline.sections.map((s) => s.heading);
      assert.ok(headings.includes('Frequently asked questions'), `the FAQ is a part: ${JSON.stringify(headings)}`);
      assert.ok(!headings.includes('A side note'), `the side note is not: ${JSON.stringify(headings)}`);
      assert.ok(headings.includes('Ready to get started?'));
    } finally {
      await page.close();
    }
  });

  it("keeps in a part's words what a visitor reads that is not rendered text: an input button's value, an icon link's label, an image's alt", async () => {
    const page = await pageWith(`
      <div style="padding:120px 24px"><h1 style="font-size:56px">Notes that keep up with you</h1><p>Write once, find it anywhere.</p></div>
      <div style="padding:80px 24px;min-height:500px"><h2>Be among the first</h2><p>${'We are letting people in a few at a time. '.repeat(40)}</p>
        <form><input type="email" placeholder="name@example.com"><input type="submit" value="Join the beta"></form></div>
      <div style="padding:80px 24px;min-height:400px"><h2>On your phone too</h2>
        <a href="#" aria-label="Download on the App Store"><svg width="120" height="40"></svg></a>
        <img alt="The inbox on an iPhone" width="200" height="400" src="data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg'/%3E"></div>`);
    try {
      const { outline } = await analysePage(page);
      const body = (heading: string) => outline.sections.find((s) => s.heading === heading)?.body ?? '';
      // After 1,600 characters of text, which alone would have filled the part's words.
      assert.match(body('Be among the first'), /Join the beta/);
      assert.doesNotMatch(body('Be among the first'), /example\.com/, 'a placeholder is a sample, not what the part is');
      assert.match(body('On your phone too'), /Download on the App Store/);
      assert.match(body('On your phone too'), /The inbox on an iPhone/);
    } finally {
      await page.close();
    }
  });
  it('takes the fields of a checkout built without <form> or button as one form, and a search box with its button as another', async () => {
    const field = (name: string, placeholder: string) => `<div class="form-group"><input type="text" name="${name}" placeholder="${placeholder}"></div>`;
    const page = await pageWith(`
      <header style="padding:16px"><div class="search"><input type="search" name="q" placeholder="Search products"><button>Search</button></div></header>
      <div class="section"><div class="container"><div class="row">
        <div class="col">
          <div class="billing-details"><h3>Billing address</h3>${field('first-name', 'First Name')}${field('last-name', 'Last Name')}${field('email', 'Email')}</div>
          <div class="order-notes"><textarea placeholder="Order Notes"></textarea></div>
        </div>
        <div class="col"><h3>Your Order</h3><p>Total $2940.00</p><a href="#" class="order-submit">Place order</a></div>
      </div></div></div>`);
    try {
      const { outline } = await analysePage(page);
      const labels = outline.forms.map((f) => f.fields.map((x) => x.label));
      assert.deepEqual(labels, [['Search products'], ['First Name', 'Last Name', 'Email', 'Order Notes']]);
      assert.equal(outline.forms[1]!.label, 'Billing address');
      assert.equal(outline.forms[0]!.submit?.label, 'Search');
    } finally {
      await page.close();
    }
  });
  it("finds a form hidden in a tab or a modal with the control that shows it, its labels beside the fields, and the button that saves it, not the one that closes it", async () => {
    const page = await pageWith(`
      <div style="padding:40px"><h2>Trail Runner 2</h2>
        <ul><li class="active"><a data-toggle="tab" href="#tab1">Description</a></li><li><a data-toggle="tab" href="#tab3">Reviews (3)</a></li></ul>
        <div class="tab-content">
          <div id="tab1" class="tab-pane"><p>Light and quick on rocky ground.</p></div>
          <div id="tab3" class="tab-pane" style="display:none"><form class="review-form"><input type="text" placeholder="Your Name"><textarea placeholder="Your Review"></textarea><button>Submit</button></form></div>
        </div></div>
      <div style="padding:40px"><h4>Add Row</h4><button data-bs-toggle="modal" data-bs-target="#addRowModal">Add Row</button>
        <div class="modal" id="addRowModal" style="display:none"><div class="modal-content">
          <div class="modal-header"><h5>New Row</h5><button type="button" class="close" data-dismiss="modal" aria-label="Close">×</button></div>
          <form><div class="form-group"><label>Name</label><input id="addName" type="text" placeholder="fill name"></div>
            <div class="form-group"><label for="position">Position</label><input id="addPosition" type="text" placeholder="fill position"></div></form>
          <div class="modal-footer"><button type="button" id="addRowButton">Add</button><button type="button" data-dismiss="modal">Close</button></div>
        </div></div></div>`);
    try {
      const { outline } = await analysePage(page);
      const review = outline.forms.find((f) => f.opener?.label === 'Reviews (3)');
      assert.ok(review, JSON.stringify(outline.forms.map((f) => [f.label, f.opener?.label])));
      assert.deepEqual(review.fields.map((f) => f.label), ['Your Name', 'Your Review']);
      assert.equal(review.submit?.label, 'Submit');
      const row = outline.forms.find((f) => f.opener?.label === 'Add Row');
      assert.ok(row);
      assert.deepEqual(row.fields.map((f) => f.label), ['Name', 'Position'], 'the label beside its field (its `for` naming no element too), not the placeholder');
      assert.equal(row.submit?.label, 'Add');
      assert.equal(await shown(page, row.opener!.selector), true);
    } finally {
      await page.close();
    }
  });
  it("finds a profile's settings form behind a tab whose ARIA names another panel, inside a card of loose comment boxes", async () => {
    // Flows blind batch 2026-12-14, adminbsb-material: the tab says aria-controls="settings" (the right sidebar's own
    // panel's id) and href="#profile_settings"; a card of comment boxes around the tabs is no form of its own.
    const page = await pageWith(`
      <aside id="rightsidebar"><div id="settings" style="display:none"><label><input type="checkbox"> Report Panel Usage</label><label><input type="checkbox"> Email Redirect</label></div></aside>
      <div class="card" style="padding:40px"><h2>Marc K. Hammond</h2>
        <ul><li><a href="#home" aria-controls="home" role="tab" data-toggle="tab">Home</a></li><li><a href="#profile_settings" aria-controls="settings" role="tab" data-toggle="tab">Profile Settings</a></li></ul>
        <div class="tab-content">
          <div id="home" class="tab-pane"><p>A wall post.</p><div><input type="text" placeholder="Type a comment"><button>Post</button></div></div>
          <div id="profile_settings" class="tab-pane" style="display:none"><form class="form-horizontal">
            <label for="NameSurname">Name Surname</label><input id="NameSurname" type="text" value="Marc K. Hammond">
            <label for="Email">Email</label><input id="Email" type="email"><button type="submit">SUBMIT</button></form></div>
        </div></div>`);
    try {
      const { outline } = await analysePage(page);
      const settings = outline.forms.find((f) => f.opener?.label === 'Profile Settings');
      assert.ok(settings, JSON.stringify(outline.forms.map((f) => [f.label, f.opener?.label])));
      assert.deepEqual(settings.fields.map((f) => f.label), ['Name Surname', 'Email']);
      assert.equal(await shown(page, settings.opener!.selector), true);
    } finally {
      await page.close();
    }
  });
  it('names a menu link that is only an icon by its picture: a cart, a user', async () => {
    // Flows blind batch 2026-12-14, furni-shop: the header's cart is <a href="cart.html"><img src="images/cart.svg"></a>.
    const page = await pageWith(`
      <nav style="padding:20px"><a href="shop.html">Shop</a> <a href="about.html">About us</a>
        <a href="cart.html"><img src="images/cart.svg" width="24" height="24"></a>
        <a href="account.html"><i class="fa fa-user" style="display:inline-block;width:24px;height:24px"></i></a></nav>
      <main style="padding:40px"><h1>Modern interior design studio</h1><p>Furniture for every room.</p></main>`);
    try {
      const { outline } = await analysePage(page);
      const labels = outline.navigation.map((link) => [link.label, link.href?.replace(/^.*\//, '')]);
      assert.ok(labels.some(([label, href]) => label === 'cart' && href === 'cart.html'), JSON.stringify(labels));
      assert.ok(labels.some(([label, href]) => label === 'user' && href === 'account.html'), JSON.stringify(labels));
    } finally {
      await page.close();
    }
  });
  it("takes the address a button's own click handler opens for its link, but not a button that commits something", async () => {
    // Furni's cart: <button onclick="window.location='checkout.html'">Proceed To Checkout</button>; its checkout's
    // "Place Order" opens the thank-you page the same way, and is no link to follow: by default it is only hovered.
    const page = await pageWith(`
      <main style="padding:40px"><h1>Cart</h1><p>Two chairs.</p>
        <button style="padding:16px 32px" onclick="window.location='checkout.html'">Proceed To Checkout</button>
        <button style="padding:16px 32px" onclick="location.href = 'help.html';">Need help?</button>
        <button style="padding:16px 32px" onclick="window.location='thankyou.html'">Place Order</button>
        <button style="padding:16px 32px" onclick="go(next())">Continue shopping</button></main>`);
    try {
      const { outline } = await analysePage(page);
      const hrefOf = (label: string) => outline.actions.find((action) => action.label === label)?.href?.replace(/^.*\//, '') ?? null;
      assert.equal(hrefOf('Proceed To Checkout'), 'checkout.html');
      assert.equal(hrefOf('Need help?'), 'help.html');
      assert.equal(hrefOf('Place Order'), null);
      assert.equal(hrefOf('Continue shopping'), null);
    } finally {
      await page.close();
    }
  });
  it("finds a form in a closed <dialog> a script opens, with the one button whose words its title shares, and the days ticked", async () => {
    // Flows blind batch 2026-12-04, openhabits: "+ Habit" (titled "Add Habit") opens the dialog headed "New Habit".
    const page = await pageWith(`
      <aside style="padding:40px"><button id="add" title="Add Habit">+ Habit</button><button id="stats">Stats</button><button id="export">Export</button></aside>
      <main style="padding:40px"><h2>Your Habits</h2><p>No habits yet</p></main>
      <dialog id="habit-dialog"><form method="dialog"><h3>New Habit</h3>
        <label>Name <input name="name" required></label><label>Description <textarea name="description"></textarea></label>
        <label><input type="checkbox" name="days" value="0" checked>Sun</label><label><input type="checkbox" name="days" value="1">Mon</label>
        <button value="cancel">Cancel</button><button value="ok">Save</button></form></dialog>
      <script>document.getElementById('add').addEventListener('click', () => document.getElementById('habit-dialog').showModal());</script>`);
    try {
      const { outline } = await analysePage(page);
      const habit = outline.forms.find((f) => f.opener);
      assert.ok(habit, JSON.stringify(outline.forms.map((f) => [f.label, f.opener?.label])));
      assert.equal(habit.opener?.label, '+ Habit');
      assert.equal(habit.method, 'dialog');
      assert.equal(habit.submit?.label, 'Save', 'the button that saves it, not "Cancel"');
      assert.deepEqual(habit.fields.map((f) => [f.label, f.checked === true]), [['Name', false], ['Description', false], ['Sun', true], ['Mon', false]]);
    } finally {
      await page.close();
    }
  });
  it('names a field with no label of its own by the heading just above it, and tells a form sent by script from one with an address', async () => {
    const page = await pageWith(`
      <form id="budget-form" style="padding:20px"><h5>please enter your budget</h5><div class="form-group"><input type="number" id="budget-input"></div><button type="submit">calculate</button></form>
      <form id="expense-form" style="padding:20px"><h5>please enter your expense</h5><div class="form-group"><input type="text" id="expense-input"></div>
        <h5>please enter expense amount</h5><div class="form-group"><input type="number" id="amount-input"></div><button type="submit">add expense</button></form>
      <form action="/track" method="post" style="padding:20px"><label for="order">Order ID</label><input id="order" name="order"><button>Track</button></form>`);
    try {
      const { outline } = await analysePage(page);
      assert.deepEqual(outline.forms.map((f) => f.fields.map((x) => x.label.toLowerCase())), [['please enter your budget'], ['please enter your expense', 'please enter expense amount'], ['order id']]);
      assert.deepEqual(outline.forms.map((f) => f.action?.endsWith('/track') ?? null), [null, null, true], 'only the form that names an address has one');
    } finally {
      await page.close();
    }
  });
  it('reads a heading between the blocks of a flat page as the title of the blocks under it, but not a release log\'s many versions', async () => {
    // academic-conference (blind 2026-12-09): a banner, a table of links, then "What is This Website?" over three
    // paragraphs and "Organizers" over a paragraph and a table of logos, all straight in <body>. The headings alone
    // were too thin to be parts, and the paragraphs under them parts without a name.
    const page = await pageWith(`
      <div style="height:400px;background:#ccd">Conference 2525</div>
      <table style="width:100%"><tr><td><a href="/registration">Registration</a></td><td><a href="/program">Program</a></td></tr></table>
      <h2>What is This Website?</h2>${filler(3)}
      <h2>Organizers</h2><p>Here is a good place to list the organizers and sponsors of the conference.</p>
      <table style="width:100%;height:180px"><tr><td>First Sponsor</td><td>Second Sponsor</td></tr></table>`);
    const log = await pageWith(`
      <div style="height:400px;background:#ccd">LiveScript</div>
      <h2>Changelog</h2>${Array.from({ length: 8 }, (_, i) => `<h3>1.${8 - i}.0</h3><p>Fixes and small changes in release 1.${8 - i}.0 of the compiler.</p><p>${filler(1)}</p>`).join('')}`);
    try {
      const { outline } = await analysePage(page);
      const headings = outline.sections.map((section) => section.heading);
      assert.ok(headings.includes('What is This Website?') && headings.includes('Organizers'), JSON.stringify(headings));
      const organizers = outline.sections.find((section) => section.heading === 'Organizers')!;
      assert.ok(/Second Sponsor/.test(organizers.body ?? organizers.text), 'the sponsors\' table is part of "Organizers"');
      const versions = (await analysePage(log)).outline.sections.map((section) => section.heading).filter((heading) => /^1\.\d\.0$/.test(heading ?? ''));
      assert.deepEqual(versions, [], 'a release log\'s versions are no parts of their own');
    } finally {
      await page.close();
      await log.close();
    }
  });

  it('reads the headed parts that run on below a full-screen block, each a part of its own', async () => {
    // offline-js (blind 2026-12-09): ".section { height: 100vh }" holds "What is Offline.js?", "Install", "Download",
    // "Pick a Theme" as flat h2s, and its content runs 600 px below it. Read by its box, it was one section cut at the
    // fold, and "end on the download button" never reached "Download".
    const page = await pageWith(`
      <div style="height:100vh;overflow:hidden;background:#e66"><h1>Offline.js</h1><h3>Every app goes offline</h3></div>
      <div class="section" style="height:100vh"><div class="page" style="width:860px;margin:0 auto">
        <h2>What is Offline.js?</h2>${filler(6)}<h2>Install</h2>${filler(6)}<h2>Download</h2>${filler(4)}<h2>Pick a Theme</h2>${filler(4)}<h2>Indicator Themes</h2>${filler(6)}
      </div></div>`);
    try {
      const { outline } = await analysePage(page);
      const headings = outline.sections.map((s) => s.heading);
      for (const title of ['What is Offline.js?', 'Install', 'Download', 'Pick a Theme']) assert.ok(headings.includes(title), `a section "${title}" in ${JSON.stringify(headings)}`);
    } finally {
      await page.close();
    }
  });

  it("reads what a list field offers, so a prompt can choose one", async () => {
    const page = await pageWith(`<form style="padding:20px"><label>Title <input name="title"></label>
      <label>Status <select name="status"><option value="">Select…</option><option>Planned</option><option>Reading</option><option>Finished</option></select></label><button>Add Book</button></form>`);
    try {
      const { outline } = await analysePage(page);
      assert.deepEqual(outline.forms[0]?.fields.map((f) => f.options ?? null), [null, ['Select…', 'Planned', 'Reading', 'Finished']]);
    } finally {
      await page.close();
    }
  });

  it("names a field by the label in the column beside its own, as a horizontal form lays them out (concept-admin's compose)", async () => {
    const page = await pageWith(`
      <div class="compose" style="padding:20px;width:900px">
        <div class="row" style="display:flex;margin:8px 0"><label style="width:80px">To:</label><div style="flex:1"><input type="email"></div></div>
        <div class="row" style="display:flex;margin:8px 0"><div style="width:80px"><label>Subject</label></div><div style="flex:1"><input type="text"></div></div>
        <textarea placeholder="Write Descriptions"></textarea><button type="submit">Send</button>
      </div>`);
    try {
      const { outline } = await analysePage(page);
      assert.deepEqual(outline.forms.map((f) => f.fields.map((x) => x.label)), [['To:', 'Subject', 'Write Descriptions']]);
    } finally {
      await page.close();
    }
  });

  it('lists the cards with their own heading inside a section taller than the screen, each with its box', async () => {
    const card = (name: string) => `<div style="height: 300px; margin: 16px; padding: 16px; border: 1px solid #ccc"><h3>${name}</h3><p>We fix it the same day.</p></div>`;
    const page = await pageWith(`
      <section style="padding: 80px 24px; min-height: 500px"><h1 style="font-size: 48px">Kwik Garage</h1><p>Car care in Leeds.</p></section>
      <section id="services" style="padding: 40px 24px"><h2>We provide great services for your vehicle</h2>${['Engine Repair', 'Brake Repair', 'Tyre Change', 'Battery Repair'].map(card).join('')}</section>
      <section style="padding: 40px 24px"><h2>Visit us</h2><p>12 Mill Road.</p></section>`);
    try {
      const { outline } = await analysePage(page);
      const services = outline.sections.find((s) => s.heading === 'We provide great services for your vehicle');
      assert.deepEqual(services?.parts?.map((part) => part.heading), ['Engine Repair', 'Brake Repair', 'Tyre Change', 'Battery Repair']);
      const battery = services!.parts![3]!;
      assert.ok(battery.rect.height >= 300 && battery.rect.y > services!.rect.y + 900, 'the last card is its whole box, three cards down');
      assert.ok(battery.headingRect.y >= battery.rect.y && battery.headingRect.height < 60, 'its heading is inside it');
      assert.ok(outline.sections.filter((s) => s !== services).every((s) => !s.parts), 'a section that fits the screen has no parts');
    } finally {
      await page.close();
    }
  });
  it("keeps a dashboard sidebar's folded links out of the links in sight, each with the item that unfolds it", async () => {
    const page = await pageWith(`
      <style>.treeview-menu{max-height:0;overflow:hidden;transition:max-height .3s} .treeview.is-expanded .treeview-menu{max-height:100vh} .app-menu a{display:block;padding:12px}</style>
      <aside style="position: fixed; left: 0; top: 0; width: 230px; height: 100vh"><ul class="app-menu">
        <li><a href="/dashboard.html">Dashboard</a></li>
        <li class="treeview"><a href="#" data-toggle="treeview">Tables</a><ul class="treeview-menu"><li><a href="/table-basic.html">Basic Tables</a></li><li><a href="/table-data.html">Data Tables</a></li></ul></li>
        <li class="treeview"><a href="#" data-toggle="treeview">Pages</a><ul class="treeview-menu"><li><a href="/blank.html">Blank Page</a></li><li><a href="/login.html">Login Page</a></li></ul></li>
        <li><a href="/docs.html">Docs</a></li></ul></aside>
      <main style="margin-left: 250px; padding: 40px"><h1>Dashboard</h1><p>Weekly sales.</p></main>`);
    try {
      const { outline } = await analysePage(page);
      const inSight = [...outline.navigation, ...outline.actions, ...(outline.contentLinks ?? [])].map((link) => link.label);
      assert.ok(inSight.includes('Docs') && !inSight.includes('Login Page') && !inSight.includes('Data Tables'), JSON.stringify(inSight));
      const login = outline.menuLinks?.find((link) => link.label === 'Login Page');
      assert.equal(login?.opener?.label, 'Pages', JSON.stringify(outline.menuLinks?.map((l) => [l.label, l.opener?.label])));
    } finally {
      await page.close();
    }
  });
  it('opens a full-screen menu by its drawn bars: two empty list items, no word, no class that says "toggle"', async () => {
    // zsoft-studio (flows-blind-2026-12-18): <ul class="m_bar"><li></li><li></li></ul> in the header opens a hidden
    // `.fullscreen-menu` after it, whose "About" and "Career" were no links of the page at all: "which jobs they have
    // open" stayed on the home page.
    const page = await pageWith(`
      <style>.m_bar{list-style:none;margin:0;padding:0;width:30px;cursor:pointer} .m_bar li{height:3px;background:#000;margin:6px 0}
        .fullscreen-menu{position:fixed;inset:0;background:#fff;transform:translateX(100%)} .fullscreen-menu.open{transform:none}</style>
      <header style="height:80px;display:flex;justify-content:space-between;padding:20px"><a href="/index.html"><img alt="Zakir Soft" width="80" height="30"></a>
        <div class="menu"><ul class="m_bar"><li></li><li></li></ul></div></header>
      <div class="fullscreen-menu"><div class="main-menu"><ul><li><a href="/about.html">02 About</a></li><li><a href="/career.html">04 Career</a></li></ul></div></div>
      <main style="padding:40px"><h1>We are here to grow your Business.</h1><p>Design and development.</p></main>
      <script>document.querySelector('.menu').addEventListener('click', () => document.querySelector('.fullscreen-menu').classList.add('open'));</script>`);
    try {
      const { outline } = await analysePage(page);
      const career = outline.menuLinks?.find((link) => link.label === '04 Career');
      assert.ok(career?.opener, JSON.stringify(outline.menuLinks?.map((l) => [l.label, l.opener?.label])));
      assert.equal(await page.$eval(career.opener.selector, (el) => el.className), 'm_bar');
    } finally {
      await page.close();
    }
  });
  it("takes a script-sent form's one plain button for its submit, and no button of a form that has several", async () => {
    const page = await pageWith(`
      <main style="padding: 40px"><h2>Subscribe</h2>
        <form id="news"><input type="text" placeholder="Name"><input type="email" placeholder="Email"><button type="button" class="btn">Subscribe</button></form>
        <form id="tools"><input type="text" placeholder="Filter"><button type="button">Clear</button><button type="button">Export</button></form></main>`);
    try {
      const { outline } = await analysePage(page);
      const form = (id: string) => outline.forms.find((candidate) => candidate.selector.includes(id));
      assert.equal(form('news')?.submit?.label, 'Subscribe', JSON.stringify(outline.forms.map((f) => [f.selector, f.submit?.label])));
      assert.equal(form('tools')?.submit ?? null, null);
    } finally {
      await page.close();
    }
  });
  it("finds a docs sidebar's links in a closed <details> group, with its summary to open it", async () => {
    const page = await pageWith(`
      <aside style="position: fixed; left: 0; top: 0; width: 230px"><nav>
        <details open><summary>Getting started</summary><ul><li><a href="/docs/">Usage</a></li><li><a href="/docs/themes.html">Themes</a></li></ul></details>
        <details><summary>Components</summary><ul><li><a href="/docs/cards.html">Cards</a></li><li><a href="/docs/modal.html">Modal</a></li></ul></details>
      </nav></aside>
      <main style="margin-left: 250px; padding: 40px"><h1>Usage</h1><p>There are 4 ways to get started.</p></main>`);
    try {
      const { outline } = await analysePage(page);
      const modal = outline.menuLinks?.find((link) => link.label === 'Modal');
      assert.equal(modal?.opener?.label, 'Components', JSON.stringify(outline.menuLinks?.map((l) => [l.label, l.opener?.label])));
      assert.ok(outline.navigation.some((link) => link.label === 'Themes'), 'an open group\'s links are in sight');
    } finally {
      await page.close();
    }
  });
  it('names the part a docs page opens with its title over tall rows by that title', async () => {
    const row = (title: string) => `<div class="row" style="display:flex;gap:24px;min-height:520px"><div style="flex:1"><h5>${title} one</h5><p>Half the width.</p></div><div style="flex:1"><h5>${title} two</h5><p>The other half.</p></div></div>`;
    const page = await pageWith(`
      <main style="padding: 40px">
        <div id="grid-intro"><h3>Introduction</h3><p>A standard 12 column fluid grid.</p>${row('Columns')}${row('Rows')}</div>
        <div id="grid-responsive"><h3>Creating Responsive Layouts</h3><p>Now we will show you how to make your layouts look great on all screen sizes.</p>${row('Small')}${row('Large')}</div>
      </main>`);
    try {
      const { outline } = await analysePage(page);
      const headings = outline.sections.map((section) => section.heading);
      assert.ok(headings.includes('Creating Responsive Layouts'), JSON.stringify(headings));
      const responsive = outline.sections.find((section) => section.heading === 'Creating Responsive Layouts')!;
      assert.match(responsive.text, /all screen sizes/, 'with the words under it');
    } finally {
      await page.close();
    }
  });
  it("finds a docs sidebar's links under an accordion header that is a link with no address", async () => {
    const page = await pageWith(`
      <style>.collapsible-body{display:none}</style>
      <aside style="position: fixed; left: 0; top: 0; width: 230px"><ul>
        <li><a href="/docs/start.html">Getting Started</a></li>
        <li><a class="collapsible-header">Forms</a><div class="collapsible-body"><ul><li><a href="/docs/text-inputs.html">Text Inputs</a></li><li><a href="/docs/select.html">Select</a></li></ul></div></li>
      </ul></aside>
      <main style="margin-left: 250px; padding: 40px"><h1>Getting Started</h1><p>Download the CSS and the script.</p></main>`);
    try {
      const { outline } = await analysePage(page);
      const inputs = outline.menuLinks?.find((link) => link.label === 'Text Inputs');
      assert.equal(inputs?.opener?.label, 'Forms', JSON.stringify(outline.menuLinks?.map((l) => [l.label, l.opener?.label])));
    } finally {
      await page.close();
    }
  });
  it('finds a top navbar\'s hidden sub-menu, opened by the link beside it whose address is empty (azia-admin, flows blind 2026-12-04)', async () => {
    const page = await pageWith(`
      <style>.sub{display:none} li.show .sub{display:block} ul{display:flex;gap:24px;list-style:none}</style>
      <div class="top" style="height: 64px"><a href="/index.html">brand</a>
        <ul><li><a href="/index.html">Dashboard</a></li>
          <li><a href="" class="with-sub">Pages</a><div class="sub"><a href="/signin.html">Sign In</a><a href="/signup.html">Sign Up</a></div></li>
          <li><a href="/charts.html">Charts</a></li></ul></div>
      <main style="padding: 40px"><h1>Hi, welcome back!</h1><p>Your analytics dashboard.</p></main>`);
    try {
      const { outline } = await analysePage(page);
      const signUp = outline.menuLinks?.find((link) => link.label === 'Sign Up');
      assert.equal(signUp?.opener?.label, 'Pages', JSON.stringify(outline.menuLinks?.map((l) => [l.label, l.opener?.label])));
    } finally {
      await page.close();
    }
  });
  it("finds a docs sidebar's links folded in a CSS-only accordion, with the label that unfolds them", async () => {
    const page = await pageWith(`
      <style>.acc-body{max-height:0;overflow:hidden} .acc input:checked ~ .acc-body{max-height:400px}</style>
      <aside style="position: fixed; left: 0; top: 0; width: 220px"><a href="/docs/start.html">Getting started</a>
        <div class="acc"><input id="acc-x" type="checkbox" hidden><label for="acc-x">Experimentals</label>
          <div class="acc-body"><ul><li><a href="/docs/calendars.html">Calendars</a></li><li><a href="/docs/carousels.html">Carousels</a></li></ul></div></div></aside>
      <main style="margin-left: 240px; padding: 40px"><h1>Getting started</h1><p>Install it with npm.</p></main>`);
    try {
      const { outline } = await analysePage(page);
      const calendars = outline.menuLinks?.find((link) => link.label === 'Calendars');
      assert.equal(calendars?.opener?.label, 'Experimentals', JSON.stringify(outline.menuLinks?.map((l) => [l.label, l.opener?.label])));
    } finally {
      await page.close();
    }
  });
});
