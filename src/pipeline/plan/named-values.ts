import { type Entry, namedPairs } from './named-pairs.js';
import { whenOf, type When } from './when.js';

/**
 * Issue 56: the values a prompt names for a form ("sign in as dana@example.com", "fill it in as Alex Kim", "search
 * for 'trail shoes'", "with the message “Hello there”"). Only what the prompt says: fields it does not name are left
 * to the form filler (form-fill.ts), which types obviously fake values where a form needs them.
 */
export interface NamedValues {
  email?: string;
  /** a person's name, as written ("Alex Kim") */
  name?: string;
  password?: string;
  /** a user name or handle ("username amarao", "called kenji_w"): what a sign-up's user name field takes */
  username?: string;
  phone?: string;
  company?: string;
  /** a message, note or comment */
  message?: string;
  /** a message's subject line ("subject Wholesale enquiry", "with the subject Q3 budget review") */
  subject?: string;
  /** what to search for */
  search?: string;
  /** what the prompt searches in, when it says ("the data table" of "search the data table for …") */
  searchIn?: string;
  /**
   * A field named with its value: "set the job title to Head of Customer Support", "the name becomes Farah Haddad",
   * "change the organisation to Northwind Traders": the field whose label says those words takes the value.
   */
  fields: Array<{ label: string; value: string }>;
  /** things logged with their amounts, in the prompt's order ("log groceries for 150", "a 45 dollar phone bill"): named-pairs.ts */
  entries: Entry[];
  /** a title for what is made ("a note titled "Dentist"", "with the title Q3 plan") */
  title?: string;
  /** a time and date the prompt names (when.ts), for a form's time and date fields; on its own it names no value */
  when?: When;
  /** quoted words not claimed by any of the above, in the prompt's order (a task to add, a title to type) */
  texts: string[];
}

const EMAIL = /[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+/;
const QUOTED = /["“”'‘’]([^"“”'‘’]{1,80})["“”'‘’]/g;
/** A capitalised name after "as", "named", "called", "name is", "for" (two to four words, or one after "named"). */
const NAME = /\b(?:as|named|called|name(?:d| is)?|for user|I['’]m|I am)\s+((?:[A-Z][\p{L}'’-]+)(?:\s+(?:[A-Z][\p{L}'’-]+|van|de|da|von|del|le)){0,3})/u;
/** "A note from Priya Nair", "a message from Dana Ortiz": who writes it, a full name (two to four capitalised words). */
const WRITTEN_BY = /\b(?:note|message|letter|line|e-?mail|enquiry|inquiry|request|question|review|comment)\s+from\s+([A-Z][\p{L}'’-]+(?:\s+(?:[A-Z][\p{L}'’-]+|van|de|da|von|del|le)){1,3})/u;
/** "username amarao", "handle @kenji", or a handle after "as"/"called"/"named"/"for": lower case with _ . - or digits. */
const USERNAME = /\b(user ?name|handle|login)\s+(is\s+|of\s+|to\s+)?(["“'‘@])?([A-Za-z0-9][\w.-]{1,39})/i;
const HANDLE = /\b(?:as|called|named|for)\s+@?([a-z][a-z0-9]*(?:[_.-][a-z0-9]+)+|[a-z]+\d+)(?![\w@.-])/;
const PASSWORD = /\bpassword\s+(?:is\s+|of\s+)?["“'‘]?([^\s"”'’,.;]{3,40})/i;
const PHONE = /(?:phone|number|call|\b(?:mobile|cell|tel|telephone))\D{0,20}(\+?\d[\d\s().-]{6,18}\d)/i;
const COMPANY = /\b(?:company|organi[sz]ation|business)\s+(?:is\s+|called\s+|named\s+|to\s+)?["“'‘]?([A-Z][\w&.'’ -]{1,40}?)["”'’]?(?=[,.;]|\s+(?:and|then|with)\b|$)/;
const MESSAGE = /\b(?:message|note|comment|question|saying|says)\s*:?\s*["“'‘]([^"”'’]{1,200})["”'’]/i;
const ABOUT = /\b(?:note|message|comment|question|enquiry|inquiry|email|line)\b[^;]{0,120}?\babout\s+((?:a |an |the |our |their |my )?[\p{L}\d][\p{L}\d '’-]{2,60}?)\s*(?=[,.;!?]|\s+(?:and|then|as|from|with)\b|$)/iu;
/** "Where do I send him a message about a job?": a question about where to write, not words to write. */
const ASKS_WHERE = /^\s*(?:where|how)\s+(?:do|can|could|should|would)\s+(?:I|we|you|one)\b/i;
/** An unquoted message that ends the prompt after a colon: "…, with the message: We need an online menu by March". */
const MESSAGE_REST = /\b(?:message|note|comment|question|saying)\s*:\s*([^"“'‘\s][^"”]{2,200}?)\s*[.!]?\s*$/i;
/**
 * What is written, after the last colon of a prompt that asks to write a review, a comment or feedback: "Write a
 * review of this laptop as Hannah Cole, hannah@example.com: Fast, quiet and the battery lasts all day". Three words
 * at least, and no address in them.
 */
const WRITTEN_REST = /\b(?:review|comment|feedback|testimonial|message|note|question|reply)\b[^:]*:\s*([^"“'‘\s:@][^"”:@]{2,200}?)\s*[.!]?\s*$/iu;
/** An unquoted message said in the first person: "…, and I'd like to pitch a guest post", "we're looking for a quote". */
const FIRST_PERSON = /(?:^|[,;:]\s*|\band\s+|\bsaying\s+|\bthat\s+)((?:I|we)(?:['’]d| would) (?:like|love) to\b[^.;!?]{3,160}|(?:I|we)(?:['’]m| am|['’]re| are) (?:interested in|looking for|hoping to|keen to)\b[^.;!?]{3,160})/u;
/** "put Marisol Vega as the contact name (in the business settings)": a value, then the field it goes in. */
// (An address keeps its comma: "put 18 Harbour Street, Leeds as my address".)
const VALUE_AS_THE_FIELD = /\b(?:put|enter|type|use|set|fill in|add)\s+["“]?((?:[^"”,;:.]|,\s(?=[\p{Lu}\d]))[^"”,;:.]{0,59}?(?:,\s(?=[\p{Lu}\d])[^"”,;:.]{1,40}?)?)["”]?\s+as\s+(?:the|my|its|their|your|our)\s+([a-z][a-z -]{1,45}?)(?=\s*(?:[,;!?]|\.(?:\s|$)|$|\s+(?:in|on|under|and|then)\b))/giu;

/** A place after a field's words ("on my profile", "in settings", "on the account page"): where it is, not its label. */
const WHERE_THE_FIELD_IS = /\s+(?:on|in|under|from)\s+(?:(?:the|my|its|their|your|our)\s+)?(?:profile|settings?|account|page|form|dashboard|preferences|details|screen|tab)(?:\s+(?:page|screen|tab|form))?\s*$/i;

/** "set the job title to X", "the name becomes X", "change my display name to "X"": a field's words, then its value. */
const FIELD_TO = /\b(?:(?:set|change|update|make|edit|switch|rename)\s+)?(?:the|my|its|their|your)\s+([a-z][a-z -]{1,45}?)\s+(?:to|becomes|become|is now|should be|should read|to read|says|reads|to say)\s+["“'‘]?([^"”'’,;]{1,80}?)["”'’]?(?=\s*(?:[,;]|\.(?:\s|$)|$|\s+and\s+(?:the|my|its|their|your|then|set|change|add|put|enter|update|make)\b|\s+then\b))/giu;
/** Words a form labels a field with: "the flow to work", "the plan to …" name none. */
const FIELD_WORDS = /\b(?:name|title|email|e-mail|address|phone|number|company|organi[sz]ation|role|position|job|bio|city|town|country|website|url|username|handle|department|team|time ?zone|language|currency|nickname|display|site|homepage|post ?code|postal code|zip(?: ?code)?|state|county|region)\b/i;
/** The next field and its value after a FIELD_TO, with its verb left out: "and the country Portugal". */
const AND_THE_FIELD = /^\s*(?:,\s*)?and\s+(?:the|my|its|their|your)\s+([a-z][a-z -]{1,30}?)\s+(?:to\s+|as\s+)?["“'‘]?(\p{Lu}[^"”'’,;.]{0,60}?)["”'’]?(?=\s*(?:[,;.]|$|\s+and\b|\s+then\b))/u;
/** The next value and its field after a VALUE_AS_THE_FIELD, its verb left out: "and LS1 4DY as the postcode". */
const AND_VALUE_AS = /^\s*(?:,\s*)?and\s+["“]?([^"”,;:.]{1,60}?)["”]?\s+as\s+(?:the|my|its|their|your|our)\s+([a-z][a-z -]{1,30}?)(?=\s*(?:[,;!?]|\.(?:\s|$)|$|\s+(?:in|on|under|and|then)\b))/iu;
/** A field, then its value between commas: "add my site, riverastudio, to my profile". */
const FIELD_BETWEEN_COMMAS = /\b(?:add|put|enter|set|include|list)\s+(?:my|the|our|their|your|its)\s+([a-z][a-z -]{1,30}?)\s*,\s*["“]?([^"”,;:]{1,60}?)["”]?\s*,/giu;

/** "a note titled "Dentist"", "with the title Q3 plan", "headed Weekly sync" */
const TITLED = /\b(?:titled|entitled|headed|with the (?:title|heading))\s+["“'‘]?([^"”'’,;]{1,80}?)["”'’]?(?=\s*(?:[,;.]|$|\s+(?:that|which|and|then|with|saying|says)\b))/iu;
// "a habit called Stretching, described as ten minutes after waking up", "with the description: weekly sync": what a
// Description box takes, to the end of its clause.
/**
 * A work in title case and its maker after "by" ("add Piranesi by Susanna Clarke"), after a verb that files it; the
 * title's small words ("of", "the") may be lower-case, the maker's initials may carry a full stop.
 */
const WORK_BY = /\b(?:[Pp]ut|[Aa]dd|[Ll]og|[Ss]ave|[Tt]rack|[Rr]ecord|[Ee]nter|[Ll]ist|[Ss]helve|[Qq]ueue)\s+(?:the\s+(?:book|novel|album|record|song|film|movie|paper|article|game)\s+)?["“]?(\p{Lu}[\p{L}\d'’:-]*(?:\s+(?:(?:of|the|a|an|and|in|on|to|for|at|with|from)\s+)*\p{Lu}[\p{L}\d'’:-]*){0,8})["”]?\s+by\s+(\p{Lu}[\p{L}'’-]*\.?(?:\s+\p{Lu}[\p{L}'’-]*\.?){0,4})(?=[\s,.;!?]|$)/u;
const DESCRIBED = /\b(?:described as|with (?:the |a )?description(?: of)?:?|description:)\s+["“'‘]?([^"”'’.;]{2,160}?)["”'’]?\s*(?=[.;!?]|$|,?\s+(?:and then|then)\b)/i;
const SUBJECT = /\bsubject(?:\s+line)?\s*:?\s+(?:is\s+|of\s+)?["“'‘]?([^"”'’,.;]{2,80}?)["”'’]?(?=[,.;]|\s+(?:and|then)\b|$)/i;
const SEARCH = /\bsearch(?:es|ing)?\s+(?:for\s+)?["“'‘]?([^"”'’,.;]{2,60}?)["”'’]?(?=[,.;]|\s+(?:and|then)\b|$)/i;
/** "search the data table for …", "search our staff list for …": what is searched, then what for. */
const SEARCH_IN = /\bsearch(?:es|ing)?\s+(?:the|this|that|our|your|its|their|a|an)\s+([^"“'‘,.;]{1,40}?)\s+for\s+["“'‘]?([^"”'’,.;]{1,60}?)["”'’]?(?=[,.;?!]|\s+(?:and|then)\b|$)/i;
/** "look them up in the datatable", "look up Offenburg in the contacts": a search said with "look up", and where. */
const LOOK_UP = /\blook\s+(?:(it|them|that|this|those|these|him|her)\s+up|up\s+["“'‘]?([^"”'’,.;]{2,60}?)["”'’]?)\s+(?:in|on|with|using|through)\s+(?:the|this|that|our|your|its|their|a|an)\s+((?:[^"“'‘’,.;?!]|['’]s\b){1,40}?)(?=[,.;?!]|\s+(?:and|then|for)\b|$)/i;
/**
 * "Look up everything the docs say about sideloading", "find anything on refunds": all a site says of one thing is
 * what its search box finds, and the thing is the query.
 */
const EVERYTHING_ABOUT = /\b(?:look\s+up|find|search(?:\s+for)?|dig\s+up|pull\s+up)\s+(?:everything|anything|all|whatever)\s+(?:(?:the|their|its|our|your|this|that)\s+(?:docs|documentation|site|website|pages?|wiki|manual|guide|help|blog)\s+(?:says?|has|have|covers?|mentions?|knows?)\s+)?(?:about|on|regarding|related\s+to)\s+["“'‘]?((?!(?:it|them|this|that)\b)[^"”'’,.;?!]{2,40}?)["”'’]?(?=[,.;?!]|\s+(?:and|then)\b|$)/i;
/** "Find every place the docs mention create_chart", "show everywhere the site talks about refunds": the same. */
const EVERY_MENTION = /\b(?:find|show|list|look\s+up)\s+(?:me\s+)?(?:every\s+place|everywhere|all\s+(?:the\s+)?places|each\s+place|every\s+page)\s+(?:where\s+|that\s+)?(?:(?:the|their|its|our|your)\s+(?:docs|documentation|site|website|pages?|wiki|manual|guide)\s+)?(?:mentions?|says?|uses?|talks?\s+about|refers?\s+to|covers?)\s+["“'‘]?((?!(?:it|them|this|that)\b)[^"”'’,.;?!]{2,40}?)["”'’]?(?=[,.;?!]|\s+(?:and|then)\b|$)/i;
/** A search for a word said earlier: "Which of our staff work in Edinburgh? Search the data table for it". */
const PRONOUN = /^(?:it|them|that|this|those|these|him|her|one|some)$/i;
/** A person's name written just before their address: "subscribe Tomas Rivera, tomas.rivera@example.com". */
const NAME_BY_EMAIL = /((?:[A-Z][\p{L}'’-]+)(?:\s+(?:[A-Z][\p{L}'’-]+|van|de|da|von|del|le)){1,3})\s*[,(]\s*[A-Za-z0-9._%+-]+@/u;
/**
 * A field named with its value after "with": "fill in the basic form with the name Sofia Bianchi and the city Turin".
 * The value starts with a capital, a digit or a quotation mark (so "with the name of …" names none).
 */
const WITH_THE_FIELD = /\bwith\s+(?:the|my|its|their|your|a|an)\s+([a-z][a-z -]{1,30}?)\s+(?:of\s+)?["“'‘]?([\p{Lu}\d][^"”'’,;]{0,60}?)["”'’]?(?=\s*(?:[,;]|\.(?:\s|$)|$|\s+and\b|\s+then\b))/gu;

/**
 * The person a record is made for: "start a new record for Amara Okafor", "open an account for Lena Park", "fill in
 * the billing details for Leo Brandt" (two capitalised words at least: "for Monday" is no one).
 */
// "Add an Evening walk habit that I only do on Saturdays", "create a Q3 Launch project for …": a thing made, named by
// the capitalised words between the article and what it is (a lowercase noun that ends the phrase).
const MADE_NAMED = /\b(?:[Aa]dd|[Cc]reate|[Mm]ake|[Ss]tart|[Ss]et up|[Tt]rack)\s+(?:a|an|one)\s+(?:new\s+)?(\p{Lu}[\p{L}'’-]*(?:\s+(?!(?:with|and|or|of|for|on|in|to|the|a|an)\b)[\p{L}\d'’-]+){0,3}?)\s+(?!(?:section|page|link|button|tab|menu|panel|widget)\b)\p{Ll}{3,}(?=\s+(?:that|which|for|to|on|every|each|I|we)\b|\s*[,.;!?]|\s*$)/u;
/** "Enrol a new student, Tomas Reyes, with …", "add a customer, Maya Chen": the person added, named just after. */
const NEW_ONE_NAMED = /\b(?:[Aa]dd|[Cc]reate|[Ee]nrol|[Ee]nroll|[Rr]egister|[Oo]nboard|[Ii]nvite|[Hh]ire)\s+(?:a |an |one )?(?:new )?(?:student|pupil|customer|client|user|member|employee|teacher|professor|patient|doctor|contact|teammate|colleague|person|guest|admin|agent|author|subscriber|volunteer|player|driver|tenant|lead|speaker|staff member)s?,\s+(\p{Lu}[\p{L}'’-]+(?:\s+(?:\p{Lu}[\p{L}'’-]+|van|de|da|von|del|le)){1,3})(?=\s*[,.;(]|\s+(?:with|to|as|and|on|in|for)\b|\s*$)/u;
const RECORD_FOR = /\b(?:record|account|profile|entry|contact|customer|user|member|employee|booking|reservation|registration|invoice|details|information|info|form|order)\s+for\s+((?:\p{Lu}[\p{L}'’-]+)(?:\s+(?:\p{Lu}[\p{L}'’-]+|van|de|da|von|del|le)){1,3})/u;

/** Words that start a prompt's next request, so "as Alex Kim Then…" does not take "Then" for a surname. */
const NOT_NAMES = new Set(['Then', 'And', 'Show', 'Finish', 'End', 'With', 'Sign', 'Log', 'Open', 'Go', 'The', 'A', 'An', 'I', 'Submit']);

export function namedValues(prompt: string): NamedValues {
  const values: NamedValues = { texts: [], fields: [], entries: [] };
  const claimed: string[] = [];
  const email = EMAIL.exec(prompt)?.[0];
  if (email) {
    values.email = email;
    claimed.push(email);
  }
  const name = RECORD_FOR.exec(prompt)?.[1] ?? NEW_ONE_NAMED.exec(prompt)?.[1] ?? NAME.exec(prompt)?.[1] ?? WRITTEN_BY.exec(prompt)?.[1] ?? nameByEmail(prompt) ?? MADE_NAMED.exec(prompt)?.[1];
  if (name) {
    const words = name.split(/\s+/);
    while (words.length > 0 && NOT_NAMES.has(words.at(-1)!)) words.pop();
    if (words.length > 0 && !NOT_NAMES.has(words[0]!)) {
      values.name = words.join(' ');
      claimed.push(values.name);
    }
  }
  const username = userNameSaid(prompt) ?? HANDLE.exec(prompt)?.[1];
  if (username && !EMAIL.test(username) && !claimed.some((value) => value.includes(username))) {
    values.username = username;
    claimed.push(username);
  }
  const password = PASSWORD.exec(prompt)?.[1];
  if (password) {
    values.password = password;
    claimed.push(password);
  }
  const phone = PHONE.exec(prompt)?.[1];
  if (phone) {
    values.phone = phone.trim();
    claimed.push(values.phone);
  }
  const company = COMPANY.exec(prompt)?.[1];
  if (company) {
    values.company = company.trim();
    claimed.push(values.company);
  }
  const described = DESCRIBED.exec(prompt)?.[1];
  if (described) {
    values.fields.push({ label: 'description', value: described.trim() });
    claimed.push(described.trim());
  }
  const subject = SUBJECT.exec(prompt)?.[1];
  if (subject && !EMAIL.test(subject)) {
    values.subject = subject.trim();
    claimed.push(values.subject);
  }
  // "send a note … about a brand refresh": what the note is about, when it is not quoted.
  // What follows "message:" is the message unless it is the sender's details (an address in it).
  const rest = MESSAGE_REST.exec(prompt)?.[1];
  const written = WRITTEN_REST.exec(prompt)?.[1];
  const writtenText = written && written.trim().split(/\s+/).length >= 3 ? written : undefined;
  const message = MESSAGE.exec(prompt)?.[1] ?? (FIRST_PERSON.exec(prompt)?.[1] ?? (rest && !rest.includes('@') ? rest : undefined) ?? writtenText ?? (ASKS_WHERE.test(prompt) ? undefined : ABOUT.exec(prompt)?.[1]))?.replace(/^./, (c) => c.toUpperCase());
  if (message) {
    values.message = message.trim();
    claimed.push(values.message);
  }
  const search = searchSaid(prompt);
  if (search && !EMAIL.test(search)) {
    values.search = search.trim();
    const place = (SEARCH_IN.exec(prompt)?.[1] ?? LOOK_UP.exec(prompt)?.[3])?.trim();
    if (place) values.searchIn = place;
    claimed.push(values.search);
  }
  // A field and its value, and a field said after it with "and the …" ("the name Sofia Bianchi and the city Turin").
  const fieldAndTheNext = (label: string, value: string, end: number) => {
    values.fields.push({ label, value: value.trim() });
    claimed.push(value.trim());
    const more = AND_THE_FIELD.exec(prompt.slice(end));
    if (more && FIELD_WORDS.test(more[1]!) && !values.fields.some((field) => field.label === more[1])) {
      values.fields.push({ label: more[1]!, value: more[2]!.trim() });
      claimed.push(more[2]!.trim());
    }
    const asThe = more ? null : AND_VALUE_AS.exec(prompt.slice(end));
    const asLabel = asThe?.[2]?.replace(WHERE_THE_FIELD_IS, '').trim();
    if (asThe && asLabel && FIELD_WORDS.test(asLabel) && !values.fields.some((field) => field.label === asLabel)) {
      values.fields.push({ label: asLabel, value: asThe[1]!.trim() });
      claimed.push(asThe[1]!.trim());
    }
  };
  for (const match of prompt.matchAll(FIELD_TO)) {
    // "my profile so the city says Lisbon": the field is the last thing named before its value.
    // "the city on my profile to Lisbon", "the contact name in settings to …": where the field is, not its label.
    const field = match[1]!.replace(WHERE_THE_FIELD_IS, '');
    const label = field.split(/\b(?:the|my|its|their|your)\s+/).at(-1)!.trim();
    // "… to X" is a value only where the sentence changes something ("set", "change", "update" before it): "drop
    // their email to stay in the loop" is no value.
    const before = prompt.slice(Math.max(0, match.index! - 80), match.index! + match[0].length).split(/[.!?]\s/).at(-1)!;
    if (/^\s*(?:the|my|its|their|your)\s+[a-z][a-z -]*?\s+(?:to|as)\s/i.test(match[0].replace(/^\s*(?:set|change|update|make|edit|switch|rename)\s+/i, '')) && !/\b(?:set|change|update|edit|rename|switch)\b/i.test(before)) continue;
    // Only words a form labels a field with.
    if (!FIELD_WORDS.test(label)) continue;
    // "…the city says Lisbon and the country Portugal": the verb said once for both.
    fieldAndTheNext(label, match[2]!, match.index! + match[0].length);
  }
  for (const match of prompt.matchAll(VALUE_AS_THE_FIELD)) {
    const label = match[2]!.replace(WHERE_THE_FIELD_IS, '').trim();
    if (!FIELD_WORDS.test(label) || label.split(/\s+/).length > 3 || values.fields.some((field) => field.label === label)) continue;
    fieldAndTheNext(label, match[1]!, match.index! + match[0].length);
  }
  for (const match of prompt.matchAll(FIELD_BETWEEN_COMMAS)) {
    const label = match[1]!.trim();
    if (!FIELD_WORDS.test(label) || label.split(/\s+/).length > 3 || values.fields.some((field) => field.label === label)) continue;
    values.fields.push({ label, value: match[2]!.trim() });
    claimed.push(match[2]!.trim());
  }
  for (const match of prompt.matchAll(WITH_THE_FIELD)) {
    const label = match[1]!.trim();
    if (!FIELD_WORDS.test(label) || label.split(/\s+/).length > 3 || values.fields.some((field) => field.label === label)) continue;
    fieldAndTheNext(label, match[2]!, match.index! + match[0].length);
  }
  // Fields named by their label without a verb ("first name Amara", "order 58213"), amounts and entries.
  const pairs = namedPairs(prompt);
  for (const pair of pairs.fields) {
    if (values.fields.some((field) => field.label === pair.label)) continue;
    values.fields.push(pair);
    claimed.push(pair.value);
  }
  values.entries = pairs.entries;
  claimed.push(...pairs.entries.flatMap((entry) => [entry.text, entry.amount]));
  const title = TITLED.exec(prompt)?.[1]?.trim();
  if (title) {
    values.title = title;
    claimed.push(title);
  }
  // "Put The Left Hand of Darkness by Ursula K. Le Guin on my reading list": a work's title and who made it, for a
  // form that asks for both ("Title", "Author"); a form without an author field takes the title alone.
  const work = WORK_BY.exec(prompt);
  if (work && !values.title && !claimed.some((value) => value.includes(work[1]!) || work[1]!.includes(value))) {
    // An initial keeps its full stop ("K."), a sentence's does not ("… by Frank Herbert.").
    const maker = work[2]!.trim().replace(/(\p{L}{2,})\.$/u, '$1');
    values.title = work[1]!.trim();
    values.fields.push({ label: 'author', value: maker });
    claimed.push(values.title, maker);
  }
  listedValues(prompt, values, claimed);
  const when = whenOf(prompt);
  if (when) values.when = when;
  for (const match of prompt.matchAll(QUOTED)) {
    const text = match[1]!.trim();
    // An apostrophe pair inside words ("customer's … it's") is not a quotation.
    if (!text || /^\w/.test(prompt.slice(match.index! + match[0].length, match.index! + match[0].length + 1)) && /\w$/.test(prompt.slice(0, match.index!))) continue;
    if (claimed.some((value) => value === text || value.includes(text) || text.includes(value))) continue;
    values.texts.push(text);
  }
  return values;
}

/**
 * A user name the prompt says: after "username" or "handle" whatever it looks like; after "login" only when it reads
 * as one ("login is amarao", "login kenji_w"): "the login screen", "the login page", "login to the dashboard" name none.
 */
function userNameSaid(prompt: string): string | undefined {
  const match = USERNAME.exec(prompt);
  if (!match) return undefined;
  const [, keyword, is, quote, value] = match;
  if (/^login$/i.test(keyword!) && (!is || /^to\s/i.test(is)) && !quote && !/[\d_.-]/.test(value!)) return undefined;
  // "change my handle to rivera.design" sets one; "the username to the right" names none.
  if (is && /^to\s/i.test(is) && /^(?:the|a|an|my|your|our|their|his|her|its|this|that)$/i.test(value!)) return undefined;
  return value;
}

/**
 * What the prompt searches for: "search for 'trail shoes'", "search the data table for Edinburgh"; a pronoun ("for
 * it") stands for the last name said before it ("Which of our staff work in Edinburgh? Search the data table for it").
 * "Search the data table" alone names the place, not a query.
 */
function searchSaid(prompt: string): string | undefined {
  const within = SEARCH_IN.exec(prompt);
  if (within) {
    const query = within[2]!.trim();
    if (!PRONOUN.test(query)) return query;
    return kindNamedBefore(prompt.slice(0, within.index), within[1]!) ?? lastNameBefore(prompt.slice(0, within.index));
  }
  const query = SEARCH.exec(prompt)?.[1];
  if (query && !/^(?:the|this|that|our|your|its|their)\s/i.test(query.trim())) return query;
  const everything = (EVERYTHING_ABOUT.exec(prompt)?.[1] ?? EVERY_MENTION.exec(prompt)?.[1])?.trim();
  if (everything) return everything;
  const looked = LOOK_UP.exec(prompt);
  if (!looked) return undefined;
  const before = prompt.slice(0, looked.index);
  return looked[2]?.trim() || kindNamedBefore(before, looked[3]!) || lastNameBefore(before);
}

/** Other words for what a searched place holds. */
const KIND_SYNONYMS: Record<string, string[]> = { icon: ['symbol', 'glyph', 'pictogram'] };

/**
 * "I need a calendar icon for a button. Search the icon set for one": the one the prompt described before, by the words
 * before the kind the searched place holds ("icon" of "the icon set").
 */
function kindNamedBefore(text: string, place: string): string | undefined {
  const kind = place.trim().split(/\s+/)[0]!.replace(/s$/i, '');
  if (kind.length < 3) return undefined;
  // "I need an anchor symbol … look it up in the icon collection": a symbol is what an icon set holds.
  const kinds = [kind, ...(KIND_SYNONYMS[kind.toLowerCase()] ?? [])].join('|');
  const described = [...text.matchAll(new RegExp(String.raw`\b(?:a|an|some|the)\s+((?:[\p{L}\d-]+\s+){1,2}?)(?:${kinds})s?\b`, 'giu'))].at(-1)?.[1]?.trim();
  return described && !/^(?:new|good|nice|few|single|small|big|right)$/i.test(described) ? described : undefined;
}

/** The last capitalised word or words written before, not at a sentence's start (a place, a person, a product). */
function lastNameBefore(text: string): string | undefined {
  const names = [...text.matchAll(/(?<![.!?:]\s*|^\s*)(?<=\s)(\p{Lu}[\p{L}'’-]+(?:\s+\p{Lu}[\p{L}'’-]+)*)/gu)].map((m) => m[1]!);
  return names.filter((name) => !NOT_NAMES.has(name)).at(-1);
}

/** A name just before an address, without the verb that may open the sentence ("Subscribe Tomas Rivera, tomas@…"). */
function nameByEmail(prompt: string): string | undefined {
  const match = NAME_BY_EMAIL.exec(prompt);
  if (!match) return undefined;
  const words = match[1]!.split(/\s+/);
  const opensSentence = /(?:^|[.!?:;]\s*)$/.test(prompt.slice(0, match.index));
  return opensSentence && words.length > 2 ? words.slice(1).join(' ') : words.join(' ');
}

/** Whether the prompt names any value to type. */
export function namesValues(values: NamedValues): boolean {
  return Boolean(values.fields.length > 0 || values.entries.length > 0 || values.title || values.email || values.name || values.username || values.password || values.phone || values.company || values.message || values.subject || values.search || values.texts.length > 0);
}

/** A prompt that adds or fills something in, then lists the values after its last colon. */
const FILLS = /\b(?:add(?:s|ing)?|send(?:s|ing)?|creat(?:e|es|ing)|fill(?:s|ing)?(?: in| out)?|enter(?:s|ing)?|register(?:s|ing)?|put in|type|book(?:s|ing)?|request(?:s|ing)?|invite|onboard)\b/i;
/** A handle as people write one: lower case, with _ . - or digits in it ("leo_martin", "kenji.w", "sam42"). */
const LISTED_HANDLE = /^@?[a-z][a-z0-9]*(?:[_.-][a-z0-9]+)+$|^@?[a-z]+\d+$/;
const CAPITALISED_NAME = /^[A-Z][\p{L}'’-]+(?:\s+(?:[A-Z][\p{L}'’-]+|van|de|da|von|del|le)){1,3}$/u;

/**
 * "Add a new person to the staff table: Maya Lindqvist, Data Analyst, Stockholm office": the values listed after the
 * last colon of a prompt that adds or fills something in, in the form's order. A name first in the list is the
 * person's name; the rest, not claimed by anything above, are texts for the fields the form filler cannot tell by
 * role (a position, an office), in the order said. Two values at least, each a few words: a sentence after the colon
 * is a message (WRITTEN_REST), not a list.
 */
function listedValues(prompt: string, values: NamedValues, claimed: string[]): void {
  const colon = prompt.lastIndexOf(':');
  if (colon < 0 || !FILLS.test(prompt.slice(0, colon))) return;
  const rest = prompt.slice(colon + 1).trim().replace(/[.!]+$/, '');
  if (claimed.some((value) => value.includes(rest) || rest.includes(value) && value.length > rest.length / 2)) return;
  const items = rest.split(/\s*,\s*(?:and\s+)?|\s+and\s+(?=[^"”]*(?:["“][^"”]*["”][^"”]*)*$)/).map((item) => item.trim()).filter(Boolean);
  // A quoted value is the quotation reading's (below); unquoted, a value is a few words.
  const quoted = (item: string) => /^["“'‘].*["”'’]$/u.test(item);
  if (items.length < 2 || items.some((item) => !quoted(item) && item.split(/\s+/).length > 5)) return;
  items.forEach((item, index) => {
    if (quoted(item) || claimed.some((value) => value.includes(item) || item.includes(value))) return;
    if (index === 0 && !values.name && CAPITALISED_NAME.test(item)) {
      values.name = item;
    } else if (!values.username && LISTED_HANDLE.test(item)) {
      // "Register a new user: leo_martin, leo.martin@example.com": a handle in the list is the user name.
      values.username = item.replace(/^@/, '');
    } else {
      values.texts.push(item);
    }
    claimed.push(item);
  });
}
