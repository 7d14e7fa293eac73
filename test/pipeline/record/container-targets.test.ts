import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'puppeteer-core';
import { launchBrowser } from '../../../src/pipeline/browser/launch.js';
import { locateTarget } from '../../../src/pipeline/record/recorder.js';

/**
 * Issue 56: a board app's boxes and buttons that exist only once the recording gets there (plan/container-actions.ts),
 * found inside the card or column that shows the name: `in:<name>|field`, `in:<name>|text:<words>`, `in:<name>|submit`.
 */
const BOARD = `<!doctype html><html><body style="font:16px sans-serif;display:flex;gap:24px">
  <div><button id="add-todo">Add element in "To Do" Board</button></div>
  <div class="board" id="todo"><header><div class="title">To Do (drop here)</div></header><main><div class="item">Try drag this</div></main>
    <footer><button class="add">+ Add New Card</button></footer></div>
  <div class="board" id="working"><header><div class="title">Working (try drag me too)</div></header><main></main>
    <footer><button class="add">+ Add New Card</button></footer></div>
  <div class="board" id="done"><header><div class="title">Done (can drop items only in working)</div></header><main><div class="item">All right</div></main>
    <footer><button class="add">+ Add New Card</button></footer></div>
  <script>
    for (const button of document.querySelectorAll('button.add')) button.addEventListener('click', () => {
      const form = document.createElement('form');
      form.innerHTML = '<textarea></textarea><button type="submit">Submit</button><button type="button">Cancel</button>';
      button.closest('.board').querySelector('main').append(form);
    });
  </script>
</body></html>`;

const target = (selector: string) => ({ label: selector, selector, fallbackSelectors: [], rect: { x: 0, y: 0, width: 10, height: 10 } });

describe('targets inside a named card or column', () => {
  let browser: Browser;
  let page: Page;
  before(async () => {
    browser = await launchBrowser({ allowPrivate: true });
    page = await browser.newPage();
    await page.setViewport({ width: 1280, height: 720 });
    await page.setContent(BOARD, { waitUntil: 'load' });
  });
  after(async () => {
    await browser?.close();
  });

  const boardOf = (selector: string) => page.$eval(selector, (el) => el.closest('.board')?.id ?? el.id);

  it("finds a column's own button by the column's title, not the button elsewhere that names the column", async () => {
    const button = await locateTarget(page, target('in:To Do|text:+ Add New Card'));
    assert.ok(button);
    assert.equal(await boardOf(button.selector), 'todo');
    const working = await locateTarget(page, target('in:Working|text:+ Add New Card'));
    assert.equal(await boardOf(working!.selector), 'working', 'the title that starts with the name, not one that mentions it');
    assert.equal(await locateTarget(page, target('in:Done|field')), null, 'no box until the column opens one');
  });

  it('finds the box and the button of the form the column opened, in that column only', async () => {
    await page.click('#done button.add');
    const field = await locateTarget(page, target('in:Done|field'));
    assert.ok(field);
    assert.equal(await boardOf(field.selector), 'done');
    assert.equal(await page.$eval(field.selector, (el) => el.tagName), 'TEXTAREA');
    const submit = await locateTarget(page, target('in:Done|submit'));
    assert.equal(await page.$eval(submit!.selector, (el) => el.textContent), 'Submit');
    assert.equal(await locateTarget(page, target('in:To Do|field')), null, 'To Do opened no box');
  });
});
