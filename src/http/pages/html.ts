/**
 * HTML building for the public pages. The one rule: text never reaches markup unescaped. The `html` tag escapes
 * every interpolated value unless it is already `SafeHtml` (the result of another `html` template, or `raw` for
 * constants written in this codebase). Attribute values are always written in double quotes in the templates,
 * and `escapeHtml` escapes both quote kinds (and the backtick, which old IE treated as a quote), so a value can
 * never leave its attribute.
 */

const ESCAPES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
  '`': '&#96;',
};

/** Escapes & < > " ' ` : safe in text and in quoted attribute values. */
export function escapeHtml(text: string): string {
  return String(text).replace(/[&<>"'`]/g, (c) => ESCAPES[c] ?? c);
}

const brand = Symbol('SafeHtml');

/** Markup that is already safe. Only `html` and `raw` make one; a look-alike object is escaped as text. */
export class SafeHtml {
  readonly [brand] = true;
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

export type HtmlValue = SafeHtml | string | number | null | undefined | false | readonly HtmlValue[];

function render(value: HtmlValue): string {
  if (value === null || value === undefined || value === false) return '';
  if (value instanceof SafeHtml) return value.value;
  if (Array.isArray(value)) return value.map(render).join('');
  return escapeHtml(String(value));
}

/** Tagged template: `html\`<p title="${title}">${text}</p>\``. Null, undefined and false render as nothing. */
export function html(strings: TemplateStringsArray, ...values: HtmlValue[]): SafeHtml {
  let out = strings[0] ?? '';
  for (let i = 0; i < values.length; i++) out += render(values[i] as HtmlValue) + (strings[i + 1] ?? '');
  return new SafeHtml(out);
}

/** Trusted markup written in this codebase (CSS, fixed snippets). Never pass anything a user typed. */
export function raw(trusted: string): SafeHtml {
  return new SafeHtml(trusted);
}

const graphemes = new Intl.Segmenter('en', { granularity: 'grapheme' });

/**
 * Collapses whitespace and shortens to at most `max` user-perceived characters (never splitting an emoji or an
 * accent from its letter), preferring a word boundary near the end, with an ellipsis when shortened.
 */
export function truncateText(text: string, max: number): string {
  const clean = text.replace(/\s+/g, ' ').trim();
  const parts = Array.from(graphemes.segment(clean), (s) => s.segment);
  if (parts.length <= max) return clean;
  let cut = parts.slice(0, Math.max(1, max - 1));
  const lastSpace = cut.lastIndexOf(' ');
  if (lastSpace >= Math.floor(cut.length * 0.7)) cut = cut.slice(0, lastSpace);
  return `${cut.join('').replace(/[\s.,;:!?\-–—]+$/u, '')}…`;
}
