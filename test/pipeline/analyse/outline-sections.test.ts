/**
 * The parts of a long documentation page whose text is partly wrapped in a <div>: the headings beside the wrapper and
 * those inside it are one run, each the start of a part a prompt may ask for.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { analysePage } from '../../../src/pipeline/analyse/analyse-page.js';
import { htmlPages } from './html-pages.js';

const pageWith = htmlPages();

const filler = (n: number) => Array.from({ length: n }, (_, i) => `<p>Paragraph ${i + 1} with enough words to be read as real content on the page.</p>`).join('');
const part = (title: string, paragraphs: number) => `<h2>${title}</h2>${filler(paragraphs)}`;

describe('the parts of a docs page whose text is partly wrapped', () => {
  it('reads on into a wrapper after the last heading beside it: the part before it ends where the wrapper\'s first heading starts', async () => {
    const page = await pageWith(`
      <div style="width:600px;margin:0 auto">
        <h1>listkit</h1>${filler(2)}
        ${part('Downloads', 4)}${part('Installation', 4)}${part('Engine Compatibility', 4)}
        <div id="documentation">${part('Collection Functions', 30)}${part('Object Functions', 30)}${part('Chaining', 6)}${part('Change Log', 20)}</div>
      </div>`);
    try {
      const { outline } = await analysePage(page);
      const headings = outline.sections.map((s) => s.heading);
      for (const title of ['Engine Compatibility', 'Collection Functions', 'Object Functions', 'Chaining', 'Change Log']) assert.ok(headings.includes(title), `a part "${title}" in ${JSON.stringify(headings)}`);
      const engines = outline.sections.find((s) => s.heading === 'Engine Compatibility')!;
      assert.ok(engines.rect.height < 720, `"Engine Compatibility" is its own few paragraphs, not the rest of the page (${Math.round(engines.rect.height)} px)`);
    } finally {
      await page.close();
    }
  });

  it('keeps the headings after a wrapper as parts, and the header block before it as the page\'s opening', async () => {
    const page = await pageWith(`
      <main><div style="width:900px;margin:0 auto">
        <div class="header-block" style="padding:60px 0"><h1>Simple tooltips made of pure CSS.</h1><a href="#">Github Project</a> <a href="#">Download CSS</a></div>
        <div class="samples">${part('Positioning', 8)}${part('Length', 8)}${part('Customizing', 8)}${part('Glyphs and Icon Fonts', 6)}</div>
        <hr>${part('How to use', 6)}<hr>${part('Drawbacks', 2)}
      </div></main>
      <footer>Made by someone</footer>`);
    try {
      const { outline } = await analysePage(page);
      const headings = outline.sections.map((s) => s.heading);
      for (const title of ['Glyphs and Icon Fonts', 'How to use', 'Drawbacks']) assert.ok(headings.includes(title), `a part "${title}" in ${JSON.stringify(headings)}`);
      assert.equal(outline.sections[0]?.heading, 'Simple tooltips made of pure CSS.', 'the header block opens the page');
      assert.equal(outline.sections[0]?.kind, 'hero');
    } finally {
      await page.close();
    }
  });
});

describe('the parts of a docs page headed at uneven levels', () => {
  it('keeps every <section> when a few loose notes a level down sit between them', async () => {
    const section = (id: string, title: string, paragraphs: number) => `<section id="${id}">${part(title, paragraphs)}</section>`;
    const page = await pageWith(`
      <div style="width:700px;margin:0 auto">
        ${section('start', 'Getting started', 6)}${section('buttons', 'Buttons', 12)}${section('ajax', 'Ajax loading', 3)}
        <h4>Using a prefix</h4><div>${filler(5)}</div><h4>Using a promise</h4><div>${filler(5)}</div><h4>On complete</h4><div>${filler(5)}</div>
        ${section('autoclose', 'Auto close', 6)}${section('rtl', 'RTL support', 6)}${section('api', 'Api', 12)}
      </div>`);
    try {
      const { outline } = await analysePage(page);
      const headings = outline.sections.map((s) => s.heading);
      for (const title of ['Getting started', 'Buttons', 'Auto close', 'RTL support', 'Api']) assert.ok(headings.includes(title), `a part "${title}" in ${JSON.stringify(headings)}`);
    } finally {
      await page.close();
    }
  });

  it('splits a long part by the next level it uses, when it skips one (an h2 over h4s)', async () => {
    const page = await pageWith(`
      <div style="width:700px;margin:0 auto">
        ${part('Dark mode', 2)}${part('Usage', 2)}
        <h2>Components</h2><h4>List</h4>${filler(14)}<h4>Table</h4>${filler(14)}<h4>Alerts</h4>${filler(14)}<h4>Loading</h4>${filler(14)}
      </div>`);
    try {
      const { outline } = await analysePage(page);
      const headings = outline.sections.map((s) => s.heading);
      for (const title of ['Table', 'Alerts', 'Loading']) assert.ok(headings.includes(title), `a part "${title}" in ${JSON.stringify(headings)}`);
    } finally {
      await page.close();
    }
  });

  it('on a page with more parts than the outline holds, drops parts without a heading before the named ones further down', async () => {
    // 70 unheaded blocks (code samples between the headings) and then the headed parts at the bottom.
    const blocks = Array.from({ length: 70 }, (_, i) => `<div style="height:120px">Sample ${i + 1}: some code that shows how it reads.</div>`).join('');
    const page = await pageWith(`<div style="width:700px;margin:0 auto">${blocks}<section style="padding:20px 0">${part('Exceptions', 6)}</section><section style="padding:20px 0">${part('Contributing Guide', 6)}</section></div>`);
    try {
      const { outline } = await analysePage(page);
      const headings = outline.sections.map((s) => s.heading);
      assert.ok(outline.sections.length <= 60, `at most 60 parts (${outline.sections.length})`);
      for (const title of ['Exceptions', 'Contributing Guide']) assert.ok(headings.includes(title), `a part "${title}" in ${JSON.stringify(headings.filter(Boolean))}`);
    } finally {
      await page.close();
    }
  });
});

describe('the parts of a docs page boxed in <section>s, and a demo\'s numbered slides', () => {
  it('splits a long part made of boxed <section>s by each box\'s first heading, whatever its level, not a sample window\'s title inside it', async () => {
    const box = (title: string, level: number, paragraphs: number, inner = '') => `<section class="component"><h${level}>${title}</h${level}>${inner}${filler(paragraphs)}</section>`;
    const page = await pageWith(`
      <div style="width:700px;margin:0 auto">
        ${part('Intro', 3)}
        <h2>Components</h2>
        ${box('Buttons', 3, 8)}${box('Menu Bar', 3, 8)}${box('Windows', 2, 3)}${box('Title Bar', 3, 8, '<div class="window"><h1>A Title Bar</h1></div>')}${box('Dialogs', 3, 10)}
        ${part('Credits', 3)}${part('Sponsors', 2)}
      </div>`);
    try {
      const { outline } = await analysePage(page);
      const headings = outline.sections.map((s) => s.heading);
      for (const title of ['Buttons', 'Menu Bar', 'Windows', 'Title Bar', 'Dialogs', 'Credits']) assert.ok(headings.includes(title), `a part "${title}" in ${JSON.stringify(headings)}`);
      assert.ok(!headings.includes('A Title Bar'), `the sample window's title names no part: ${JSON.stringify(headings)}`);
      const components = outline.sections.find((s) => s.heading === 'Components')!;
      assert.ok(components.rect.height < 400, `"Components" is its title, not every box under it (${Math.round(components.rect.height)} px)`);
    } finally {
      await page.close();
    }
  });

  it('names a demo by its title, not by the numbers on its slides', async () => {
    const slides = (n: number) => `<div style="display:flex;gap:8px">${Array.from({ length: n }, (_, i) => `<div style="width:120px;height:200px"><h1>${i + 1}</h1></div>`).join('')}</div>`;
    const demo = (title: string) => `<div class="demo" style="padding:40px 0"><h2>${title}</h2><div class="slider">${slides(5)}</div><pre>new Slider(el, { perView: 1 });</pre>${filler(2)}</div>`;
    const page = await pageWith(`
      <div style="width:900px;margin:0 auto">
        <section id="demos"><header><h2>Demos</h2></header>${demo('Multiple Items')}${demo('Single Item')}${demo('Fractional Slides')}</section>
      </div>`);
    try {
      const { outline } = await analysePage(page);
      const headings = outline.sections.map((s) => s.heading);
      for (const title of ['Multiple Items', 'Single Item', 'Fractional Slides']) assert.ok(headings.includes(title), `a part "${title}" in ${JSON.stringify(headings)}`);
      assert.ok(!headings.includes('1'), `no part is named by a slide's number: ${JSON.stringify(headings)}`);
    } finally {
      await page.close();
    }
  });
});

describe('a blog with a sidebar of widgets', () => {
  it('reads each widget of a narrow sidebar beside the posts as a part of its own', async () => {
    // cws-devblog: the posts in a 736 px column, "Topics", "Tags", "Let's Talk" and "Newsletter" in a 294 px one
    // beside it. The sidebar was narrower than any part the outline took, and the newsletter was nowhere.
    const post = (title: string) => `<div style="height:300px"><h3>${title}</h3>${filler(2)}</div>`;
    const widget = (title: string, height: number) => `<div style="height:${height}px"><h2>${title}</h2><p>Some words about ${title.toLowerCase()} for readers.</p></div>`;
    const page = await pageWith(`
      <header style="height:500px"><h1>Hi, I'm Julia. Web developer</h1><p>I write about the web.</p></header>
      <div style="display:flex;gap:60px;width:1150px;margin:0 auto">
        <div style="width:736px"><h2>Latest Blog Post</h2>${['One', 'Two', 'Three', 'Four', 'Five', 'Six', 'Seven', 'Eight'].map((n) => post(`Post number ${n}`)).join('')}</div>
        <div style="width:294px">${widget('Topics', 288)}${widget('Tags', 295)}${widget("Let's Talk", 364)}${widget('Newsletter', 402)}</div>
      </div>
      <footer style="height:200px"><p>© Julia</p></footer>`);
    try {
      const { outline } = await analysePage(page);
      const headings = outline.sections.map((s) => s.heading);
      for (const title of ['Latest Blog Post', 'Topics', 'Tags', "Let's Talk", 'Newsletter']) assert.ok(headings.includes(title), `a part "${title}" in ${JSON.stringify(headings)}`);
    } finally {
      await page.close();
    }
  });
});

describe('a portfolio whose projects are articles two to a row', () => {
  it('reads the projects as one section under its heading, each project a part of it', async () => {
    // h5u-strata: "Recent Work" over six <article>s, two to a row. Each article became a section of its own and the
    // heading was nowhere: "open on the projects he has built" showed the first card under a heading off screen.
    const project = (title: string) => `<article style="width:50%;height:330px;box-sizing:border-box;padding:10px"><div style="height:200px;background:#ccd"></div><h3>${title}</h3><p>What it did and how.</p></article>`;
    const titles = ['Cloud migration', 'Python helper', 'Business intelligence', 'Aimbot by pose estimation', 'Federated learning', 'Dashboard kit'];
    const page = await pageWith(`
      <section style="height:500px"><h1>Hi, I'm Min.</h1><p>A data engineer.</p></section>
      <section id="work"><h2>Recent Work</h2><div style="display:flex;flex-wrap:wrap">${titles.map(project).join('')}</div></section>
      <section style="height:600px"><h2>Get In Touch</h2><form><input name="name"><input name="email"><textarea name="message"></textarea></form></section>`);
    try {
      const { outline } = await analysePage(page);
      const work = outline.sections.find((s) => s.heading === 'Recent Work');
      assert.ok(work, `a section "Recent Work" in ${JSON.stringify(outline.sections.map((s) => s.heading))}`);
      assert.ok(!outline.sections.some((s) => titles.includes(s.heading ?? '')), 'no project is a section of its own');
      assert.deepEqual(work.parts?.map((p) => p.heading), titles);
    } finally {
      await page.close();
    }
  });
});

describe('a part whose title sits in a row of its own above the row that holds it', () => {
  it('names the row by the title band over it, and keeps a band over the footer a part of its own', async () => {
    // opl-qbwedding: "Our Love Story" in a row of its own (an ornament and the h2) over a row with the timeline, whose
    // first entry is headed "First We Meet". The band was a part with nothing in it, the timeline "First We Meet", and
    // "how did the couple meet" went to neither.
    const entry = (title: string) => `<li style="height:360px"><h3>${title}</h3><span>June 10, 2017</span><p>How it went, told in a few lines of text.</p></li>`;
    const page = await pageWith(`
      <section style="height:700px"><h1>The Wedding of Louie &amp; Maria</h1></section>
      <div id="story"><div class="container" style="width:1000px;margin:0 auto">
        <div class="row" style="height:430px;text-align:center"><div class="heading"><img alt="" style="width:60px;height:60px"><h2>Our Love Story</h2></div></div>
        <div class="row"><ul class="timeline" style="list-style:none">${['First We Meet', 'First Date', 'In A Relationship', "We're Engaged"].map(entry).join('')}</ul></div>
      </div></div>
      <section style="height:700px"><h2>Sweet Messages</h2><blockquote>So happy for you both, and many more words of praise.</blockquote></section>
      <div style="height:400px;text-align:center"><h2>Partners who support us</h2></div>
      <footer style="height:500px"><h4>Department</h4><p>Links</p><h4>Support</h4><p>More links</p></footer>`);
    try {
      const { outline } = await analysePage(page);
      const headings = outline.sections.map((s) => s.heading);
      const story = outline.sections.find((s) => s.heading === 'Our Love Story');
      assert.ok(story, `a section "Our Love Story" in ${JSON.stringify(headings)}`);
      assert.ok(!headings.includes('First We Meet'), `the timeline's first entry names no part of its own: ${JSON.stringify(headings)}`);
      assert.ok(story.rect.height > 1200, `the story reaches over its timeline (${Math.round(story.rect.height)} px)`);
      assert.ok(headings.includes('Partners who support us'), `the band over the footer stays a part: ${JSON.stringify(headings)}`);
    } finally {
      await page.close();
    }
  });
});

describe('a part whose title sits over tabs, each tab with a heading of its own', () => {
  it('names the part by its title, not by the heading of the tab that is open', async () => {
    // tm-thegrill: "Our Upcoming Events" over tabs ("Steak Night / Tuesdays" …) whose open panel is headed "Every Tuesday
    // we offer the best steaks…", an h2 as the title is. The title was a part with nothing in it and the tabs a part
    // named by the open tab: "anything special on certain nights of the week" found neither.
    const tab = (title: string, day: string) => `<li style="display:inline-block;width:200px"><a href="#t"><span>${title}</span><p>${day}</p></a></li>`;
    const page = await pageWith(`
      <section style="height:700px"><h1>The Grill</h1></section>
      <section style="height:500px"><h2>About the house</h2><p>Some words about the place and its story, long enough to read.</p></section>
      <section><div class="section-inner">
        <div class="container" style="height:280px;text-align:center"><h2>Our Upcoming Events</h2><h3>Try us for yourself today.</h3></div>
        <div class="tabs">
          <ul role="tablist">${tab('Steak Night', 'Tuesdays.')}${tab('Curry Club', 'Thursdays.')}${tab('Sunday Special', 'Sundays.')}</ul>
          <div class="tab-content"><div role="tabpanel" class="tab-pane active" style="height:420px">
            <h2>Every Tuesday we offer the best steaks for all you meat lovers out there.</h2><p>What the night is like, told in a few lines.</p>
          </div></div>
        </div>
      </div></section>
      <section style="height:700px"><h2>Book Your Table</h2><form><input name="name"><input name="date"></form></section>`);
    try {
      const { outline } = await analysePage(page);
      const headings = outline.sections.map((s) => s.heading);
      const events = outline.sections.find((s) => s.heading === 'Our Upcoming Events');
      assert.ok(events, `a section "Our Upcoming Events" in ${JSON.stringify(headings)}`);
      assert.ok(!headings.some((h) => h?.startsWith('Every Tuesday')), `the open tab names no part of its own: ${JSON.stringify(headings)}`);
      assert.ok(events.rect.height > 600, `the events reach over the tabs (${Math.round(events.rect.height)} px)`);
      assert.match(events.text ?? '', /tuesdays/i);
    } finally {
      await page.close();
    }
  });
});

describe('headings a level down inside a flat run, and a résumé\'s side column', () => {
  it('gives a flat run\'s part the headings under its own as parts, each from its heading to the next', async () => {
    // strl-2024: "Call For Papers" (h2) over "Submission" (h3) and "Important Dates" (h4), "Organization" over
    // "Organizing Committee" and "Program Committee", all siblings in one container: the sections had no parts, and
    // "who reviews the submitted papers" could only show the top of a section two screens tall.
    const names = (n: number) => Array.from({ length: n }, (_, i) => `<p>Dr. Person ${i + 1}, University ${i + 1}, a country far away from here.</p>`).join('');
    const page = await pageWith(`
      <div style="width:700px;margin:0 auto">
        <h1>A Workshop</h1>${filler(3)}
        <h2>Introduction</h2>${filler(8)}
        <h2>Call For Papers</h2>${filler(6)}<h3>Submission</h3>${filler(6)}<h4>Important Dates</h4><p>May 13: papers due. June 3: notification.</p>${filler(4)}
        <h2>Organization</h2><h3>Organizing Committee</h3>${names(14)}<h3>Program Committee</h3>${names(14)}
        <h2>Venue</h2>${filler(8)}
      </div>`);
    try {
      const { outline } = await analysePage(page);
      const organization = outline.sections.find((s) => s.heading === 'Organization');
      assert.ok(organization, `a section "Organization" in ${JSON.stringify(outline.sections.map((s) => s.heading))}`);
      const parts = organization.parts ?? [];
      assert.deepEqual(parts.map((p) => p.heading), ['Organizing Committee', 'Program Committee']);
      assert.ok(parts.every((p) => p.flat === true), 'parts of a flat run are marked so');
      const program = parts[1]!;
      assert.ok(program.rect.y > organization.rect.y + 300, 'the second committee starts well down the section');
      assert.match(program.text, /Person 1/);
      const papers = outline.sections.find((s) => s.heading === 'Call For Papers');
      assert.ok(papers?.parts?.some((p) => p.heading === 'Important Dates'), `"Important Dates" is a part of the call: ${JSON.stringify(papers?.parts?.map((p) => p.heading))}`);
    } finally {
      await page.close();
    }
  });

  it('reads a résumé\'s side column of h3-headed parts as a section beside the main column, each part named', async () => {
    // xr-devresume: "Skills", "Education", "Awards", "Interests" in an <aside> beside "Work Experiences": the outline
    // held the main column only, and "any prizes he has won" had nowhere to go.
    const entry = (title: string) => `<div style="height:150px"><h4>${title}</h4><p>What was done there, in a sentence or two.</p></div>`;
    const side = (title: string) => `<section style="padding:12px 0"><h3>${title}</h3><p>A few lines of ${title.toLowerCase()} here.</p><p>And another.</p></section>`;
    const page = await pageWith(`
      <article style="width:1100px;margin:0 auto">
        <header style="height:160px"><h2>Simon Doe</h2><p>Senior Software Engineer</p></header>
        <div style="display:flex">
          <div style="width:820px"><section><h3>Work Experiences</h3>${entry('Engineer')}${entry('Developer')}${entry('Intern')}</section>
            <section><h3>Projects</h3>${entry('Project One')}${entry('Project Two')}</section></div>
          <aside style="width:240px;padding-left:30px">${side('Skills')}${side('Education')}${side('Awards')}${side('Languages')}${side('Interests')}<div style="height:300px"></div></aside>
        </div>
      </article>`);
    try {
      const { outline } = await analysePage(page);
      const headings = outline.sections.map((s) => s.heading);
      const column = outline.sections.find((s) => (s.parts ?? []).some((p) => p.heading === 'Awards') || s.heading === 'Awards');
      assert.ok(column, `the side column's "Awards" is in the outline: ${JSON.stringify(headings)}`);
      assert.ok(headings.includes('Work Experiences'), 'the main column stays');
    } finally {
      await page.close();
    }
  });
});
