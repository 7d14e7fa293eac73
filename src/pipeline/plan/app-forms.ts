import type { OutlineField, OutlineForm, PageOutline, PlanStep } from '../types.js';
import type { AppActions } from './app-actions.js';
import { labelSays, madeUpValue, roleOf, targetOf } from './form-fill.js';
import type { NamedValues } from './named-values.js';
import { sectionsInOrder } from './outline-query.js';

/**
 * Issue 56: an app's own forms, filled one after another in the order the prompt says and each sent with its button
 * ("set my budget to 3000 and then log groceries for 150": the budget form's "Calculate", then the expense form's
 * "Add expense"), so that what they make (the budget, the list, the balance) changes on camera.
 *
 * Only amounts and entries are read this way (named-pairs.ts: "my budget is 1200", "paying 300 of rent"): the prompt
 * makes something with them. And only an app's form is pressed: one that sends nowhere else (no address of its own),
 * by GET, and whose fields have no names, so that a real submit would send nothing: only the page's script can use
 * it. A customer's real form (named fields, an address, a POST) is never pressed here; form-fill.ts fills it and
 * points at its button.
 */

/** A moment after a press for the page to answer (the total recomputed, the row added) before the next form. */
const ANSWER_MS = 900;
/** The app's answer held at the end, long enough to read (as app-actions.ts holds a list). */
const HOLD_MS = 5_600;

interface Send {
  at: number;
  form: OutlineForm;
  typed: Array<{ field: OutlineField; text: string }>;
}

export function appForms(prompt: string, outline: PageOutline, values: NamedValues): AppActions | null {
  const forms = outline.forms.filter((form) => sentByScript(form, outline));
  if (forms.length === 0) return null;
  const sends: Send[] = [];
  // "set my budget to 3000": an amount into the field its label says.
  for (const pair of values.fields) {
    if (!/^\d+(?:[.,]\d+)?$/.test(pair.value)) continue;
    for (const form of forms) {
      const field = form.fields.find((candidate) => labelSays(candidate.label, pair.label));
      if (!field) continue;
      sends.push({ at: prompt.indexOf(pair.value), form, typed: [{ field, text: pair.value }] });
      break;
    }
  }
  // "log groceries for 150": what it is into the form's text box, the amount into its amount box.
  for (const entry of values.entries) {
    const place = forms.map((form) => entryFields(form)).find((fields) => fields !== null);
    if (!place) continue;
    sends.push({ at: prompt.indexOf(entry.text), form: place.form, typed: [{ field: place.text, text: entry.text }, { field: place.amount, text: entry.amount }] });
  }
  if (sends.length === 0) return null;
  sends.sort((a, b) => a.at - b.at);
  // What the form cannot be sent without (a required category, a date), when the prompt says nothing of it.
  for (const send of sends) {
    for (const field of send.form.fields) {
      if (!field.required || field.filled || send.typed.some((entry) => entry.field === field)) continue;
      const text = madeUpValue(field, roleOf(field), prompt);
      if (text) send.typed.push({ field, text });
    }
  }
  const steps: PlanStep[] = sends.flatMap(({ form, typed }): PlanStep[] => [
    ...typed
      .sort((a, b) => form.fields.indexOf(a.field) - form.fields.indexOf(b.field))
      .map(({ field, text }): PlanStep => ({ action: 'type', target: targetOf(field), text, label: `Type "${text}" into "${field.label}"` })),
    { action: 'click', target: targetOf(form.submit!), label: `Press "${form.submit!.label}"` },
    { action: 'pause', label: 'Let the app answer', holdMs: ANSWER_MS },
  ]);
  // What the forms changed is often beside them, not in them (a budget's balance, the list of expenses): the camera
  // goes back to the part of the page that holds the forms, and holds there.
  const used = new Set(sends.map((send) => send.form));
  const part = sectionsInOrder(outline).find((section) => [...used].every((form) => within(form.rect, section.rect)));
  if (part) steps.push({ action: 'focus', sectionId: part.id, label: "Show the app's answer" });
  steps.push({ action: 'pause', label: "Hold on the app's answer", holdMs: HOLD_MS });
  return { steps, shown: sends.flatMap((send) => send.typed.map((entry) => entry.text)) };
}

/** A form only the page's script can use: a button, sent by GET to no address of its own, fields without names. */
export function sentByScript(form: OutlineForm, outline: PageOutline): boolean {
  if (!form.submit || form.opener || form.method !== 'get' || form.fields.length === 0) return false;
  if (form.action && !samePage(form.action, outline.url)) return false;
  return form.fields.every((field) => !field.name);
}

function within(inner: { x: number; y: number; width: number; height: number }, outer: { x: number; y: number; width: number; height: number }): boolean {
  return inner.y >= outer.y - 4 && inner.y + inner.height <= outer.y + outer.height + 4;
}

function samePage(action: string, url: string): boolean {
  try {
    const a = new URL(action, url);
    const b = new URL(url);
    return a.origin === b.origin && a.pathname === b.pathname;
  } catch {
    return false;
  }
}

/** An entry's boxes: one for the amount (a number box, or one labelled amount, price, cost …) and a text box beside it. */
function entryFields(form: OutlineForm): { form: OutlineForm; text: OutlineField; amount: OutlineField } | null {
  const amount = form.fields.find((field) => field.type === 'number' || /\b(?:amount|price|cost|value|sum|total)\b/i.test(field.label));
  if (!amount) return null;
  const text = form.fields.find((field) => field !== amount && /^(?:text|textarea|)$/i.test(field.type) && ['text', 'title', 'message', 'name', 'other'].includes(roleOf(field)));
  return text ? { form, text, amount } : null;
}
