import type { OutlineField } from '../types.js';

/**
 * Plausible text for a form field, chosen from its type, name and label. Ada Lovelace at example.com (a domain
 * reserved for examples) never reaches a real inbox. Fields a demo should not touch (files, dates, choices) get null.
 */
export function demoValueFor(field: OutlineField): string | null {
  const type = field.type.toLowerCase();
  const words = `${field.name ?? ''} ${field.label}`.toLowerCase();
  if (['checkbox', 'radio', 'file', 'hidden', 'submit', 'button', 'reset', 'image', 'range', 'color', 'select', 'date',
    'datetime-local', 'month', 'week', 'time'].includes(type)) return null;
  if (type === 'email' || /e-?mail/.test(words)) return 'ada@example.com';
  if (type === 'password' || /password|passcode/.test(words)) return 'correct-horse-42';
  if (type === 'tel' || /phone|mobile|\btel\b/.test(words)) return '+44 20 7946 0958';
  if (type === 'url' || /website|\burl\b|domain|site/.test(words)) return 'https://example.com';
  if (type === 'search' || /search|query|find/.test(words)) return 'analytics';
  if (type === 'number' || /seats|team size|employees|quantity|amount/.test(words)) return '12';
  if (/first[\s_-]?name|given/.test(words)) return 'Ada';
  if (/last[\s_-]?name|surname|family/.test(words)) return 'Lovelace';
  if (/company|organi[sz]ation|business|employer|team/.test(words)) return 'Analytical Engines Ltd';
  if (/title|role|position|job/.test(words)) return 'Head of Product';
  if (/city|town/.test(words)) return 'London';
  if (type === 'textarea' || /message|comment|question|details|note|tell us|how can we help/.test(words)) {
    return "Hi! We'd love a quick demo for our team.";
  }
  if (/name|full|user/.test(words)) return 'Ada Lovelace';
  return 'Ada Lovelace';
}
