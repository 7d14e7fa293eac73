import { z } from 'zod';

/**
 * An address to create an account with: what zod takes for an email, within SMTP's limits (RFC 5321: a path of at
 * most 254 characters, a local part of at most 64), so that every account can be written to.
 */
export const emailAddress = z
  .email()
  .trim()
  .max(254)
  .refine((value) => value.lastIndexOf('@') <= 64, 'must have at most 64 characters before the @');

/** Control characters, and the Unicode line and paragraph separators: nothing a one-line name should hold. */
const CONTROL = /[\p{Cc}\u2028\u2029]/u;

/**
 * A name or title shown on one line (a project, a key, a device, an uploaded demo): trimmed, 1 to `max` characters,
 * and no control characters (a pasted line break or tab, an escape sequence that would garble a terminal's listing).
 */
export function singleLineName(max: number) {
  return z.string().trim().min(1).max(max).refine((value) => !CONTROL.test(value), 'must not contain control characters such as line breaks or tabs');
}

/**
 * What the fields a person types (in the dashboard's forms or the CLI's options) are called in a sentence: people
 * read these messages, and "url" or "name" alone reads like a program talking. Every other field is named by its
 * path, which is what a developer sending JSON needs (`presentation.zoom.intensity`).
 */
const FIELD_LABELS: Readonly<Record<string, string>> = {
  url: 'The page URL',
  name: 'The name',
  prompt: 'The prompt',
  title: 'The title',
  email: 'The email address',
  password: 'The password',
};

/** Fields whose blank value (empty, or spaces only) is said to be missing rather than blank. */
const BLANK_IS_MISSING: ReadonlySet<string> = new Set(['prompt']);

/**
 * The one place a zod issue becomes a sentence. Every 400 names the field, e.g.
 * "The name must be at most 100 characters long." or "viewport must be one of: desktop, mobile, tablet."
 */
export function describeIssue(issue: z.core.$ZodIssue): string {
  const path = issue.path.map(String).join('.');
  const field = issue.path.length === 0 ? 'The request body' : (FIELD_LABELS[path] ?? path);
  switch (issue.code) {
    case 'invalid_type':
      // zod 4 leaves `input` out of issues unless asked; its message says what it received.
      if (/received undefined/.test(issue.message) || ('input' in issue && issue.input === undefined && issue.message === '')) return `${field} is required.`;
      return `${field} must be ${article(issue.expected)}.`;
    case 'too_small':
      // A name, title or prompt of nothing but spaces is trimmed to nothing: to its writer it is blank (a prompt:
      // missing), not "at least 1 character long" (issue 57).
      if (issue.origin === 'string' && Number(issue.minimum) === 1) return BLANK_IS_MISSING.has(path) ? `${field} is required.` : `${field} cannot be blank.`;
      return `${field} must be ${bound('at least', issue.origin, issue.minimum, issue.inclusive)}.`;
    case 'too_big':
      return `${field} must be ${bound('at most', issue.origin, issue.maximum, issue.inclusive)}.`;
    case 'invalid_value':
      return `${field} must be one of: ${issue.values.map(String).join(', ')}.`;
    case 'invalid_format':
      // A pattern check says what it wants in its own message (`.regex(/…/, 'must be Unix seconds')`).
      if (issue.format === 'regex') return issue.message && !issue.message.startsWith('Invalid') ? `${field} ${issue.message}.` : `${field} is not in the expected format.`;
      if (issue.format === 'url') return `${field} must be a full http(s) address, like https://example.com.`;
      return `${field} must be a valid ${issue.format}.`;
    case 'custom':
      // Our own checks word their message as the rest of the sentence after the field.
      return `${field} ${issue.message}.`;
    case 'unrecognized_keys':
      return `Unknown field${issue.keys.length > 1 ? 's' : ''}: ${issue.keys.join(', ')}.`;
    case 'invalid_union':
      return `${field} does not match any accepted shape.`;
    default:
      return `${field}: ${issue.message}.`;
  }
}

export function describeIssues(issues: readonly z.core.$ZodIssue[]): string {
  return issues.slice(0, 3).map(describeIssue).join(' ');
}

function article(expected: string): string {
  const word = expected === 'int' ? 'integer' : expected;
  return /^[aeiou]/.test(word) ? `an ${word}` : `a ${word}`;
}

function bound(direction: string, origin: string, limit: number | bigint | Date | unknown, inclusive = true): string {
  const value = String(limit);
  switch (origin) {
    case 'string':
      return `${direction} ${value} character${value === '1' ? '' : 's'} long`;
    case 'array':
    case 'set':
      return `${direction === 'at least' ? 'at least' : 'at most'} ${value} item${value === '1' ? '' : 's'}`;
    default:
      return inclusive ? `${direction} ${value}` : `${direction === 'at least' ? 'greater than' : 'less than'} ${value}`;
  }
}

/** True when a string anywhere in a parsed JSON value (keys included) holds NUL, which PostgreSQL cannot store. */
export function containsNul(value: unknown): boolean {
  return someString(value, (text) => text.includes('\0'));
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * True when a string anywhere in a parsed JSON value (keys included) holds half of a UTF-16 surrogate pair (a JSON
 * escape like "\ud800" alone): no UTF-8 encodes it, so PostgreSQL refuses the text and the json built from it.
 */
export function containsLoneSurrogate(value: unknown): boolean {
  return someString(value, (text) => LONE_SURROGATE.test(text));
}

function someString(value: unknown, test: (text: string) => boolean): boolean {
  if (typeof value === 'string') return test(value);
  if (Array.isArray(value)) return value.some((item) => someString(item, test));
  if (value !== null && typeof value === 'object') return Object.entries(value).some(([k, v]) => test(k) || someString(v, test));
  return false;
}

/** The escapes a lone surrogate arrives as in JSON text: only text holding one needs walking. */
export function mayHoldSurrogateEscape(jsonText: string): boolean {
  return /\\u[dD][89a-fA-F]/.test(jsonText);
}
