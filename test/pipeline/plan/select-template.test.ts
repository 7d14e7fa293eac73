import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { autoSelectionSchema, type TemplateId } from '../../../src/demos/presentation.js';
import { selectTemplate } from '../../../src/pipeline/plan/select-template.js';
import type { PageOutline } from '../../../src/pipeline/types.js';
import { allOutlines, blankOutline, docsOutline, formAppOutline, minimalOutline, saasOutline } from './outlines.js';

type Row = {
  prompt: string;
  page: keyof typeof allOutlines;
  expect: TemplateId | { not: TemplateId };
  sectionHint?: string;
  given?: string;
};

/** prompt + page → template: the auto-selection rule table. */
const table: Row[] = [
  { prompt: 'show our pricing plans', page: 'saas', expect: 'pricing-focus' },
  { prompt: 'How much does it cost?', page: 'saas', expect: 'pricing-focus' },
  { prompt: 'show pricing', page: 'docs', expect: { not: 'pricing-focus' } },
  { prompt: 'show pricing', page: 'docs', expect: 'cinematic' },
  { prompt: 'walk through signing up', page: 'formApp', expect: 'conversion-flow' },
  { prompt: 'walk through signing up', page: 'saas', expect: 'conversion-flow' },
  { prompt: 'Start a free trial', page: 'saas', expect: 'conversion-flow' },
  { prompt: 'fill out the booking form', page: 'formApp', expect: 'conversion-flow' },
  { prompt: 'get started', page: 'minimal', expect: 'conversion-flow' },
  { prompt: 'focus on the Integrations section', page: 'saas', expect: 'section-focus', sectionHint: 'Integrations' },
  { prompt: 'Show the "Configuration" part of the docs', page: 'docs', expect: 'section-focus', sectionHint: 'Configuration' },
  { prompt: 'explain how Configuration works', page: 'docs', expect: 'section-focus', sectionHint: 'Configuration' },
  { prompt: 'focus on the pricing section', page: 'saas', expect: 'pricing-focus' },
  { prompt: 'make a demo', page: 'docs', given: 'FAQ', expect: 'section-focus', sectionHint: 'FAQ' },
  { prompt: 'highlight the key features', page: 'saas', expect: 'feature-sweep' },
  { prompt: 'what can it do? show the capabilities', page: 'formApp', expect: 'feature-sweep' },
  { prompt: 'show testimonials and customer reviews', page: 'saas', expect: 'proof-scroll' },
  { prompt: 'social proof', page: 'docs', expect: { not: 'proof-scroll' } },
  { prompt: 'give a quick tour of the docs', page: 'docs', expect: 'guided-tour' },
  { prompt: 'an overview of the navigation', page: 'saas', expect: 'guided-tour' },
  { prompt: 'spotlight the hero headline', page: 'saas', expect: 'hero-spotlight' },
  { prompt: 'just what is above the fold', page: 'docs', expect: 'hero-spotlight' },
  { prompt: 'scroll through the whole page', page: 'docs', expect: 'plain-scroll' },
  { prompt: 'make it cinematic', page: 'saas', expect: 'cinematic' },
  { prompt: 'show the product', page: 'saas', expect: 'cinematic' },
  { prompt: 'show the product', page: 'minimal', expect: 'hero-spotlight' },
  { prompt: 'show the product', page: 'blank', expect: 'cinematic' },
];

describe('auto template selection', () => {
  for (const row of table) {
    const expectation = typeof row.expect === 'string' ? row.expect : `not ${row.expect.not}`;
    it(`"${row.prompt}" on the ${row.page} page${row.given ? ` (hint ${row.given})` : ''} → ${expectation}`, () => {
      const outline = allOutlines[row.page]();
      const selection = selectTemplate({ prompt: row.prompt, outline, sectionHint: row.given });
      autoSelectionSchema.parse(selection);
      assert.equal(selection.source, 'heuristic');
      if (typeof row.expect === 'string') assert.equal(selection.selectedId, row.expect, selection.reason);
      else assert.notEqual(selection.selectedId, row.expect.not, selection.reason);
      if (row.sectionHint) assert.equal(selection.sectionHint, row.sectionHint);
    });
  }

  it('says why: a pricing prompt on a page without pricing is noted in the signals', () => {
    const selection = selectTemplate({ prompt: 'show pricing', outline: docsOutline() });
    assert.ok(selection.signals?.some((signal) => signal.includes('no pricing section')), JSON.stringify(selection.signals));
    assert.ok(selection.confidence < 0.5);
    const pricing = selectTemplate({ prompt: 'show our pricing plans', outline: saasOutline() });
    assert.ok(pricing.confidence >= 0.8, `confident when the page has it (${pricing.confidence})`);
  });

  it('always satisfies the spec bounds, whatever the prompt', () => {
    const prompts = [
      'x',
      'pricing plans cost tiers billing sign up trial form checkout features capabilities testimonials customers reviews logos tour overview navigation hero headline scroll cinematic '.repeat(4),
      `focus on the ${'very '.repeat(60)}long section`,
      'Zoom in on "' + 'ä'.repeat(300) + '"',
      '',
    ];
    const outlines: PageOutline[] = [saasOutline(), docsOutline(), formAppOutline(), minimalOutline(), blankOutline()];
    for (const prompt of prompts) {
      for (const outline of outlines) {
        for (const sectionHint of [undefined, 'Pricing', 'y'.repeat(300)]) {
          const selection = selectTemplate({ prompt, outline, sectionHint });
          const parsed = autoSelectionSchema.safeParse(selection);
          assert.ok(parsed.success, `${prompt.slice(0, 40)} / ${outline.url}: ${parsed.success ? '' : parsed.error.message}`);
        }
      }
    }
  });
});
