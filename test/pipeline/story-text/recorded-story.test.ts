import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { describe, it } from 'node:test';
import { promisify } from 'node:util';
import { captionFrames } from '../../../src/pipeline/compose/caption-layer.js';
import { createCamera, FPS } from '../../../src/pipeline/compose/camera.js';
import { computeLayout } from '../../../src/pipeline/compose/layout.js';
import { resolveStyle } from '../../../src/pipeline/compose/style.js';
import { ffmpegBinaries } from '../../../src/pipeline/encode/ffmpeg-binaries.js';
import { OUTPUT_SIZES } from '../../../src/pipeline/encode/video-encoder.js';
import { produceRecording, recordingCaptureSize } from '../../../src/pipeline/produce-recording.js';
import { factsOnPage } from '../../../src/pipeline/story-text/captions.js';
import { CAPTION_LIMITS } from '../../../src/pipeline/story-text/types.js';
import type { Presentation } from '../../../src/demos/presentation.js';
import { heuristicPlanner, recordingRig } from '../../helpers/recording-rig.js';
import { ocrLines, type OcrLine } from '../../helpers/ocr.js';
import { frameAt } from '../../helpers/video-frames.js';

const run = promisify(execFile);

interface Box { x: number; y: number; width: number; height: number }

/**
 * The lines of text OCR reads in a frame of the video (or of the GIF preview, scaled up to the video's size), each
 * with its box (output pixels).
 */
async function videoLines(video: string, seconds: number, work: string, output: { width: number; height: number }): Promise<OcrLine[]> {
  const { ffmpeg } = await ffmpegBinaries();
  const png = path.join(work, `ocr-${path.extname(video).slice(1)}-${seconds.toFixed(2)}.png`);
  await run(ffmpeg, ['-v', 'error', '-y', '-ss', seconds.toFixed(3), '-i', video, '-frames:v', '1', '-vf', `scale=${output.width}:${output.height}:flags=lanczos`, png]);
  return ocrLines(png);
}

/**
 * The lines a burned-in caption could be: white text on the caption's dark pill, so what is just around it is dark. The
 * page's own headings (dark on white) say the same words as a caption and must not pass for one.
 */
async function darkLines(video: string, seconds: number, work: string, output: { width: number; height: number }) {
  const frame = await frameAt(video, seconds, output.width, output.height);
  // Around the text, not in it: the rows just above and below its box are the pill's (or the page's) background.
  const luma = (box: Box) => {
    let total = 0;
    let count = 0;
    for (const y of [box.y - 4, box.y + box.height + 3]) {
      if (y < 0 || y >= output.height) continue;
      for (let x = Math.max(0, box.x); x < Math.min(output.width, box.x + box.width); x++) {
        const i = (y * output.width + x) * 3;
        total += 0.2126 * frame[i]! + 0.7152 * frame[i + 1]! + 0.0722 * frame[i + 2]!;
        count++;
      }
    }
    return count > 0 ? total / count : 255;
  };
  return (await videoLines(video, seconds, work, output)).filter((line) => luma(line) < 110);
}

/** Letters-only lower-case words, to compare what OCR read with what was written. */
const wordsOf = (text: string) => text.toLowerCase().split(/\s+/).map((w) => w.replace(/[^\p{L}\d]/gu, '')).filter(Boolean);

/**
 * The OCR line that reads as the caption's line (most of its words, in a line of about its length), at a caption's
 * size (the page's own text is smaller) and near the top (below the window's title bar and the page's navigation, so
 * lower than a fifth) or in the bottom fifth of the frame, where captions go; else null.
 */
function captionLine(lines: Array<{ text: string } & Box>, caption: string, frameHeight: number): ({ text: string } & Box) | null {
  const want = wordsOf(caption);
  return (
    lines.find((line) => {
      const atAnEdge = line.y + line.height < frameHeight * 0.35 || line.y > frameHeight * 0.78;
      if (!atAnEdge || line.height < frameHeight / 48) return false;
      const got = wordsOf(line.text);
      const hits = want.filter((w) => got.includes(w)).length;
      return hits / want.length >= 0.6 && got.length <= want.length + 2;
    }) ?? null
  );
}

describe('a recorded demo explains itself: chapters and burned-in captions from a two-part prompt', () => {
  const rig = recordingRig('showreel-story-');

  it('chapters follow the recording, captions keep the page’s facts and limits, and the burned-in caption is readable and clear of the focused section', async () => {
    const outFile = path.join(rig.work, 'story.mp4');
    // Asked for at the top, where the saas page has its sticky navigation and the window its title bar.
    const presentation: Presentation = { captions: { burnIn: true, position: 'top', style: 'pill' } };
    const { produced, pageText } = await rig.browsers.withPage(
      { viewport: 'desktop', resolution: '720p', allowPrivate: true, captureSize: recordingCaptureSize(presentation, '720p', 'desktop') },
      async (page, ctx) => {
        await ctx.goto(rig.sites.url('saas'), { waitUntil: 'load' });
        const pageText = (await page.evaluate('document.body.innerText')) as string;
        const produced = await produceRecording(
          page,
          {
            url: rig.sites.url('saas'), prompt: 'Show the pricing plans and what customers say', viewport: 'desktop', format: 'mp4',
            resolution: '720p', durationTarget: '10s', mode: 'script', template: { id: 'auto' }, presentation, outFile,
          },
          heuristicPlanner(),
          () => undefined,
        );
        return { produced, pageText };
      },
    );
    const story = produced.story!;
    assert.ok(story, 'the demo has a story');
    const { timeline } = produced.recording;
    const sections = produced.plan!.story!.beats.filter((beat) => beat.kind === 'section');
    assert.ok(sections.length >= 2, `both parts of the prompt are beats: ${JSON.stringify(produced.plan!.story!.beats.map((b) => b.title))}`);
    assert.ok(story.chapters.length >= 2, JSON.stringify(story.chapters));

    // Chapters: one after another to the end; the opening from 0 s.
    const frameMs = 1000 / FPS;
    assert.equal(story.chapters[0]!.startMs, 0);
    for (const [i, chapter] of story.chapters.entries()) assert.equal(chapter.endMs, story.chapters[i + 1]?.startMs ?? Math.round(timeline.durationMs));
    // The section beats' chapters start when their section can be read (issue 55): the page has (nearly) come to rest
    // on it, its heading in the view below the sticky navigation, by the recorder's scroll samples; and no later than
    // the scroll that brought it in ended.
    const outline = produced.outline!;
    const scrollAt = (t: number) => timeline.scrolls.filter((sample) => sample.t <= t).at(-1)?.y ?? 0;
    for (const beat of sections) {
      const chapter = story.chapters.find((c) => c.title === beat.title);
      const named = timeline.steps.find((step) => step.label === beat.stepLabel);
      assert.ok(chapter && named, `"${beat.title}" was recorded and has a chapter`);
      const heading = outline.sections.find((s) => s.id === beat.sectionId)?.headingRect;
      assert.ok(heading, `"${beat.title}" has a heading on the page`);
      const top = heading.y - scrollAt(chapter.startMs);
      assert.ok(top >= outline.stickyHeaderHeight - 4 && top + heading.height <= timeline.viewport.height, `"${beat.title}" starts at ${chapter.startMs} ms with its heading at ${top} px of the view`);
      assert.ok(chapter.startMs <= named.endMs + frameMs, `"${beat.title}" starts by the end of the step that frames it`);
    }

    // Captions: the page's words and figures only, within the timed-text limits.
    assert.ok(story.captions.length >= 2, JSON.stringify(story.captions));
    for (const caption of story.captions) {
      const text = caption.lines.join(' ');
      assert.ok(factsOnPage(text, pageText), `"${text}" holds only numbers and names the page has`);
      assert.ok(caption.lines.length <= CAPTION_LIMITS.lines);
      for (const line of caption.lines) assert.ok(line.length <= CAPTION_LIMITS.lineChars, line);
      assert.ok(caption.endMs - caption.startMs >= CAPTION_LIMITS.minMs && caption.endMs - caption.startMs <= CAPTION_LIMITS.maxMs);
    }

    // Burned in: OCR reads a caption in the video, and its words sit clear of the focused section's box.
    const output = OUTPUT_SIZES['720p'];
    const style = resolveStyle(presentation);
    const capture = recordingCaptureSize(presentation, '720p', 'desktop');
    const layout = computeLayout(output, capture, style);
    const camera = createCamera(layout, timeline, style, timeline.durationMs);
    const navHeight = produced.outline!.stickyHeaderHeight;
    // A caption's pill as caption-layer draws it (40 px type at 1080p, 1.3 line height, 0.3 em padding each side).
    const captionHeight = (lines: number) => (output.height / 1080) * 40 * (1.3 * lines + 0.6);
    assert.ok(navHeight > 0, 'the saas page has a sticky navigation');
    let read = 0;
    let atTop = 0;
    const readAt: Array<{ line: string; midS: number }> = [];
    for (const caption of story.captions) {
      const frames = captionFrames(caption, camera);
      const midS = (caption.startMs + caption.endMs) / 2000;
      const line = captionLine(await darkLines(outFile, midS, rig.work, output), caption.lines[0]!, output.height);
      if (!line) continue;
      read++;
      readAt.push({ line: caption.lines[0]!, midS });
      // A caption is one still for its whole time: read near its first and last frames too, it is there, unmoved (its
      // text's foot where it was; OCR may take in a neighbouring word, which moves the box's other edges).
      // (Near its end, but before the video's last 0.8 s: there the camera eases back to the whole window, and x264
      // spends so few bits on that motion that OCR missed a caption the frame still showed, once in four full runs.)
      for (const seconds of [caption.startMs / 1000 + 0.1, Math.min(caption.endMs, timeline.durationMs - 800) / 1000 - 0.1]) {
        const again = captionLine(await darkLines(outFile, seconds, rig.work, output), caption.lines[0]!, output.height);
        assert.ok(again && Math.abs(again.y + again.height - (line.y + line.height)) <= 4, `"${line.text}" ${JSON.stringify(line)} shows at ${seconds.toFixed(2)} s where it shows at ${midS.toFixed(2)} s: ${JSON.stringify(again)}`);
      }
      // At the top, inside the page below its navigation (so below the title bar too), at every frame it shows.
      if (line.y >= output.height / 2) {
        // Asked for at the top and put at the bottom: only because the focused section reaches up under the
        // navigation, where the top band would be, while the caption shows.
        const reachesUp = !!caption.avoid && frames.some((frame) => {
          const navBottom = camera.project(frame, camera.fromViewport({ x: 0, y: navHeight })).y;
          const sectionTop = camera.project(frame, camera.fromViewport({ x: 0, y: Math.max(0, caption.avoid!.y) })).y;
          return sectionTop < navBottom + captionHeight(caption.lines.length) + 32;
        });
        assert.ok(reachesUp, `"${line.text}" left the top, which was asked for, with no section in the way`);
      } else {
        atTop++;
        for (const frame of frames) {
          if (camera.at(frame).animating) continue;
          const navBottom = camera.project(frame, camera.fromViewport({ x: 0, y: navHeight })).y;
          assert.ok(line.y >= navBottom, `frame ${frame}: "${line.text}" (top ${line.y}) is over the navigation (foot ${navBottom.toFixed(1)})`);
        }
      }
      // Clear of the focused section (the part of it in the page's view) at every frame of its display time, through
      // the camera (zoom and all).
      if (!caption.avoid) continue;
      const box = caption.avoid;
      const foot = Math.min(box.y + box.height, timeline.viewport.height);
      for (const frame of frames) {
        const a = camera.project(frame, camera.fromViewport({ x: box.x, y: Math.max(0, box.y) }));
        const b = camera.project(frame, camera.fromViewport({ x: box.x + box.width, y: foot }));
        const overlaps = line.x < b.x && line.x + line.width > a.x && line.y < b.y && line.y + line.height > a.y;
        // Where the section leaves no room for the caption (between the navigation and it, or below it), it covers
        // the section's foot, never the heading at its top.
        const navBottom = camera.project(frame, camera.fromViewport({ x: 0, y: navHeight })).y;
        const room = Math.max(a.y - navBottom, output.height - b.y);
        if (room < captionHeight(caption.lines.length)) assert.ok(line.y > (a.y + b.y) / 2, `frame ${frame}: "${line.text}" at ${line.y} keeps to the foot of the section filling the view (${a.y.toFixed(0)}–${b.y.toFixed(0)})`);
        else assert.ok(!overlaps, `frame ${frame}: the caption "${line.text}" at ${JSON.stringify(line)} covers the focused box ${JSON.stringify([a, b])}`);
      }
    }
    assert.ok(read >= 1, `OCR reads at least one burned-in caption in the video: ${JSON.stringify(story.captions.map((c) => c.lines))}`);
    console.log(`burned-in captions read by OCR: ${read} of ${story.captions.length}, ${atTop} at the top (asked for), the rest moved to the bottom`);
    // The GIF preview carries the burned-in captions too: a caption read in the video is read in the GIF at that moment.
    const gif = outFile.replace(/\.mp4$/, '.gif');
    assert.equal(produced.composed.gif?.file, gif, 'the GIF preview was written beside the video');
    const inGif = [];
    for (const { line, midS } of readAt) {
      if (midS < 10 && captionLine(await darkLines(gif, midS, rig.work, output), line, output.height)) inGif.push(line);
    }
    assert.ok(inGif.length >= 1, `OCR reads a burned-in caption in the GIF preview too (read in the video: ${JSON.stringify(readAt)})`);
    // To look at it (npm run contact-sheet -- <file>): SHOWREEL_TEST_KEEP_VIDEO=/tmp/story.mp4 keeps the video.
    if (process.env.SHOWREEL_TEST_KEEP_VIDEO) await fs.copyFile(outFile, process.env.SHOWREEL_TEST_KEEP_VIDEO);
  });
});
