import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import type { CaptionBurnIn } from '../../../src/pipeline/compose/caption-layer.js';
import { nameFrom, resolveEndCard } from '../../../src/pipeline/compose/end-card.js';
import { ffmpegBinaries } from '../../../src/pipeline/encode/ffmpeg-binaries.js';
import { ocrLines } from '../../helpers/ocr.js';
import { type ComposeFixture, isCaptureBlue, startComposeFixture } from './compose-fixture.js';

const run = promisify(execFile);

/** One caption over the whole 4 s video, as the story's last caption runs to its end. */
const CAPTIONS: CaptionBurnIn = {
  captions: [{ startMs: 0, endMs: 4000, lines: ['Every chart in one place'], avoid: null }],
  position: 'bottom',
  style: 'pill',
  viewportHeight: 720,
};

/**
 * Issue 57: the video may close on an end card (the product's name, a call to action and its address), and a caption
 * never stays on screen into the fade to black or over the card. Read as a viewer reads it: the words in the frames.
 */
describe('the end card and the last caption', () => {
  let fixture: ComposeFixture;
  let ffmpeg: string;

  before(async () => {
    [fixture, { ffmpeg }] = await Promise.all([startComposeFixture(), ffmpegBinaries()]);
  });
  after(() => fixture?.close());

  const wordsAt = async (file: string, seconds: number) => {
    const png = path.join(path.dirname(file), `frame-${seconds}.png`);
    await run(ffmpeg, ['-v', 'error', '-y', '-ss', seconds.toFixed(3), '-i', file, '-frames:v', '1', png]);
    if (process.env.END_CARD_SHOTS) await run('cp', [png, path.join(process.env.END_CARD_SHOTS, `end-card-${seconds}s.png`)]);
    // Light words on a colour (the card's button, in the frame's middle band: the card is centred) are read as black
    // on white too, the near-white pixels black and all else white: tesseract misses white on indigo.
    const negated = png.replace(/\.png$/, '-light-words.png');
    await run(ffmpeg, ['-v', 'error', '-y', '-i', png, '-vf', "crop=iw:ih*0.16:0:ih*0.46,format=gray,lut=y='if(gt(val,200),0,255)'", negated]);
    return [...(await ocrLines(png)), ...(await ocrLines(negated))].map((line) => line.text).join('\n');
  };

  it('closes on the card with the name, the call to action and its address; the tour and its caption before it', async () => {
    const rendered = await fixture.render(
      { endCard: { enabled: true } },
      { captions: CAPTIONS, endCard: { title: 'Acme Analytics', ctaText: 'Start your free trial', ctaUrl: 'https://acme.example/signup' } },
    );
    const during = await wordsAt(rendered.file, 1.0);
    assert.match(during, /Every chart in one place/, 'the caption shows during the tour');
    assert.doesNotMatch(during, /Acme Analytics/);
    assert.ok((await rendered.frame(1.0)).find(isCaptureBlue).count > 10_000, 'the recording is on screen');

    // The card has faded in by 2.9 s (from 2.5 s: the last 1.5 s of a 4 s video) and the fade out starts at 3.6 s.
    const card = await wordsAt(rendered.file, 3.2);
    assert.match(card, /Acme Analytics/);
    assert.match(card, /Start your free trial/);
    assert.match(card, /acme\.example\/signup/);
    assert.doesNotMatch(card, /Every chart/, 'the caption left before the card came');
    assert.equal(rendered.composed.durationMs, 4000, 'the card is laid over the end, the video keeps its length');
  });

  it('closes the 9:16 and the 1:1 cut on the card too, laid out for their frame, the caption gone before it', async () => {
    const rendered = await fixture.render(
      { endCard: { enabled: true } },
      { captions: CAPTIONS, endCard: { title: 'Acme Analytics', ctaText: 'Start your free trial', ctaUrl: 'https://acme.example/signup' }, variants: ['9:16', '1:1'] },
    );
    assert.deepEqual(rendered.composed.variants.map((variant) => [variant.aspect, variant.width, variant.height]), [['9:16', 720, 1280], ['1:1', 720, 720]]);
    for (const variant of rendered.composed.variants) {
      assert.match(await wordsAt(variant.outFile, 1.0), /Every chart in one place/, `${variant.aspect}: the caption shows during the tour`);
      const card = await wordsAt(variant.outFile, 3.2);
      // Whole words, each line inside the frame: the card is drawn for this frame, not the 16:9 one cropped.
      assert.match(card, /Acme Analytics/, variant.aspect);
      assert.match(card, /Start your free trial/, variant.aspect);
      assert.match(card, /acme\.example\/signup/, variant.aspect);
      assert.doesNotMatch(card, /Every chart/, `${variant.aspect}: the caption left before the card came`);
      assert.doesNotMatch(await wordsAt(variant.outFile, 1.0), /Acme Analytics/, `${variant.aspect}: no card during the tour`);
    }
  });

  it('clears the last caption before the picture fades out, with no end card', async () => {
    const rendered = await fixture.render(null, { captions: CAPTIONS });
    assert.match(await wordsAt(rendered.file, 3.3), /Every chart in one place/, 'still read before the fade');
    // The fade out takes the last 0.4 s; the caption is gone 0.1 s before it starts.
    assert.doesNotMatch(await wordsAt(rendered.file, 3.55), /Every chart/);
  });

  it('takes what the presentation leaves out from the page: its name and its address', () => {
    const page = { name: 'Acme Analytics', url: 'https://www.acme.example/pricing' };
    assert.equal(resolveEndCard(null, page), null, 'no card unless asked');
    assert.equal(resolveEndCard({ endCard: { enabled: false, title: 'x' } }, page), null);
    assert.deepEqual(resolveEndCard({ endCard: { enabled: true } }, page), {
      title: 'Acme Analytics', ctaText: 'Visit acme.example', ctaUrl: 'https://www.acme.example/pricing',
    });
    assert.deepEqual(resolveEndCard({ endCard: { enabled: true, ctaText: 'Book a demo', ctaUrl: 'https://cal.example/acme' } }, { name: null, url: page.url }), {
      title: 'acme.example', ctaText: 'Book a demo', ctaUrl: 'https://cal.example/acme',
    });
  });

  it('names the page as it names itself, else by the part of its title that is the site’s', () => {
    const page = (title: string, extra: Partial<{ site: string; app: string }> = {}) => ({ site: '', app: '', title, host: 'www.tidewater.example', ...extra });
    assert.equal(nameFrom(page('Pricing | Tidewater Bank')), 'Tidewater Bank');
    assert.equal(nameFrom(page('Tidewater — Banking for boat builders')), 'Tidewater');
    assert.equal(nameFrom(page('Plans and pricing')), 'Plans and pricing');
    assert.equal(nameFrom(page('Home', { site: 'Tidewater Savings' })), 'Tidewater Savings');
    assert.equal(nameFrom(page('')), null);
  });
});
