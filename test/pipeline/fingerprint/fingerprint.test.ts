import assert from 'node:assert/strict';
import { deflateSync } from 'node:zlib';
import { describe, it } from 'node:test';
import { describeChanges, differenceHash, fingerprintOf, hashDistance, keyFigures } from '../../../src/pipeline/fingerprint/index.js';
import type { DemoPlan, OutlineSection, PageOutline } from '../../../src/pipeline/types.js';

/** An 8-bit RGB PNG drawn by `colour(x, y)`, each row with a different filter byte 0 (none): what Chromium sends. */
function png(width: number, height: number, colour: (x: number, y: number) => number): Buffer {
  const rows = Buffer.alloc((width * 3 + 1) * height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) rows.fill(colour(x, y), y * (width * 3 + 1) + 1 + x * 3, y * (width * 3 + 1) + 4 + x * 3);
  }
  const chunk = (type: string, data: Buffer) => {
    const head = Buffer.alloc(8);
    head.writeUInt32BE(data.length, 0);
    head.write(type, 4, 'latin1');
    return Buffer.concat([head, data, Buffer.alloc(4)]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 2, 0, 0, 0], 8);
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', ihdr), chunk('IDAT', deflateSync(rows)), chunk('IEND', Buffer.alloc(0))]);
}

const rect = (y: number) => ({ x: 0, y, width: 1280, height: 600 });
function section(id: string, heading: string, body: string, y: number, kind: OutlineSection['kind'] = 'content'): OutlineSection {
  return { id, kind, heading, text: body.slice(0, 200), body, label: heading, selector: `#${id}`, fallbackSelectors: [], rect: rect(y) };
}
function outline(sections: OutlineSection[], cta = 'Start free trial'): PageOutline {
  return {
    url: 'https://tidewater.example/', title: 'Tidewater', description: null, viewport: { width: 1280, height: 720 }, documentHeight: 3000,
    stickyHeaderHeight: 0, navigation: [], sections, forms: [], media: [], dismissedOverlays: [],
    actions: [{ kind: 'primary-cta', label: cta, href: '/signup', selector: 'header a.button', fallbackSelectors: [], rect: { x: 1100, y: 10, width: 150, height: 40 } }],
  };
}
const plan: DemoPlan = {
  templateId: 'guided-tour', autoSelection: null, sectionHint: null, durationMs: 10_000, source: 'heuristic',
  steps: [
    { action: 'scroll', sectionId: 'integrations', toY: 600, label: 'Integrations' },
    { action: 'scroll', sectionId: 'pricing', toY: 1200, label: 'Pricing' },
    { action: 'hover', target: { label: 'Start free trial', selector: 'header a.button', fallbackSelectors: [], rect: { x: 1100, y: 10, width: 150, height: 40 } }, label: 'CTA' },
  ],
};
const integrations = section('integrations', 'Integrations', 'Stripe: card payments land on the invoice. Xero: ledgers stay in step. Slack: a message when a client pays.', 600);
const pricing = (pro: string, heading = 'Pricing') => section('pricing', heading, `Solo $0 one user. Pro ${pro} per user unlimited clients. Studio $29 per user shared inbox.`, 1200, 'pricing');

describe('the fingerprint of what a demo shows', () => {
  it('a dHash tells a picture from a changed one and not from itself', () => {
    const stripes = png(90, 80, (x) => (Math.floor(x / 10) % 2 ? 230 : 20));
    const gradient = png(90, 80, (x) => Math.round((255 * x) / 90));
    assert.equal(differenceHash(stripes), differenceHash(png(90, 80, (x) => (Math.floor(x / 10) % 2 ? 230 : 20))));
    assert.match(differenceHash(stripes), /^[0-9a-f]{16}$/);
    assert.ok(hashDistance(differenceHash(stripes), differenceHash(gradient)) > 12);
  });

  it('reads prices with the plan they belong to and their unit', () => {
    assert.deepEqual(keyFigures('Pro $12 per user unlimited clients. Trusted by 4,000+ teams since 2019.'), [
      { value: '$12', label: 'Pro', unit: 'per user' },
      { value: '4,000+', label: 'by', unit: '' },
    ]);
  });

  it('says nothing when nothing the demo shows changed, and each change in words when it did', () => {
    const before = fingerprintOf(outline([integrations, pricing('$12')]), plan, new Map([['pricing', '00ff00ff00ff00ff']]));
    assert.deepEqual(before.shots.map((shot) => shot.heading), ['Integrations', 'Pricing']);
    assert.deepEqual(describeChanges(before, outline([integrations, pricing('$12')]), new Map([['pricing', '00ff00ff00ff00ff']])), []);

    const changed = outline([pricing('$15', 'Plans and prices'), section('reports', 'Reports', 'Monthly reports for your accountant.', 1800)], 'Try it free');
    assert.deepEqual(describeChanges(before, changed, new Map([['pricing', 'ff00ff00ff00ff00']])), [
      'Section removed: Integrations; its step was dropped',
      "Heading renamed: 'Pricing' is now 'Plans and prices'",
      'Pricing: Pro $12 → $15 per user',
      'Pricing: looks different',
      "'Start free trial' is now 'Try it free'",
      'New section: Reports',
    ]);
  });
});
