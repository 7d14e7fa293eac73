/**
 * Issue 55: a page that scrolls inside one big box (a split-layout portfolio: a profile column of 100vh beside a
 * `<main>` of 100vh with `overflow-y: auto`). The recorder and the camera move the document, which stood still: every
 * shot showed the first screen (the fourteenth blind batch's cws-personal-portfolio, 0 s for all three prompts).
 * The box is released into the document before the page is read: its parts are where the document scrolls to them,
 * and the profile column stays on screen beside them, as it did.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { analysePage } from '../../../src/pipeline/analyse/analyse-page.js';
import { evaluateInPage } from '../../../src/pipeline/analyse/in-page.js';
import { htmlPages } from './html-pages.js';

const pageWith = htmlPages();

const parts = ['Biography', 'Featured Projects', 'What I Do', 'Latest Articles']
  .map((name) => `<section style="min-height:900px;padding:40px"><h2>${name}</h2><p>Words about ${name.toLowerCase()} that a visitor reads on this part of the page.</p></section>`)
  .join('');

const splitLayout = `
  <div class="container" style="display:flex;flex-direction:row-reverse;overflow:hidden">
    <header style="width:40%;height:100vh;display:flex;align-items:center;justify-content:center"><p id="profile">Hi there! I am Bruce Wilson</p></header>
    <main style="width:60%;height:100vh;overflow-y:auto">${parts}</main>
  </div>`;

describe('a page that scrolls inside one big box', () => {
  it('is read and scrolled as a document, its parts in order, the column beside it still on screen', async () => {
    const page = await pageWith(splitLayout);
    try {
      const { outline } = await analysePage(page);
      assert.ok(outline.documentHeight > 3000, `the document holds the box's content (${outline.documentHeight} px)`);
      const headings = outline.sections.filter((section) => section.heading).map((section) => [section.heading, section.rect.y] as const);
      assert.deepEqual(headings.map(([heading]) => heading), ['Biography', 'Featured Projects', 'What I Do', 'Latest Articles'], 'the profile column is no part of its own');
      const whatIDo = outline.sections.find((section) => section.heading === 'What I Do')!;
      const seen = await evaluateInPage(
        page,
        (y: number) => {
          window.scrollTo(0, y);
          const heading = Array.from(document.querySelectorAll('h2')).find((h) => h.textContent === 'What I Do')!.getBoundingClientRect();
          const profile = document.getElementById('profile')!.getBoundingClientRect();
          return { heading: heading.top, profile: profile.top, scrolled: window.scrollY };
        },
        whatIDo.rect.y,
      );
      assert.equal(seen.scrolled, whatIDo.rect.y, 'the document scrolls to the part');
      assert.ok(seen.heading >= 0 && seen.heading < 200, `the part's heading is at the top of the screen (${seen.heading} px)`);
      assert.ok(seen.profile > 0 && seen.profile < 720, `the profile is still on screen beside it (${seen.profile} px)`);
    } finally {
      await page.close();
    }
  });

  it('leaves alone a page that scrolls itself, and a small box that scrolls inside it', async () => {
    const page = await pageWith(`<div style="height:300px;overflow-y:auto"><div style="height:2000px">A code sample</div></div>${parts}`);
    try {
      const { outline } = await analysePage(page);
      const box = await evaluateInPage(page, () => getComputedStyle(document.querySelector('div')!).overflowY, null);
      assert.equal(box, 'auto');
      assert.ok(outline.documentHeight < 4500, `the code sample stays in its box (${outline.documentHeight} px)`);
    } finally {
      await page.close();
    }
  });
});
