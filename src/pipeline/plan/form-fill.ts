import type { OutlineField, OutlineForm, PageOutline, PlanStep, Target } from '../types.js';
import type { FlowPurpose } from './flow-exit.js';
import type { NamedValues } from './named-values.js';
import { sectionsInOrder } from './outline-query.js';
import { keywords } from './text-match.js';
import { MONTHS, twoDigits, type When } from './when.js';

/**
 * Issue 56: a form filled on camera. The values the prompt names go into the fields that ask for them (by type,
 * name and label); a field the prompt does not name stays empty, unless the form cannot do without it: a password
 * beside a typed user name (typed as the browser's dots), a field the page marks required and left empty. Those get values that are
 * plausible and plainly made up (never a real person's). The flow ends on the filled form with the cursor on its
 * submit control, held long enough to read; it is pressed only when the project allows submitting (`allowSubmit`),
 * as a step that leads on (a `navigate`, followed off camera like a link).
 */
export interface FormFill {
  form: OutlineForm;
  steps: PlanStep[];
  /** the values typed that a viewer should be able to read (not passwords) */
  shown: string[];
  /** the form is sent (a `navigate` to its answer) */
  submits: boolean;
  /** what was sent is a search the prompt asked for: its results are the answer, shown as long as the demo has */
  searches?: boolean;
}

export type Role =
  | 'email' | 'username' | 'password' | 'confirm-password' | 'first-name' | 'last-name' | 'name' | 'phone' | 'company' | 'subject' | 'title' | 'message' | 'search'
  | WhenRole | 'text' | 'other';
/** The fields a time and a date go into (when.ts): hour and minute boxes, day, month and year pickers, a date or time input. */
export type WhenRole = 'hours' | 'minutes' | 'day' | 'month' | 'year' | 'date' | 'time';
const WHEN_ROLES: ReadonlySet<Role> = new Set<Role>(['hours', 'minutes', 'day', 'month', 'year', 'date', 'time']);

export function isWhenRole(role: Role): role is WhenRole {
  return WHEN_ROLES.has(role);
}

const FAKE: Partial<Record<Role, string>> = {
  email: 'alex@example.com',
  username: 'alex@example.com',
  password: 'demo-password',
  'confirm-password': 'demo-password',
  'first-name': 'Alex',
  'last-name': 'Example',
  name: 'Alex Example',
  phone: '+1 555 0100',
  company: 'Example Co.',
  message: 'Hello! Just trying out the form.',
};

/**
 * A plausible value for a field the form cannot go without and the prompt does not fill: a made-up one by its role, the
 * option of a list the prompt says (else its first real choice: an expense's "Category" is then "Food"), and today
 * for a date. A required list left on "Select Category" kept an app's "Add Expense" from adding anything: the browser
 * asked to "select an item in the list" over the form for the rest of the video.
 */
export function madeUpValue(field: OutlineField, role: Role, prompt: string): string | null {
  if (field.options && field.options.length > 0) return optionSaid(field, prompt) ?? field.options.find((option) => !PLACEHOLDER_OPTION.test(option.trim()) && option.trim() !== '') ?? null;
  if (role === 'date') return new Date().toISOString().slice(0, 10);
  return FAKE[role] ?? null;
}

/** What a form's button made (a note, a task) held long enough to read, as an app's list is (app-actions.ts). */
const MADE_HOLD_MS = 5_600;

/** A form behind a tab or a modal's button: long enough for its fade to end before the first field is typed into. */
const OPEN_MS = 600;

/** The least a viewer reads a filled form for, once the last value is in. */
const FILLED_HOLD_MS = 2_600;

/**
 * `goesOn`: the prompt goes on past the form ("log in … and land on the dashboard"): a GET form, which changes
 * nothing on the site (the submit guard lets it through), is then sent, and the flow goes on on the page it answers.
 */
export function fillForm(outline: PageOutline, values: NamedValues, purpose: FlowPurpose | null, options: { allowSubmit: boolean; goesOn?: boolean; creates?: boolean; prompt?: string }): FormFill | null {
  const asked = new Set(keywords(options.prompt ?? '').filter((word) => word.length > 3));
  const ranked = outline.forms
    .map((form) => ({ form, score: formScore(form, values, purpose, outline) + (buttonSaysAsked(form, asked) ? 1 : 0) - (newsletterOnly(form, values, options.prompt ?? '') ? 3 : 0) }))
    .filter((entry) => entry.score > 0)
    .sort((a, b) => b.score - a.score);
  const form = ranked[0]?.form;
  if (!form) return null;

  const typed: Array<{ field: OutlineField; text: string; role: Role }> = [];
  const texts = [...values.texts];
  const used = new Set<string>();
  // Each value the prompt names by a field's label goes into one box (a whole name into a first and a last name box
  // both): "the street address 12 Elm Street" is the "Address", not the "Ship To A Different Address?" below it.
  const placed = new Set<NamedValues['fields'][number]>();
  for (const field of form.fields) {
    // A box to tick takes no words.
    if (/^(?:checkbox|radio|file|range|color|hidden)$/i.test(field.type)) continue;
    const role = roleOf(field);
    // A field the prompt names by its label ("set the job title to …") takes its value before any guess by role.
    const named = values.fields.find((pair) => (!placed.has(pair) || role === 'last-name') && labelSays(field.label, pair.label));
    if (named) placed.add(named);
    // A whole name said for a "Name" field splits into a first and a last name box; a value said for the box itself
    // ("last name Okafor") is the box's whole.
    const [first, ...rest] = (named?.value ?? '').split(/\s+/);
    const splits = named !== undefined && !/\b(?:first|last|given|family|sur)\s?name\b/i.test(named.label);
    let text = !named ? namedFor(role, values, texts) ?? optionSaid(field, options.prompt ?? '') : splits && role === 'first-name' ? first! : splits && role === 'last-name' ? rest.join(' ') || null : named.value;
    // One message, one field: a note's title and its text both read as notes, and the message went into both.
    if (text && !named && used.has(text)) text = role === 'message' || role === 'title' || role === 'text' ? (texts.shift() ?? null) : null;
    if (text) {
      used.add(text);
      typed.push({ field, text, role });
    }
  }
  // A message the form has no box for, in a box of its own just below it (a checkout's "Order notes" under the billing
  // fields, a page with no <form> whose parts the analyser keeps apart): typed there, after the form.
  if (values.message && !used.has(values.message) && !typed.some((entry) => entry.role === 'message')) {
    const bottom = form.rect.y + form.rect.height;
    const box = outline.forms
      .filter((other) => other !== form && other.rect.y >= bottom - 8 && other.rect.y - bottom < outline.viewport.height * 1.2)
      .flatMap((other) => other.fields)
      .find((field) => roleOf(field) === 'message');
    if (box) {
      used.add(values.message);
      typed.push({ field: box, text: values.message, role: 'message' });
    }
  }
  // A mail app's compose form whose body is a rich editor (no box to type in) still has a subject line: "send a note
  // to … about the Q3 budget review" says what the note is about, which is what a subject says.
  if (values.message && !used.has(values.message) && values.message.length <= 80 && !typed.some((entry) => entry.role === 'message' || entry.role === 'subject')) {
    const line = form.fields.find((field) => roleOf(field) === 'subject');
    if (line) {
      used.add(values.message);
      typed.push({ field: line, text: values.message, role: 'subject' });
    }
  }
  // A form none of whose fields takes a value the prompt names is not the form it means (a search box, when the
  // prompt names a person): unless the flow came here for a form (a sign-in, a sign-up, a contact).
  const typedAny = typed.length > 0;
  if (!typedAny && purpose === null) return null;
  // What the form cannot do without: a password beside a typed user name or e-mail, a field marked required. A
  // docs page's sample form ("try the first name box with Jordan") has a password box too: no one signs in there.
  const signsIn = typed.some((entry) => entry.role === 'email' || entry.role === 'username');
  for (const field of form.fields) {
    if (typed.some((entry) => entry.field === field)) continue;
    const role = roleOf(field);
    const needed = (role === 'password' || role === 'confirm-password') ? signsIn || purpose === 'sign-in' || purpose === 'sign-up' : field.required === true;
    const fake = madeUpValue(field, role, options.prompt ?? '');
    // A required box the page already filled in (a profile's saved e-mail) is left as it is.
    if (needed && fake && !field.filled) typed.push({ field, text: fake, role });
  }
  // In the form's order; a box below the form (above) last.
  const order = (field: OutlineField) => (form.fields.includes(field) ? form.fields.indexOf(field) : form.fields.length + field.rect.y);
  typed.sort((a, b) => order(a.field) - order(b.field));
  // What a viewer reads of it: passwords show as dots.
  const shown = typed.filter((entry) => entry.role !== 'password' && entry.role !== 'confirm-password').map((entry) => entry.text);

  const section = sectionsInOrder(outline).find((s) => s.rect.y <= form.rect.y + 4 && s.rect.y + s.rect.height >= form.rect.y + Math.min(form.rect.height, 40));
  const steps: PlanStep[] = [];
  if (section) steps.push({ action: 'focus', sectionId: section.id, label: `Show the form "${form.label}"` });
  // A form behind a tab or a button ("Reviews (3)", "Add Row") is opened first, and given a moment to show.
  if (form.opener) steps.push({ action: 'click', target: targetOf(form.opener), label: `Open "${form.opener.label}"` }, { action: 'pause', label: 'Let the form open', holdMs: OPEN_MS });
  for (const { field, text, role } of typed) {
    steps.push({ action: 'type', target: targetOf(field), text, label: role === 'password' || role === 'confirm-password' ? `Type a password into "${field.label}"` : `Type "${text}" into "${field.label}"` });
  }
  steps.push(...weekdayTicks(form, options.prompt ?? ''));
  // A search the prompt asks for ("look up everything the docs say about sideloading") is sent: a GET changes
  // nothing, and its results are what the prompt wants to see. A box without a button is sent by Enter.
  const searchBox = form.method === 'get' && values.search !== undefined ? typed.find((entry) => entry.role === 'search' && entry.text === values.search)?.field : undefined;
  const searches = searchBox !== undefined;
  const submits = options.allowSubmit || ((options.goesOn === true || searches) && form.method === 'get');
  if (searchBox && !form.submit) {
    steps.push({ action: 'navigate', target: targetOf(searchBox), href: null, label: `Search for "${values.search}"` });
    return { form, steps, submits: true, searches: true, shown };
  }
  // An app's own form that makes something ("save a note titled …", "post a comment"): a GET form changes nothing on
  // the site, and its button is what the prompt is about; pressed in place, and what it made is held.
  // A form in a page's own <dialog> (method "dialog") sends nothing either: pressed when the prompt makes what its
  // opener names ("start tracking a new habit …" behind "+ Habit").
  const inPlace = form.method === 'get' || form.method === 'dialog';
  const creates = options.creates === true || (form.opener !== undefined && options.prompt !== undefined && makesWhatOpens(options.prompt, form.opener.label));
  if (form.submit && !submits && creates && inPlace) {
    steps.push({ action: 'click', target: targetOf(form.submit), label: `Press "${form.submit.label}"` }, { action: 'pause', label: 'Hold on what was made', holdMs: MADE_HOLD_MS });
    return { form, steps, submits: false, shown };
  }
  // A long form's button far below what was typed (a settings page's "Save changes" under a dozen empty fields) is
  // not pointed at: going down to it took the values typed off screen for the whole hold.
  const lastTyped = typed.at(-1)?.field;
  const farBelow = !submits && form.submit !== null && lastTyped !== undefined && form.submit.rect.y - lastTyped.rect.y > outline.viewport.height * 0.45;
  if (form.submit && !farBelow) {
    steps.push(
      submits
        ? { action: 'navigate', target: targetOf(form.submit), href: null, label: `Submit "${form.submit.label}"` }
        : { action: 'hover', target: targetOf(form.submit), label: `Point at "${form.submit.label}"` },
    );
  }
  if (!submits || !form.submit) steps.push({ action: 'pause', label: 'Hold on the filled form', holdMs: FILLED_HOLD_MS });
  return { form, steps, submits: submits && form.submit !== null, ...(searches && form.submit ? { searches: true } : {}), shown };
}

function formScore(form: OutlineForm, values: NamedValues, purpose: FlowPurpose | null, outline: PageOutline): number {
  const roles = form.fields.map(roleOf);
  const has = (role: Role) => roles.includes(role);
  let score = 0.1;
  if (values.email && (has('email') || has('username'))) score += 2;
  if (values.name && (has('name') || has('first-name'))) score += 2;
  if (values.message && has('message')) score += 2;
  if (values.subject && has('subject')) score += 1;
  if (values.search && has('search')) score += 3;
  // "Search the data table for …": the search of the page's own content (a table's filter), not the site's in its
  // header bar, which searches elsewhere and shows no row of the table.
  if (values.search && values.searchIn && has('search') && !inHeaderBar(form, outline)) score += 1;
  if (values.phone && has('phone')) score += 1;
  if (values.company && has('company')) score += 1;
  // A field the prompt names by its label ("order 58213", "the first name box with Jordan") is in the form it means.
  score += 2 * values.fields.filter((pair) => form.fields.some((field) => labelSays(field.label, pair.label))).length;
  if (purpose === 'sign-in') score += has('password') ? (form.fields.length <= 4 ? 4 : 2) : -3;
  if (purpose === 'sign-up') score += has('password') || has('email') ? 2 : 0;
  if (purpose === 'contact') score += has('message') ? 3 : has('email') ? 1 : 0;
  // A lone search box answers only a search.
  if (roles.length === 1 && roles[0] === 'search' && !values.search) score -= 2;
  return score;
}

/**
 * A form whose button does what the prompt asks: "subscribe Tomas Rivera … to the newsletter" fills the form whose
 * button says "Subscribe", not the page's first form that has a name and an e-mail box too.
 */
function buttonSaysAsked(form: OutlineForm, asked: ReadonlySet<string>): boolean {
  return form.submit !== null && keywords(form.submit.label).some((word) => word.length > 3 && !GENERIC_BUTTON.has(word) && asked.has(word));
}

/**
 * A lone e-mail box (a footer's newsletter sign-up) is not where a prompt's name, subject or message goes: "check out as
 * Isabella Moreau: … email isabella.moreau@example.com" or "ask the shop …, I'm Arjun Patel, arjun.patel@…" on a home
 * page typed the address into "Subscribe" (flows blind batch 2026-12-04, cl-vegefoods). Unless the prompt asks for
 * the newsletter.
 */
function newsletterOnly(form: OutlineForm, values: NamedValues, prompt: string): boolean {
  const roles = form.fields.map(roleOf).filter((role) => role !== 'other');
  const asksForIt = /\b(?:newsletter|subscrib\w*|mailing list|updates|news ?letter|sign(?:s|ing)? up|join(?:s|ing)?)\b/i.test(prompt);
  // A name-and-e-mail box (a newsletter's) when the prompt names fields it has no box for ("the billing name Lena
  // Fischer and the street address 12 Elm Street" on a cart page whose only form is the newsletter's).
  const nameAndEmail = roles.length > 0 && roles.every((role) => role === 'email' || role === 'name' || role === 'first-name' || role === 'last-name');
  if (nameAndEmail && values.fields.length > 0 && !values.fields.some((pair) => form.fields.some((field) => labelSays(field.label, pair.label)))) return !asksForIt;
  if (roles.length !== 1 || roles[0] !== 'email') return false;
  const more = Boolean(values.name || values.subject || values.message || values.phone || values.company || values.fields.length > 0);
  return more && !asksForIt;
}

/** A button's words that say nothing of what the form is for. */
const GENERIC_BUTTON = new Set(['submit', 'send', 'save', 'continue', 'next', 'done', 'okay']);

/** A form in the bar across the top of the page (a site search beside the logo). */
function inHeaderBar(form: OutlineForm, outline: PageOutline): boolean {
  const bar = Math.max(outline.stickyHeaderHeight, 100);
  return form.rect.y + form.rect.height <= bar + 4;
}

/** "Password" as other languages' forms say it (a template translated, its type left as text). */
const PASSWORD_WORDS = /\bpassword\b|\bcontrase[nñ]a\b|\bsenha\b|\bmot de passe\b|\bpasswort\b/;

export function roleOf(field: OutlineField): Role {
  const type = field.type.toLowerCase();
  const words = `${field.label} ${field.name ?? ''}`.toLowerCase();
  // A box labelled "Password" is one, whatever its type says (a template's copied type="email"); typed as dots.
  if (type === 'password' || (PASSWORD_WORDS.test(words) && /^(?:text|email|)$/.test(type))) return /confirm|repeat|repetir|again|retype|wiederhol/.test(words) ? 'confirm-password' : 'password';
  // A box labelled "Username" takes the user name, whatever its type says (templates mark it type="email" by copy).
  if (/\buser ?name\b|\b(?:nombre de )?usuario\b|\bbenutzername\b|\bnom d['’]utilisateur\b|\bnome utente\b/.test(words) && !/e-?mail|correo/.test(words)) return 'username';
  // An "Email subject" box is the subject line, not an address.
  if (type !== 'textarea' && type !== 'email' && /\bsubject\b/.test(words)) return 'subject';
  // A mail's "To" box (labelled just "To", or a recipient) takes the address the prompt writes to.
  if (type === 'email' || /e-?mail|\bcorreo\b|\bcourriel\b/.test(words) || /^\s*to\s*:?\s*(?:to)?\s*$|recipient/.test(words)) return 'email';
  if (type === 'search' || /\bsearch\b|\bq\b/.test(words)) return 'search';
  if (type === 'tel' || /phone|mobile|\btel\b|t[eé]l[eé]fon|celular|m[oó]vil|handy/.test(words)) return 'phone';
  const when = whenRoleOf(type, words);
  if (when) return when;
  if (type !== 'textarea' && /subject|topic|\basunto\b|\bassunto\b|\bsujet\b|\bbetreff\b|\boggetto\b/.test(words)) return 'subject';
  if (type !== 'textarea' && /\btitle\b|\bheadline\b/.test(words) && !/job|position/.test(words)) return 'title';
  // "Note Name", "Task name": the name of what is made is its title, not a person's name nor the note's text.
  if (type !== 'textarea' && /\b(?:note|task|item|card|list|post|event|project|board|entry)\s+name\b/.test(words)) return 'title';
  if (type === 'textarea' || /message|comment|note|question|enquiry|inquiry|details|mensaje|mensagem|messaggio|nachricht|comentario|coment[aá]rio|commentaire|consulta/.test(words)) return 'message';
  if (/user ?name|username|login|account/.test(words)) return 'username';
  // "Middle Name / Initial": neither the first nor the whole name.
  if (/\bmiddle\b|\binitials?\b/.test(words)) return 'other';
  // A box labelled "Full Name" takes the whole name, whatever its name attribute says (a template's copied "firstname").
  // So does one whose label asks for both ("Name Surname", "First and last name", "Name & Surname").
  if (/\b(?:full|whole|complete)\s*name\b|\bname\s*(?:[&/,+-]|and)?\s*surname\b|\bfirst\s*(?:[&/+]|and)\s*last\s*names?\b/.test(field.label.toLowerCase())) return 'name';
  if (/first|given|fname|vorname|pr[eé]nom/.test(words)) return 'first-name';
  if (/last|surname|family|lname|apellido|sobrenome|cognome|nachname|\bnom de famille\b/.test(words)) return 'last-name';
  if (/compan|organi[sz]ation|business|\bempresa\b|\bentreprise\b|\bsociet[aà]\b|\bfirma\b|\bunternehmen\b/.test(words)) return 'company';
  // A form in Spanish, Portuguese, Italian or French names the box in its own words ("Nombre Completo", "Nome", "Nom").
  if (/name|\bnombre\b|\bnome\b|\bnom\b/.test(words)) return 'name';
  if (type === 'text' || type === '') return 'text';
  return 'other';
}

/** A time or date field by its type, or by a label that says which part it takes ("Hours (hh)", "Mins", "Month"). */
function whenRoleOf(type: string, words: string): WhenRole | null {
  if (type === 'date') return 'date';
  if (type === 'time') return 'time';
  if (!/^(?:number|text|select|)$/.test(type)) return null;
  if (/\bhours?\b|\bhh\b/.test(words)) return 'hours';
  if (/\bmins?\b|\bminutes?\b/.test(words)) return 'minutes';
  if (/\bmonth\b/.test(words)) return 'month';
  if (/\byears?\b|\byyyy\b/.test(words)) return 'year';
  if (/\bday\b|\bdd\b/.test(words)) return 'day';
  return null;
}

/**
 * What a time or date field takes of a named time and date: "09" for an hour box, "December" for a month picker
 * (record/steps.ts picks the option that says it), "2027-06-30" for a date input. A year is typed only when named,
 * except into a date input, which cannot go without one: the current year then.
 */
export function whenValueFor(role: WhenRole, when: When): string | null {
  switch (role) {
    case 'hours':
      return when.hours === undefined ? null : twoDigits(when.hours);
    case 'minutes':
      return when.minutes === undefined ? null : twoDigits(when.minutes);
    case 'day':
      return when.day === undefined ? null : twoDigits(when.day);
    case 'month':
      return when.month === undefined ? null : MONTHS[when.month - 1]!;
    case 'year':
      return when.year === undefined ? null : String(when.year);
    case 'date':
      return when.day === undefined || when.month === undefined ? null : `${when.year ?? new Date().getFullYear()}-${twoDigits(when.month)}-${twoDigits(when.day)}`;
    case 'time':
      return when.hours === undefined ? null : `${twoDigits(when.hours)}:${twoDigits(when.minutes ?? 0)}`;
  }
}

/**
 * The option of a list the prompt sets it to: "mark that I've started reading it" is "Reading", "set it as high
 * priority" is "High". Only after a word that sets something, a few words before: "on my reading list" chooses no
 * "Reading". A placeholder ("Select…", "--") is no choice.
 */
export function optionSaid(field: OutlineField, prompt: string): string | null {
  if (!field.options || field.options.length < 2) return null;
  const said = field.options.filter((option) => {
    if (PLACEHOLDER_OPTION.test(option) || !/\p{L}{3}/u.test(option)) return false;
    const words = option.toLowerCase().replace(/[^\p{L}\d ]+/gu, ' ').trim().split(/\s+/).join('\\s+');
    return new RegExp(`\\b(?:mark(?:s|ed|ing)?|set|sets|setting|as|status|move|moved|change|changed|switch|put it (?:in|under))\\b(?:\\s+[\\p{L}'’]+){0,5}?\\s+${words}\\b`, 'iu').test(prompt);
  });
  return said.length === 1 ? said[0]! : null;
}

const PLACEHOLDER_OPTION = /^(?:-+|select\b.*|choose\b.*|pick\b.*|please\b.*|none|all|any|\(.*\))$/i;

/** Whether a field's label says the words the prompt named it by: "Job title" for "job title", "Full name" for "name". */
export function labelSays(fieldLabel: string, named: string): boolean {
  const words = (text: string) => text.toLowerCase().replace(/e-mail/g, 'email').replace(/\bpost code\b/g, 'postcode').split(/[^a-z]+/).filter((word) => word.length > 1 && !['the', 'my', 'your', 'of'].includes(word));
  const label = new Set(words(fieldLabel));
  const asked = words(named);
  const says = (word: string) => label.has(word) || (LABEL_SYNONYMS[word] ?? []).some((other) => label.has(other));
  // "the street address 12 Elm Street" goes into a form's "Address", "a discount code" into "Coupon": a qualifier
  // the label may leave unsaid, when the rest is said.
  const needed = asked.filter((word) => !OPTIONAL_QUALIFIERS.has(word) || label.has(word));
  // An "Email Address" is no street address: a label that names another kind of field than the one asked.
  if (needed.length < asked.length && [...label].some((word) => OTHER_KINDS.has(word) && !asked.includes(word))) return false;
  return needed.length > 0 && needed.every(says);
}

const OPTIONAL_QUALIFIERS = new Set(['street', 'billing', 'shipping', 'home', 'delivery', 'code']);
const OTHER_KINDS = new Set(['email', 'mail', 'web', 'ip', 'different', 'ship', 'phone', 'password']);

/** What forms call a field that a prompt names in other words: "my postcode" is the "Zip Code", "my site" the "Website". */
const LABEL_SYNONYMS: Record<string, string[]> = {
  postcode: ['zip', 'postal', 'zipcode'],
  zip: ['postcode', 'postal', 'zipcode'],
  zipcode: ['zip', 'postcode', 'postal'],
  site: ['website', 'homepage', 'url', 'web'],
  website: ['site', 'homepage', 'url', 'web'],
  homepage: ['website', 'site', 'url'],
  handle: ['username', 'user', 'nickname'],
  username: ['handle', 'login'],
  phone: ['mobile', 'telephone', 'tel', 'cell'],
  mobile: ['phone', 'cell'],
  surname: ['last', 'family'],
  company: ['organization', 'organisation', 'business', 'employer'],
  organisation: ['organization', 'company'],
  organization: ['organisation', 'company'],
  postal: ['zip', 'postcode', 'zipcode'],
  discount: ['coupon', 'promo', 'voucher'],
  coupon: ['discount', 'promo', 'voucher'],
  promo: ['coupon', 'discount', 'voucher'],
  voucher: ['coupon', 'discount', 'promo'],
};

function namedFor(role: Role, values: NamedValues, texts: string[]): string | null {
  const [first, ...rest] = (values.name ?? '').split(/\s+/).filter(Boolean);
  switch (role) {
    case 'email':
      return values.email ?? null;
    case 'username':
      return values.username ?? values.email ?? values.name ?? null;
    case 'password':
    case 'confirm-password':
      return values.password ?? null;
    case 'first-name':
      return first ?? null;
    case 'last-name':
      return rest.length > 0 ? rest.join(' ') : null;
    case 'name':
      return values.name ?? null;
    case 'phone':
      return values.phone ?? null;
    case 'company':
      return values.company ?? null;
    case 'subject':
      return values.subject ?? null;
    case 'title':
      return values.title ?? texts.shift() ?? null;
    case 'message':
      return values.message ?? texts.shift() ?? null;
    case 'search':
      return values.search ?? texts.shift() ?? null;
    case 'text':
      return texts.shift() ?? null;
    case 'hours':
    case 'minutes':
    case 'day':
    case 'month':
    case 'year':
    case 'date':
    case 'time':
      return values.when ? whenValueFor(role, values.when) : null;
    default:
      return null;
  }
}

/** A field's or a button's target alone, without what the outline adds to it (a field's type, a button's kind). */
export function targetOf(target: Target): Target {
  return { label: target.label, selector: target.selector, fallbackSelectors: target.fallbackSelectors, rect: target.rect };
}

/** "start tracking a new habit", "add an Evening walk habit": a making verb, then (soon) the thing a form's opener names. */
export function makesWhatOpens(prompt: string, opener: string): boolean {
  const nouns = opener
    .toLowerCase()
    .split(/[^\p{L}]+/u)
    .filter((word) => word.length >= 3 && !/^(?:add|new|create|open|the|and|more)$/.test(word))
    .map((word) => word.replace(/(?<=\w{3})s$/, ''));
  return nouns.some((noun) =>
    new RegExp(String.raw`\b(?:add(?:s|ing)?|creat(?:e|es|ing)|mak(?:e|es|ing)|start(?:s|ing)?(?: tracking)?|track(?:s|ing)?|set(?:ting)? up|sav(?:e|es|ing)|log(?:s|ging)?)\b[^.;]{0,40}?\b${noun}s?\b`, 'iu').test(prompt),
  );
}

const WEEKDAYS = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'];
const DAY_WORD = /\b(sun|mon|tues|wednes|thurs|fri|satur)days?\b|\b(weekends?|weekdays|every day|daily)\b/gi;

/**
 * "an Evening walk habit that I only do on Saturdays and Sundays": a form whose checkboxes are the days of the week
 * (a habit's, an alarm's, a class's schedule) has the days the prompt says ticked and the others unticked, each
 * clicked only when the page had it otherwise. A prompt that says no day leaves the boxes as they are.
 */
export function weekdayTicks(form: OutlineForm, prompt: string): PlanStep[] {
  const boxes = new Map<number, OutlineField>();
  for (const field of form.fields) {
    if (field.type !== 'checkbox') continue;
    const said = /^(sun|mon|tue|wed|thu|fri|sat)[a-z]*\.?$/i.exec(field.label.trim());
    if (said) boxes.set(WEEKDAYS.indexOf(said[1]!.toLowerCase()), field);
  }
  if (boxes.size < 5) return [];
  const wanted = new Set<number>();
  for (const match of prompt.matchAll(DAY_WORD)) {
    // A day's whole name ("Saturdays", "on Monday"): "sun" alone is a word of its own.
    if (match[1]) wanted.add(WEEKDAYS.indexOf(match[1].toLowerCase().slice(0, 3)));
    else if (/^weekend/i.test(match[2]!)) [0, 6].forEach((day) => wanted.add(day));
    else if (/^weekdays$/i.test(match[2]!)) [1, 2, 3, 4, 5].forEach((day) => wanted.add(day));
    else [0, 1, 2, 3, 4, 5, 6].forEach((day) => wanted.add(day));
  }
  if (wanted.size === 0) return [];
  const steps: PlanStep[] = [];
  for (const [day, field] of [...boxes.entries()].sort((a, b) => a[0] - b[0])) {
    const want = wanted.has(day);
    if (want === (field.checked === true)) continue;
    steps.push({ action: 'click', target: targetOf(field), label: `${want ? 'Tick' : 'Untick'} "${field.label}"` });
  }
  return steps;
}
