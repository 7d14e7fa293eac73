import type { OutlineAction, OutlineField, PageOutline, PlanStep, Target } from '../types.js';
import type { AppActions } from './app-actions.js';
import { targetOf } from './form-fill.js';

/**
 * Issue 56: a board app's cards and columns, each with its own box or button ("Make a Groceries card with oat milk
 * and lemons on it", "Add two cards, This week and Next week, then put "book flights" under Next week", "Put two new
 * cards in To Do: "Book the venue" and "Send invitations"", "remove the Done column, then add … to To Do"). A card
 * made on camera gets its own box only once it exists; a column's "+ Add" opens a form inside it only when pressed.
 * Both are found when the recording gets there, inside the container that shows the name (record/steps.ts reads
 * `in:<name>|field`, `in:<name>|text:<words>` and `in:<name>|submit`).
 */
const NOUN = String.raw`(?:cards?|columns?|lists?|boards?|lanes?|buckets?|stages?|groups?)`;
// The prompt's own small words, as written at a sentence's start too (the names are told apart by their capitals).
const COUNT = String.raw`(?:[Aa]|[Aa]n|[Oo]ne|[Tt]wo|[Tt]hree|[Ff]our|[Ff]ive|\d+)`;
// A name as the prompt writes it: capitalised, up to four words, not running on into the next words of the sentence.
const NAME = String.raw`\p{Lu}[\p{L}\d'’&-]*(?:\s+(?!(?:and|then|with|to|under|in|into|on|of|for|the)\b|${NOUN}\b)[\p{L}\d'’&-]+){0,3}`;
const QUOTED = String.raw`["“][^"”]{1,80}["”]`;

/** "Make a Groceries card with …", "Add a Chores card", "Add two cards, This week and Next week" */
const CREATE = new RegExp(
  String.raw`\b(?:[Mm]ake|[Aa]dd|[Cc]reate|[Ss]tart|[Ss]et up)\s+${COUNT}\s+(?:new\s+)?(?:(${NAME})\s+)?(${NOUN})(?:\s*,\s*|\s*:\s*|\s+(?:called|named|titled)\s+)?((?:${NAME}|${QUOTED})(?:\s*(?:,|and)\s*(?:${NAME}|${QUOTED}))*)?`,
  'gu',
);
/** What goes on a card just made: "with oat milk, rye bread and lemons on it" */
const WITH = /^\s+with\s+(.+?)(?:\s+(?:on|in)\s+it)?(?=\s*(?:,\s*)?(?:then|and then)\b|[.;]|$)/iu;
/** "put "call the landlord" under This week", "Add "Fix login bug" to the Working column", "and "Release v2.1" to Done" */
const PUT = new RegExp(String.raw`(${QUOTED}(?:\s*(?:,|and)\s*${QUOTED})*)\s+(?:under|in|into|to|on(?:to)?)\s+(?:the\s+)?(${NAME})(?:\s+${NOUN})?(?=\s*(?:,|\band\b|\bthen\b|[.;:]|$))`, 'gu');
/** "Put two new cards in To Do: "Book the venue" and "Send invitations"" */
const PUT_COLON = new RegExp(String.raw`\b(?:[Pp]ut|[Aa]dd|[Pp]lace)\s+(?:${COUNT}\s+)?(?:new\s+)?(?:cards?|items?|tasks?|notes?)\s+(?:in|into|to|under|on)\s+(?:the\s+)?(${NAME})(?:\s+${NOUN})?\s*:\s*(${QUOTED}(?:\s*(?:,|and)\s*${QUOTED})*)`, 'gu');
/** "remove it" (the column named before), "delete the Done column" */
const REMOVE = new RegExp(String.raw`\b(?:[Rr]emove|[Dd]elete|[Dd]rop|[Gg]et rid of)\s+(?:it|the\s+(${NAME})\s+${NOUN}|(${NAME})\s+${NOUN})`, 'gu');
const NAMED_CONTAINER = new RegExp(String.raw`\bthe\s+(${NAME})\s+${NOUN}`, 'u');
const CHECK = /\b(?:tick(?:s|ing)?|check(?:s|ing)?|mark(?:s|ing)?|cross(?:es|ing)?)\s+(?:off\s+)?(?:the\s+)?(.+?)(?:\s+(?:off|as (?:done|complete|completed|finished)))?(?=\s*(?:,|\bthen\b|\band\b|[.;]|$))/giu;

/** A held finished board, long enough to read (as app-actions' list). */
const BOARD_HOLD_MS = 5_000;

export function containerActions(prompt: string, outline: PageOutline): AppActions | null {
  const found: Array<{ at: number; steps: PlanStep[] }> = [];
  const shown: string[] = [];
  const items: string[] = [];
  // A column's own "+ Add …" button, one in each (a board whose containers exist already).
  const addButton = perContainerAdd(outline);
  const put = (at: number, name: string, texts: string[]) => {
    items.push(...texts);
    shown.push(...texts);
    found.push({ at, steps: texts.flatMap((text) => addInto(name, text, addButton, outline)) });
  };

  for (const match of prompt.matchAll(CREATE)) {
    // The box that makes one of what the prompt says ("Add Card...", not "Add Board...").
    const kind = match[2]!.toLowerCase().replace(/s$/, '');
    const createBox = boxFor(outline, new RegExp(`\\b(?:add|new|create)\\b.*\\b${kind}s?\\b`, 'i'));
    if (!createBox) continue;
    const names = match[1] ? [match[1]] : split(match[3] ?? '');
    if (names.length === 0) continue;
    const steps = names.map((name): PlanStep => ({ action: 'type', target: targetOf(createBox), text: `${name}\n`, label: `Add the ${match[2]!.replace(/s$/, '')} "${name}"` }));
    shown.push(...names);
    found.push({ at: match.index!, steps });
    const withItems = WITH.exec(prompt.slice(match.index! + match[0].length))?.[1];
    if (withItems && names.length === 1) put(match.index! + match[0].length, names[0]!, split(withItems));
  }
  for (const match of prompt.matchAll(PUT_COLON)) put(match.index!, match[1]!, split(match[2]!));
  for (const match of prompt.matchAll(PUT)) {
    if ([...prompt.matchAll(PUT_COLON)].some((colon) => colon.index! <= match.index! && match.index! < colon.index! + colon[0].length)) continue;
    put(match.index!, match[2]!, split(match[1]!));
  }
  for (const match of prompt.matchAll(REMOVE)) {
    const name = match[1] ?? match[2] ?? NAMED_CONTAINER.exec(prompt.slice(0, match.index!))?.[1];
    const control = name ? outline.actions.find((action) => /\b(?:remove|delete)\b/i.test(action.label) && action.label.toLowerCase().includes(name.toLowerCase())) : undefined;
    if (control) found.push({ at: match.index!, steps: [{ action: 'click', target: targetOf(control), label: `Press "${control.label}"` }] });
  }
  // Only a board: a prompt of plain items ("add milk and eggs") is the list app's (app-actions.ts).
  if (found.length === 0) return null;
  for (const match of prompt.matchAll(CHECK)) {
    const words = match[1]!.toLowerCase();
    const item = items.find((text) => words.includes(text.toLowerCase()) || text.toLowerCase().split(/\s+/).some((word) => word.length > 3 && words.split(/\s+/).includes(word)));
    if (item) found.push({ at: match.index!, steps: [{ action: 'click', target: { label: item, selector: `check:${item}`, fallbackSelectors: [], rect: anywhere(outline) }, label: `Tick off "${item}"` }] });
  }
  found.sort((a, b) => a.at - b.at);
  const steps = found.flatMap((entry) => entry.steps);
  steps.push({ action: 'pause', label: 'Hold on the board', holdMs: BOARD_HOLD_MS });
  return { steps, shown };
}

/** "oat milk, rye bread and lemons", "“A” and “B”", "This week and Next week" → each; quotes taken off. */
function split(text: string): string[] {
  const quoted = [...text.matchAll(/["“]([^"”]{1,80})["”]/gu)].map((m) => m[1]!.trim());
  if (quoted.length > 0) return quoted;
  return text.split(/\s*(?:,|\band\b)\s*/u).map((part) => part.trim()).filter((part) => part.length > 0 && part.length <= 80);
}

/** An item into a container: its own box, or its "+ Add" button, the box it opens and the form's button. */
function addInto(name: string, text: string, addButton: OutlineAction | null, outline: PageOutline): PlanStep[] {
  const at = anywhere(outline);
  const inside = (what: string, label: string): Target => ({ label, selector: `in:${name}|${what}`, fallbackSelectors: [], rect: at });
  if (!addButton) return [{ action: 'type', target: inside('field', `${name}'s box`), text: `${text}\n`, label: `Add "${text}" to ${name}` }];
  return [
    { action: 'click', target: inside(`text:${addButton.label}`, addButton.label), label: `Press "${addButton.label}" in ${name}` },
    { action: 'pause', label: 'Let the box open', holdMs: 400 },
    { action: 'type', target: inside('field', `${name}'s new card`), text, label: `Type "${text}" in ${name}` },
    { action: 'click', target: inside('submit', 'Submit'), label: `Add "${text}" to ${name}` },
  ];
}

/** The box that makes a container ("Add Card...", "New list"), by its label. */
function boxFor(outline: PageOutline, words: RegExp): OutlineField | null {
  return outline.forms.filter((form) => !form.opener).flatMap((form) => form.fields).find((field) => /^(?:text|)$/i.test(field.type) && words.test(`${field.label} ${field.name ?? ''}`)) ?? null;
}

/** A button that says "add" and is repeated, one per column: each column's own. */
function perContainerAdd(outline: PageOutline): OutlineAction | null {
  const adds = [...outline.actions, ...outline.navigation].filter((action) => /^\W*(?:\+\s*)?add\b/i.test(action.label.trim()));
  const label = adds.find((action) => adds.filter((other) => other.label === action.label).length >= 2)?.label;
  return label ? adds.find((action) => action.label === label)! : null;
}

/** Where a target made on camera will be is unknown when planned: the middle of the first screen. */
function anywhere(outline: PageOutline) {
  return { x: outline.viewport.width / 2 - 100, y: outline.viewport.height / 2, width: 200, height: 40 };
}
