import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import chromium from '@sparticuz/chromium';
import { chromiumFonts, findLabelFont } from '../../../src/pipeline/encode/label-font.js';

describe('the font for text drawn on video', () => {
  it('is there even on a machine without fonts: Chromium unpacks Open Sans where the finder looks', async () => {
    await chromium.executablePath();
    const font = await findLabelFont(chromiumFonts());
    assert.ok(font?.endsWith('OpenSans-Regular.ttf'), `found ${font}`);
  });

  it('skips a path drawtext could not take unescaped, and answers null when nothing is there', async () => {
    assert.equal(await findLabelFont(['/nowhere/Font.ttf', "/tmp/it's.ttf"]), null);
  });
});
