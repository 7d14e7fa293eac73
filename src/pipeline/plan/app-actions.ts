import type { OutlineField, PageOutline, PlanStep, Target } from '../types.js';

/**
 * Issue 56: what a prompt asks a small app to do, in order: "add three tasks: buy milk, walk the dog and call mum,
 * tick off the first one, then clear the finished ones". Items are typed into the app's text box, each followed by
 * Enter; an item is ticked by the checkbox of the row that shows it, and a button by its words. Rows and buttons
 * that appear only once the app has items are found when the recording gets there (record/steps.ts reads the
 * `check:` and `text:` targets).
 *
 * Only a prompt that adds something is read this way: "check the pricing" alone is not an app action.
 */
export interface AppActions {
  steps: PlanStep[];
  /** the items typed, which the video shows in the list */
  shown: string[];
}

const NOUNS = '(?:tasks?|items?|todos?|to-dos?|entries|notes?|things?|cards?|reminders?|errands?|chores?)';
const ADD = new RegExp(
  String.raw`\b(?:add(?:s|ing)?|creat(?:e|es|ing)|enter(?:s|ing)?|put(?:s|ting)? in)\s+(?:(?:a|an|one|two|three|four|five|six|\d+)\s+)?(?:new\s+)?` + NOUNS +
    String.raw`\s*(?::|called|named|like|such as|for)?\s*([^.;]+?)(?=\s*(?:,\s*)?(?:then|and then|after that|next|before)\b|,\s*(?:tick|check|mark|complete|cross|finish|clear|remove|delete)|[.;]|$)`,
  'giu',
);
const ADD_QUOTED = /\badd(?:s|ing)?\s+(["“'‘][^"”'’]{1,80}["”'’](?:\s*(?:,|and)\s*["“'‘][^"”'’]{1,80}["”'’])*)/giu;
const CHECK = /\b(?:tick(?:s|ing)?|check(?:s|ing)?|mark(?:s|ing)?|complet(?:e|es|ing)|cross(?:es|ing)?|finish(?:es|ing)?)\s+(?:off\s+)?(.+?)(?:\s+(?:off|as (?:done|complete|completed|finished|read)))?(?=\s*(?:,|\bthen\b|\band\b|[.;]|$))/giu;
const CLEAR = /\b(?:clear(?:s|ing)?|remov(?:e|es|ing)|delet(?:e|es|ing))\s+(?:all\s+)?(?:of\s+)?(?:the\s+)?(?:finished|completed|done|checked|ticked)\b[^,.;]*/giu;
// "edit it to read "send the March invoice"", "rename the first one to "…"": an item's new words, always quoted (an
// unquoted "change it to done" is a tick, not new words).
const EDIT = /\b(?:edit(?:s|ing)?|renam(?:e|es|ing)|chang(?:e|es|ing)|updat(?:e|es|ing)|correct(?:s|ing)?|reword(?:s|ing)?)\s+(.{1,80}?)\s+(?:to read|to say|so (?:that )?it reads|to|into|as)\s+["“'‘]([^"”'’]{1,80})["”'’]/giu;
// "one" last: "the second one" is the second.
const ORDINALS: Array<[string, number]> = [['first', 0], ['second', 1], ['third', 2], ['fourth', 3], ['fifth', 4], ['one', 0]];

/**
 * A held finished list, long enough to read: ≥ 3 s once the last change has settled, besides the last ~1.4 s in which
 * the camera goes back to the whole window and the window leaves (camera.ts: OVERVIEW_TAIL_MS, the outro).
 */
const LIST_HOLD_MS = 4_400;

export function appActions(prompt: string, outline: PageOutline): AppActions | null {
  const box = textBox(outline);
  if (!box) return null;
  type Found = { at: number; step: (items: string[]) => PlanStep[] };
  const found: Found[] = [];
  const items: string[] = [];
  for (const match of prompt.matchAll(ADD_QUOTED)) {
    const added = [...match[1]!.matchAll(/["“'‘]([^"”'’]{1,80})["”'’]/gu)].map((m) => m[1]!.trim());
    items.push(...added);
    found.push({ at: match.index!, step: () => added.map((item) => typeItem(box, item)) });
  }
  if (found.length === 0) {
    for (const match of prompt.matchAll(ADD)) {
      const added = listItems(match[1]!);
      if (added.length === 0) continue;
      items.push(...added);
      found.push({ at: match.index!, step: () => added.map((item) => typeItem(box, item)) });
    }
  }
  if (items.length === 0) return null;
  const shown = [...items];
  for (const match of prompt.matchAll(CHECK)) {
    // "mark everything as done", "tick them all off": each item in turn.
    const all = /\b(?:everything|all|every (?:one|task|item)|each|them)\b/i.test(match[1]!);
    const named = all ? [...items] : [itemNamed(match[1]!, items)].filter((item): item is string => item !== null);
    if (named.length > 0) found.push({ at: match.index!, step: () => named.map((item) => clickTarget(`check:${item}`, item, box, items.indexOf(item), `Tick off "${item}"`)) });
  }
  for (const match of prompt.matchAll(EDIT)) {
    const added = items.filter((item) => prompt.indexOf(item) < match.index!);
    const item = /^(?:it|this|that|this one|that one|the task|the item|the entry)$/i.test(match[1]!.trim()) ? (added.at(-1) ?? null) : itemNamed(match[1]!, items);
    if (!item) continue;
    const words = match[2]!.trim();
    found.push({ at: match.index!, step: () => [editItem(box, item, words, items.indexOf(item))] });
    shown[items.indexOf(item)] = words;
  }
  for (const match of prompt.matchAll(CLEAR)) {
    found.push({ at: match.index!, step: () => [clickTarget('text:clear', 'Clear completed', box, items.length, 'Clear the finished ones')] });
  }
  found.sort((a, b) => a.at - b.at);
  const steps = found.flatMap((entry) => entry.step(items));
  steps.push({ action: 'pause', label: 'Hold on the list', holdMs: LIST_HOLD_MS });
  return { steps, shown };
}

/** The app's text box: the widest plain text input that is not an e-mail, password or search. */
function textBox(outline: PageOutline): OutlineField | null {
  const boxes = outline.forms
    .flatMap((form) => form.fields)
    .filter((field) => /^(?:text|textarea|)$/i.test(field.type) && !/e-?mail|password|search|user ?name/i.test(`${field.label} ${field.name ?? ''}`));
  return boxes.sort((a, b) => b.rect.width - a.rect.width)[0] ?? null;
}

/** "buy milk, walk the dog and call mum" → three items; quotes taken off. */
function listItems(text: string): string[] {
  return text
    .split(/\s*(?:,|;|\band\b)\s*/u)
    .map((item) => item.trim().replace(/^["“'‘]|["”'’]$/gu, '').trim())
    .filter((item) => item.length > 0 && item.length <= 80);
}

/** "the first one", "'walk the dog'", "the milk one": which of the items added. */
function itemNamed(phrase: string, items: string[]): string | null {
  const text = phrase.toLowerCase().replace(/["“”'‘’]/g, '').trim();
  const exact = items.find((item) => text.includes(item.toLowerCase()));
  if (exact) return exact;
  if (/\blast\b/.test(text)) return items.at(-1) ?? null;
  for (const [word, index] of ORDINALS) if (new RegExp(`\\b${word}\\b`).test(text)) return items[index] ?? null;
  const words = text.split(/\W+/).filter((word) => word.length > 2);
  return items.find((item) => words.some((word) => item.toLowerCase().split(/\W+/).includes(word))) ?? null;
}

function typeItem(box: OutlineField, item: string): PlanStep {
  return { action: 'type', target: targetOf(box), text: `${item}\n`, label: `Add "${item}"` };
}

/** The item's words, double-clicked and typed over (record/steps.ts: `edit:` targets); Enter keeps the change. */
function editItem(box: OutlineField, item: string, words: string, row: number): PlanStep {
  const rect = { x: box.rect.x + 48, y: box.rect.y + box.rect.height + 12 + row * 56, width: Math.min(240, box.rect.width), height: 40 };
  return { action: 'type', target: { label: item, selector: `edit:${item}`, fallbackSelectors: [], rect }, text: `${words}\n`, label: `Edit "${item}" to read "${words}"` };
}

/** A row or a button that will exist once items are added: planned just below the box, found by its words. */
function clickTarget(selector: string, label: string, box: OutlineField, row: number, stepLabel: string): PlanStep {
  const rect = { x: box.rect.x, y: box.rect.y + box.rect.height + 12 + row * 56, width: Math.min(40, box.rect.width), height: 40 };
  const target: Target = { label, selector, fallbackSelectors: [], rect };
  return { action: 'click', target, label: stepLabel };
}

function targetOf(field: OutlineField): Target {
  return { label: field.label, selector: field.selector, fallbackSelectors: field.fallbackSelectors, rect: field.rect };
}
