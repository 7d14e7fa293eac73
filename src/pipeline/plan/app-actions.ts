import type { OutlineField, OutlineForm, PageOutline, PlanStep, Target } from '../types.js';
import { containerActions } from './container-actions.js';
import { isWhenRole, roleOf, targetOf, whenValueFor } from './form-fill.js';
import { type When, whenOf, withoutWhen } from './when.js';

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
  String.raw`\b(?:add(?:s|ing)?|creat(?:e|es|ing)|enter(?:s|ing)?|put(?:s|ting)? in|jot(?:s|ting)? down|sav(?:e|es|ing)|writ(?:e|es|ing) down)\s+(?:(?:a|an|one|two|three|four|five|six|\d+)\s+)?(?:new\s+)?` + NOUNS +
    String.raw`\s*(?::|called|named|like|such as|for)?\s*([^.;]+?)(?=\s*(?:,\s*)?(?:then|and then|after that|next|before)\b|,\s*(?:tick|check|mark|complete|cross|finish|clear|remove|delete)|[.;]|$)`,
  'giu',
);
const ADD_QUOTED = /\b(?:add(?:s|ing)?|put(?:s|ting)?|schedul(?:e|es|ing)|remind (?:me|us) (?:to|about)|(?:writ(?:e|es|ing)|jot(?:s|ting)?|note(?:s)?) down)\s+(["“'‘][^"”'’]{1,80}["”'’](?:\s*(?:,|and)\s*["“'‘][^"”'’]{1,80}["”'’])*)/giu;
const CHECK = /\b(?:tick(?:s|ing)?|check(?:s|ing)?|mark(?:s|ing)?|complet(?:e|es|ing)|cross(?:es|ing)?|finish(?:es|ing)?)\s+(?:off\s+)?(.+?)(?:\s+(?:off|as (?:done|complete|completed|finished|read)))?(?=\s*(?:,|\bthen\b|\band\b|[.;]|$))/giu;
// "remind me to pay the water bill at 09:30 on 14 December": one item, its time and date said with it.
const REMIND = /\bremind(?:s|ing)?\s+(?:me|us|them)\s+(?:to|about)\s+([^.;"“]+?)(?=\s*(?:,\s*)?(?:then|and then|after that)\b|[.;]|$)/giu;
const CLEAR = /\b(?:clear(?:s|ing)?|remov(?:e|es|ing)|delet(?:e|es|ing))\s+(?:all\s+)?(?:of\s+)?(?:the\s+)?(?:finished|completed|done|checked|ticked)\b[^,.;]*/giu;
// "edit it to read "send the March invoice"", "rename the first one to "…"": an item's new words, always quoted (an
// unquoted "change it to done" is a tick, not new words).
const EDIT = /\b(?:edit(?:s|ing)?|renam(?:e|es|ing)|chang(?:e|es|ing)|updat(?:e|es|ing)|correct(?:s|ing)?|reword(?:s|ing)?)\s+(.{1,80}?)\s+(?:to read|to say|so (?:that )?it reads|to|into|as)\s+["“'‘]([^"”'’]{1,80})["”'’]/giu;
// "put oat milk and eggs on my shopping list", "add both to the list": what goes on a list, said with the list. Not a
// cart or a basket: a shop's product is added by its button, never typed.
const TO_LIST = /\b(?:add(?:s|ing)?|put(?:s|ting)?|pop|stick|jot(?:s|ting)?(?: down)?|writ(?:e|es|ing)(?: down)?)\s+(.{1,160}?)\s+(?:on|to|onto|in|into)\s+(?:my|the|our|this|your|a)\s+(?:[\w-]+\s+){0,2}?(?:list|to-?do(?:s| list)?|checklist|planner)\b/giu;
// "Add bananas, coffee beans and dish soap, then …": items named straight after the verb, read so only in an app
// whose own words invite adding (invitesAdding); an article after the verb ("add a new integration") is a thing to
// show, not an item.
const BARE_ADD = /\b(?:add(?:s|ing)?|enter(?:s|ing)?)\s+(?!(?:a|an|the|some|new|it|them|this|that|these|those|both|my|our|your)\b)(.{1,160}?)(?=\s*(?:,\s*)?(?:then|and then|after that|before)\b|[.;!?]|$)/giu;
// "add both", "put them on the list": the items of the sentence before ("I'm out of AA batteries and light bulbs").
const BACK_REFERENCE = /^(?:both(?: of them)?|them(?: both| all)?|all of them|these|those|all (?:two|three|four|five|\d+)(?: of them)?|the (?:two|three|four|five|\d+) of them)$/iu;
const WANTING = /\b(?:out of|ran out of|run out of|low on|need(?:s)?(?: to (?:buy|get|do))?|buy|get|grab|pick up|want|have to|must)\s+/giu;
// "one" last: "the second one" is the second.
const ORDINALS: Array<[string, number]> = [['first', 0], ['second', 1], ['third', 2], ['fourth', 3], ['fifth', 4], ['one', 0]];

/**
 * A held finished list, long enough to read: ≥ 3 s once the last change has settled, besides the last ~1.4 s in which
 * the camera goes back to the whole window and the window leaves (camera.ts: OVERVIEW_TAIL_MS, the outro).
 */
const LIST_HOLD_MS = 4_400;

export function appActions(prompt: string, outline: PageOutline): AppActions | null {
  // A board's cards and columns, each with a box or a button of its own (container-actions.ts).
  const board = containerActions(prompt, outline);
  if (board) return board;
  const box = textBox(outline);
  if (!box) return null;
  const paired = pairedActions(prompt, outline, box);
  if (paired) return paired;
  type Found = { at: number; step: (items: string[]) => PlanStep[] };
  const found: Found[] = [];
  const items: string[] = [];
  const whens: Array<When | null> = [];
  const adding = (at: number, added: Array<{ text: string; when: When | null }>) => {
    items.push(...added.map((item) => item.text));
    whens.push(...added.map((item) => item.when));
    found.push({ at, step: () => added.map((item) => items.indexOf(item.text)).flatMap((index) => addItem(box, outline, items[index]!, whens[index] ?? null)) });
  };
  for (const match of prompt.matchAll(ADD_QUOTED)) {
    const added = [...match[1]!.matchAll(/["“'‘]([^"”'’]{1,80})["”'’]/gu)].map((m) => ({ text: m[1]!.trim(), when: null }));
    adding(match.index!, added);
  }
  if (found.length === 0) {
    for (const match of prompt.matchAll(REMIND)) {
      const text = withoutWhen(match[1]!);
      if (text) adding(match.index!, [{ text, when: whenOf(match[1]!) }]);
    }
  }
  if (found.length === 0) {
    for (const match of prompt.matchAll(ADD)) {
      const added = listItems(match[1]!);
      if (added.length > 0) adding(match.index!, added);
    }
  }
  if (found.length === 0) {
    for (const match of prompt.matchAll(TO_LIST)) {
      const added = listItems(antecedent(match[1]!, prompt.slice(0, match.index)));
      if (added.length > 0) adding(match.index!, added);
    }
  }
  if (found.length === 0 && invitesAdding(box, outline)) {
    for (const match of prompt.matchAll(BARE_ADD)) {
      const added = listItems(match[1]!);
      if (added.length > 0) adding(match.index!, added);
    }
  }
  if (items.length === 0) return null;
  // A time and date said once for the prompt ("… on the list for 5:45 pm on 30 June") go with each item said without one.
  if (!whens.some((when) => when !== null)) whens.fill(whenOf(prompt));
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
  // An item added by a form's button lands where the app puts it, often above the form (the camera was on the
  // button): a second more to find it and read it.
  const byButton = steps.some((step) => step.action === 'click' && step.label.startsWith('Press '));
  steps.push({ action: 'pause', label: 'Hold on the list', holdMs: LIST_HOLD_MS + (byButton ? 1_200 : 0) });
  return { steps, shown };
}

/**
 * A notes app's form: a title and a text, and a button ("jot down two notes: Passport, forms are in the blue folder;
 * Gym, cancel the membership before June", "add a note Plumber with the text …, then a note Bins saying …"). Each
 * note's title and text are typed into their boxes and the button pressed, note after note.
 */
const PAIR_ADD = new RegExp(
  String.raw`\b(?:add(?:s|ing)?|creat(?:e|es|ing)|enter(?:s|ing)?|jot(?:s|ting)? down|sav(?:e|es|ing)|writ(?:e|es|ing) down)\s+(?:(?:a|an|one|two|three|four|five|\d+)\s+)?(?:new\s+)?` + NOUNS +
    String.raw`\s*:?\s*(.+?)(?=(?:,\s*)?(?:and\s+)?(?:then\s+)?\b(?:delete|remove|tick|check|mark|clear|edit)\b|$)`,
  'isu',
);
// "…; …", "…, then add a note …", and "… and Gym with …": an "and" before a capital or a quotation, outside quotes.
const NEXT_NOTE = new RegExp(
  String.raw`\s*;\s*|\s*,?\s*(?:and\s+)?then\s+(?:add\s+)?(?:a|an|another)\s+(?:new\s+)?` + NOUNS + String.raw`\s*|\s*,?\s+and\s+(?=[\p{Lu}"“])(?=[^"“”]*(?:["“][^"“”]*["”][^"“”]*)*$)`,
  'iu',
);
/** "…, and delete the plumber one", "then remove the Gym note" */
const DELETE_NOTE = /\b(?:delete|remove)\s+(.{2,60}?)(?=\s*(?:,|\bthen\b|[.;]|$))/iu;
const TITLE_AND_TEXT = /^(.{1,60}?)(?:\s*[,:]\s*|\s+(?:with the (?:text|body|note)|saying|that says|which says|reading)\s+|\s+with\s+(?=["“'‘]))(.{2,200})$/iu;

function pairedActions(prompt: string, outline: PageOutline, box: OutlineField): AppActions | null {
  const form = outline.forms.find((candidate) => candidate.fields.includes(box));
  if (!form?.submit) return null;
  const roles = form.fields.map((field) => ({ field, role: roleOf(field) }));
  const title = roles.find((entry) => entry.role === 'title')?.field;
  const text = roles.find((entry) => entry.field !== title && (entry.role === 'message' || entry.field.type === 'textarea'))?.field;
  if (!title || !text) return null;
  const added = PAIR_ADD.exec(prompt);
  const segment = added?.[1];
  if (!segment) return null;
  // What comes after the notes: an edit or a tick is the general planner's, which does them; a note deleted is
  // deleted here, by the Delete of the note that shows its title ("…, and delete the plumber one").
  const after = prompt.slice(added.index + added[0].length);
  if (/\b(?:tick|check|mark|clear|edit)\b/i.test(after)) return null;
  const unquote = (words: string) => words.trim().replace(/^["“'‘]|["”'’]$/gu, '').trim();
  const notes = segment
    .split(NEXT_NOTE)
    .map((part) => TITLE_AND_TEXT.exec(part.trim().replace(/^(?:a|an|another)\s+(?:new\s+)?\w+\s+/i, '').replace(/^(?:titled|entitled|called|named|headed)\s+/i, '').replace(/[,.]+$/, '')))
    .flatMap((match) => (match ? [{ title: unquote(match[1]!), text: unquote(match[2]!) }] : []));
  if (notes.length === 0) return null;
  const steps: PlanStep[] = notes.flatMap((note): PlanStep[] => [
    { action: 'type', target: targetOf(title), text: note.title, label: `Type "${note.title}"` },
    { action: 'type', target: targetOf(text), text: note.text, label: `Type "${note.text}"` },
    { action: 'click', target: targetOf(form.submit!), label: `Press "${form.submit!.label}"` },
  ]);
  const deleted = DELETE_NOTE.exec(after)?.[1];
  const gone = deleted ? itemNamed(deleted, notes.map((note) => note.title)) : null;
  if (gone) steps.push({ action: 'click', target: { label: `Delete "${gone}"`, selector: `in:${gone}|text:delete`, fallbackSelectors: [], rect: form.rect }, label: `Delete the note "${gone}"` });
  steps.push({ action: 'pause', label: 'Hold on the list', holdMs: LIST_HOLD_MS + 1_200 });
  return { steps, shown: notes.filter((note) => note.title !== gone).flatMap((note) => [note.title, note.text]) };
}

/** The words a back reference stands for ("both" → "AA batteries and light bulbs"), or the words themselves. */
function antecedent(words: string, before: string): string {
  if (!BACK_REFERENCE.test(words.trim())) return words;
  const sentence = before.split(/[.!?;]/u).map((part) => part.trim()).filter(Boolean).at(-1) ?? '';
  const wants = [...sentence.matchAll(WANTING)].at(-1);
  return wants ? sentence.slice(wants.index! + wants[0].length) : '';
}

/** Whether the app's box or its button says it adds things ("Enter item", "Add item", "New task"). */
function invitesAdding(box: OutlineField, outline: PageOutline): boolean {
  const form = outline.forms.find((candidate) => candidate.fields.includes(box));
  return /\b(?:add|new|items?|tasks?|to-?dos?|entry|entries)\b/iu.test(`${box.label} ${form?.submit?.label ?? ''}`);
}

/** The app's text box: the widest plain text input that is not an e-mail, password or search. */
function textBox(outline: PageOutline): OutlineField | null {
  const boxes = outline.forms
    .filter((form) => !form.opener)
    .flatMap((form) => form.fields)
    .filter((field) => /^(?:text|textarea|)$/i.test(field.type) && !/e-?mail|password|search|user ?name/i.test(`${field.label} ${field.name ?? ''}`));
  return boxes.sort((a, b) => b.rect.width - a.rect.width)[0] ?? null;
}

/**
 * "buy milk, walk the dog and call mum" → three items; quotes taken off. A time or date goes with the item it is said
 * with: "Book flights, due 18:00 on 3 March, and Pack bags" → "Book flights" (18:00, 3 March) and "Pack bags".
 */
function listItems(text: string): Array<{ text: string; when: When | null }> {
  const items: Array<{ text: string; when: When | null }> = [];
  for (const part of text.split(/\s*(?:,|;|\band\b)\s*/u)) {
    const words = part.trim().replace(/^["“'‘]|["”'’]$/gu, '').trim();
    if (!words) continue;
    const when = whenOf(words);
    const rest = when ? withoutWhen(words) : words;
    if (!rest && when && items.length > 0) {
      items.at(-1)!.when = { ...items.at(-1)!.when, ...when };
      continue;
    }
    if (rest && rest.length <= 80) items.push({ text: rest, when });
  }
  return items;
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

/**
 * An item added: typed and entered (its button pressed instead where the box is in no <form>); or, where the app's box sits in a form with time and date fields and the item
 * has a time or date (a reminder, a deadline), typed, its time and date set, and the form's button pressed. The
 * button of a form that writes (a POST) is still refused in the page by the submit guard (record/submit-guard.ts);
 * an app that keeps its items in the browser adds it.
 */
function addItem(box: OutlineField, outline: PageOutline, item: string, when: When | null): PlanStep[] {
  const form = outline.forms.find((candidate) => candidate.fields.includes(box));
  const fields = when && form?.submit ? whenFields(form, box, when) : [];
  // A box in no <form> (a dashboard's to-do widget: a box and an "Add" button in a <div>): Enter sends nothing there,
  // only its button's script adds the item.
  if (fields.length === 0 && form?.submit && form.method === undefined) {
    return [
      { action: 'type', target: targetOf(box), text: item, label: `Type "${item}"` },
      { action: 'click', target: targetOf(form.submit), label: `Press "${form.submit.label}"` },
    ];
  }
  if (fields.length === 0 || !form?.submit) return [typeItem(box, item)];
  return [
    { action: 'type', target: targetOf(box), text: item, label: `Type "${item}"` },
    ...fields.map(({ field, value }): PlanStep => ({ action: 'type', target: targetOf(field), text: value, label: `Set "${field.label}" to ${value}` })),
    { action: 'click', target: targetOf(form.submit), label: `Press "${form.submit.label}"` },
  ];
}

function whenFields(form: OutlineForm, box: OutlineField, when: When): Array<{ field: OutlineField; value: string }> {
  return form.fields.flatMap((field) => {
    const role = roleOf(field);
    if (field === box || !isWhenRole(role)) return [];
    const value = whenValueFor(role, when);
    return value === null ? [] : [{ field, value }];
  });
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
