import { storyMembers } from '../../demos/representation.js';
import type { DemoRecord } from '../../demos/index.js';
import { publicUrlOf, type DemoUrls } from './demo-view.js';
import { html, type SafeHtml } from './html.js';

/**
 * What the public players show of a demo's chapters and captions (issue 36): the two WebVTT tracks of the version
 * shown (`?v=N`, so a refresh never pairs new chapters with an old video in a cache), and the chapter list.
 */
export interface StoryView {
  chaptersUrl: string | null;
  captionsUrl: string | null;
  chapters: Array<{ title: string; startS: number }>;
}

export function storyView(demo: DemoRecord, urls: DemoUrls): StoryView {
  const { chapters, captions } = storyMembers(demo.story ?? null);
  const base = publicUrlOf(urls);
  const v = `?v=${demo.version}`;
  return {
    chaptersUrl: chapters.length > 0 ? `${base}/chapters/${demo.id}.vtt${v}` : null,
    captionsUrl: captions && captions.count > 0 && !captions.off_reason ? `${base}/captions/${demo.id}.vtt${v}` : null,
    chapters: chapters.map((chapter) => ({ title: chapter.title, startS: chapter.start_ms / 1000 })),
  };
}

/** The `<track>`s of a `<video>`: chapters (hidden, the player reads them) and captions (off until CC is pressed). */
export function trackElements(story: StoryView): SafeHtml {
  return html`${story.chaptersUrl ? html`<track kind="chapters" src="${story.chaptersUrl}" srclang="und" label="Chapters">` : null}${
    story.captionsUrl ? html`<track kind="captions" src="${story.captionsUrl}" label="Captions">` : null
  }`;
}

/** The share page's chapter list: each a button that seeks the player (player.js), the title escaped as all text. */
export function chapterList(story: StoryView): SafeHtml | null {
  if (story.chapters.length < 2) return null;
  return html`<nav class="chapters" aria-label="Chapters"><ol>${story.chapters.map(
    (chapter) => html`<li><button type="button" data-seek="${chapter.startS.toFixed(3)}"><span class="at">${clock(chapter.startS)}</span> ${chapter.title}</button></li>`,
  )}</ol></nav>`;
}

export const STORY_CSS = `
.chapters ol{list-style:none;margin:16px 0 0;padding:0;display:flex;flex-wrap:wrap;gap:8px}
.chapters button{font:inherit;font-size:.9rem;color:#e8e9ed;background:#1a1c24;border:1px solid #2c2f3a;border-radius:999px;padding:4px 12px;cursor:pointer}
.chapters button:hover,.chapters button:focus-visible{background:#262935;outline:2px solid #8ab4ff;outline-offset:2px}
.chapters button[aria-current="true"]{border-color:#ff4d5e}
.chapters .at{color:#a3a7b3;font-variant-numeric:tabular-nums}
.markers{position:absolute;left:0;right:0;bottom:0;height:4px;pointer-events:none}
.markers i{position:absolute;top:0;width:2px;height:4px;background:#ff4d5e}
.cc{position:absolute;top:8px;right:8px;font:600 12px/1 system-ui,sans-serif;color:#fff;background:rgba(0,0,0,.6);border:1px solid rgba(255,255,255,.4);border-radius:4px;padding:5px 7px;cursor:pointer}
.cc[aria-pressed="true"]{background:#fff;color:#000}
.cc:focus-visible{outline:2px solid #8ab4ff;outline-offset:2px}`;

function clock(seconds: number): string {
  const s = Math.floor(seconds);
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}
