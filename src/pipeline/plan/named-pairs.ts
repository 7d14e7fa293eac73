/**
 * Issue 56: values a prompt names with the field they go into, without a verb that sets them (named-values.ts reads
 * "set the job title to …"): amounts ("set my budget to 3000", "my budget this month is 1200"), entries that are a
 * thing and its amount ("log groceries for 150", "a 45 dollar phone bill", "paying 300 of rent", "spent 20 on lunch"),
 * a field's label then its value ("first name Amara, last name Okafor", "order 58213", "ticket #4411", "postal code
 * 400001", "I've moved to Cluj-Napoca"), and a box
 * named with what goes into it ("the first name box with Jordan", "put Jordan in the first name field").
 */
export interface Entry {
  /** what the amount is for ("groceries", "phone bill") */
  text: string;
  /** the amount, digits as written ("150", "45.50") */
  amount: string;
}

export interface NamedPairs {
  fields: Array<{ label: string; value: string }>;
  entries: Entry[];
}

/** A currency said in words after an amount ("150 shillings", "20 euros"). */
const CURRENCY = String.raw`dollars?|bucks|euros?|pounds?|usd|eur|gbp|shillings?|rupees?|yen|francs?|pesos?|rand|naira|cedis?|dirhams?|reais|lira|yuan|ringgit|baht|zloty|kronor|kroner|krona`;
/** An amount: digits, a currency sign before or a currency word after (both optional). */
const AMOUNT = String.raw`(?:[$€£]\s?)?(\d+(?:[.,]\d{1,2})?)(?:\s*-?\s*(?:${CURRENCY})\b)?`;
/** The same, only with its currency said: "a 45 dollar phone bill", "a $45 phone bill" (a bare "a 45 …" is a count). */
const PRICED = String.raw`(?:[$€£]\s?(\d+(?:[.,]\d{1,2})?)|(\d+(?:[.,]\d{1,2})?)\s*-?\s*(?:${CURRENCY})\b)`;
/** Where an amount or an entry's words end: punctuation, the prompt's end, or the words that start the next part. */
const END = String.raw`(?=\s*(?:[,.;:!?]|$)|\s+(?:and|then|to|on|from|in|into|under|this|last|today|yesterday)\b)`;
/** What an entry is for: a few words ("groceries", "the phone bill"), lazily up to where it ends. */
const THING = String.raw`(?:the\s+|my\s+|our\s+|a\s+|an\s+|some\s+)?(\p{L}[\p{L}'’-]*(?:\s+\p{L}[\p{L}'’-]*){0,2}?)`;
const LOGS = String.raw`(?:log|logs|logged|logging|add|adds|added|adding|record|records|recorded|recording|enter|enters|entered|entering|put|puts|putting|spend|spends|spent|spending|pay|pays|paid|paying)`;

/** "log groceries for 150", "add lunch at $12" */
const ENTRY_FOR = new RegExp(String.raw`\b${LOGS}\s+${THING}\s+(?:for|at|costing)\s+${AMOUNT}${END}`, 'giu');
/** "log a new expense called Matatu fare for 150 shillings": the entry is what it is called, not its kind. */
const ENTRY_CALLED = new RegExp(String.raw`\b${LOGS}\s+(?:a|an|one)\s+(?:new\s+)?\p{L}+\s+(?:called|named|titled|for)\s+["“'‘]?(\p{L}[\p{L}\d'’-]*(?:\s+\p{L}[\p{L}\d'’-]*){0,3}?)["”'’]?\s+(?:for|at|costing|of)\s+${AMOUNT}${END}`, 'giu');
/** "paying 300 of rent", "spent 20 on lunch", "paid $50 for gas" */
const ENTRY_PAID = new RegExp(String.raw`\b${LOGS}\s+${AMOUNT}\s+(?:of|on|for|in)\s+${THING}${END}`, 'giu');
/** "a 45 dollar phone bill", "a $12 lunch" */
const ENTRY_PRICED = new RegExp(String.raw`\b(?:a|an|one)\s+${PRICED}\s+${THING}${END}`, 'giu');
/** "set my budget to 3000", "my budget this month is 1200", "the limit should be 500": a field's word, then its amount. */
const AMOUNT_SET = new RegExp(
  String.raw`\b(?:(set|change|update|make|raise|lower|increase|decrease|reduce|bump)\s+)?(?:the|my|our|its|their|your)\s+([a-z]{3,20}(?:\s+[a-z]{3,20})?)\s+(?:(?:for\s+)?(?:this|the|next|each|every|per|a)\s+(?:month|week|year|day|quarter)\s+)?(to|is|of|at|becomes|should be|will be|=)\s+${AMOUNT}${END}`,
  'giu',
);
/** Words between "my" and an amount that are no field ("my total is …" is one; "my order of 3" is not a value of a field). */
const NOT_AMOUNT_FIELDS = /^(?:team|order|family|kids|children|age|size|group)$/i;

/** A person's name, capitalised: "Amara", "Van der Berg". */
const CAPITALISED = String.raw`(\p{Lu}[\p{L}'’-]+(?:\s+(?:\p{Lu}[\p{L}'’-]+|van|de|da|von|del|le)){0,2})`;
/** "first name Amara, last name Okafor", "surname: Okafor", "city Porto", "town Lisbon": a field a form asks for by that name, its value capitalised. */
const NAMED_LABEL = new RegExp(String.raw`\b((?:first|last|middle|given|family|full|display|sur)\s?name|job title|city|town|country|company)\s*(?::|=|\bis\b)?\s+${CAPITALISED}`, 'gu');
/** "the street address 12 Elm Street", "postal code 400001": an address field and its value (a digit or a capital first). */
const ADDRESS_LABEL = /\b((?:street|billing|shipping|postal|home|delivery)\s+address|address(?:\s+line\s*\d)?|post\s?code|postal\s+code|zip(?:\s?code)?)\s*(?::|=|\bis\b)?\s+([\p{Lu}\d][\p{L}\d'’.-]*(?:\s+(?!(?:and|then|to|on|in|as|for|with|into)\b)[\p{L}\d'’.-]+){0,5}?)(?=\s*(?:[,;:!?]|\.(?:\s|$)|$)|\s+(?:and|then|to|on|in|as|for|with|into)\b)/gu;
/** "a discount code SOFA10", "coupon WELCOME5", "promo code: SPRING-24": a code in capitals or digits, for its box. */
const PROMO_CODE = /\b(discount|coupon|promo(?:tional)?|voucher|gift ?card)(?:\s+code)?\s*(?::|=|\bis\b|\bof\b)?\s*["“'‘]?((?=[A-Z0-9-]*[A-Z])(?=[A-Z0-9-]*\d)[A-Z0-9][A-Z0-9-]{2,19}|[A-Z]{4,20})["”'’]?(?![\w@-]|\.\w)/gu;
/** "I've moved to Cluj-Napoca", "we now live in Porto": the city a profile's address asks for. */
const MOVED_TO = /\b(?:I|we)(?:['’]ve| have)?\s+(?:just\s+|recently\s+|now\s+)?(?:moved|relocated|live|living)\s+(?:to|in)\s+(\p{Lu}[\p{L}'’-]+(?:\s+\p{Lu}[\p{L}'’-]+){0,2})/gu;
/** "start tracking a new habit: Drink Water", "add a new task: Buy milk": the new thing's name, for its name box. */
const NEW_THING_COLON = /\b(?:add|adds|adding|create|creates|creating|start|starts|starting|track|tracking|make|making|set up|setting up)(?:\s+tracking)?\s+(?:a|an|one)\s+new\s+([a-z]{3,20})\s*:\s*["“]?(\p{Lu}[\p{L}\d'’-]*(?:\s+(?!(?:and|then|every|each|under|in|on|for|with|at)\b)[\p{L}\d'’-]+){0,4})["”]?(?=\s*(?:[,;:!?]|\.(?:\s|$)|$)|\s+(?:and|then|every|each|under|in|on|for|with|at)\b)/gu;
/** "order 58213", "order number 58213", "booking ABC123", "ticket #4411": a reference and its code (a digit in it). */
const REFERENCE = /\b(order|booking|ticket|reservation|tracking|invoice|case|confirmation|reference)(?:\s+(?:id|number|no\.?|code|ref(?:erence)?))?\s*(?::|=|\bis\b)?\s*#?\s*((?=[A-Z0-9-]*\d)[A-Z0-9][A-Z0-9-]{2,19})(?![\w@.-])/giu;
/**
 * "the first name box with Jordan", "fill the email field with …": a box by its words, then what goes in it. A box
 * the page has ("the", "my"): "build a text field with Materialize" names a kind of box, not a value.
 */
const BOX_WITH = /\b(?:the|my|your)\s+([a-z][a-z -]{1,30}?)\s+(?:box|field|input)\s+with\s+["“'‘]?([^"”'’,;.!?]{1,60}?)["”'’]?(?=\s*(?:[,;.!?]|$)|\s+(?:and|then)\b)/giu;
/** "put Jordan in the first name box", "type "Jordan" into the first name field" */
/** (or "type Marcus Lee into one of the name boxes": any of them, the first) */
const INTO_BOX = /\b(?:put|type|enter|write|fill in)\s+["“'‘]?([^"”'’,;.!?]{1,60}?)["”'’]?\s+(?:in|into)\s+(?:the|a|an|my|your|one of the|any of the)\s+([a-z][a-z -]{1,30}?)\s+(?:box|field|input)(?:es|s)?\b/giu;
/** Words that start a prompt's next request, not a name's: "first name Amara Then …". */
const NOT_NAME_WORDS = new Set(['Then', 'And', 'Show', 'Finish', 'End', 'With', 'The', 'A', 'An', 'I']);

export function namedPairs(prompt: string): NamedPairs {
  const fields: NamedPairs['fields'] = [];
  const add = (label: string, value: string) => {
    const clean = { label: label.trim().toLowerCase(), value: value.trim() };
    if (clean.value && !fields.some((field) => field.label === clean.label)) fields.push(clean);
  };
  for (const match of prompt.matchAll(NAMED_LABEL)) {
    const words = match[2]!.split(/\s+/);
    while (words.length > 0 && NOT_NAME_WORDS.has(words.at(-1)!)) words.pop();
    if (words.length > 0 && !NOT_NAME_WORDS.has(words[0]!)) add(match[1]!.replace(/^surname$/i, 'last name'), words.join(' '));
  }
  for (const match of prompt.matchAll(ADDRESS_LABEL)) add(match[1]!.replace(/\s+/g, ' '), match[2]!);
  for (const match of prompt.matchAll(MOVED_TO)) add('city', match[1]!);
  for (const match of prompt.matchAll(PROMO_CODE)) add(`${match[1]!.toLowerCase().replace(/^promotional$/, 'promo')} code`, match[2]!);
  for (const match of prompt.matchAll(NEW_THING_COLON)) add(match[1]!, match[2]!);
  // A reference is found by its head word: "order number 58213" goes into "Order ID" as well as "Order number".
  for (const match of prompt.matchAll(REFERENCE)) add(match[1]!, match[2]!);
  for (const match of prompt.matchAll(BOX_WITH)) add(match[1]!, match[2]!);
  for (const match of prompt.matchAll(INTO_BOX)) add(match[2]!, match[1]!);
  for (const match of prompt.matchAll(AMOUNT_SET)) {
    const [, verb, label, how, amount] = match;
    // "… to 3000" sets a field only with a verb that sets it ("set my budget to 3000"; "take my team to 5" sets none).
    if (how!.toLowerCase() === 'to' && !verb) continue;
    if (NOT_AMOUNT_FIELDS.test(label!)) continue;
    add(label!, amount!);
  }
  return { fields, entries: entriesSaid(prompt) };
}

/** The entries a prompt logs, in its order, each once. */
function entriesSaid(prompt: string): Entry[] {
  const found: Array<Entry & { at: number }> = [];
  const push = (at: number, text: string | undefined, amount: string | undefined) => {
    const words = text?.trim();
    if (!words || !amount || /^(?:it|them|this|that|me|us|you)$/i.test(words)) return;
    if (found.some((entry) => entry.text === words)) return;
    found.push({ at, text: words, amount });
  };
  for (const match of prompt.matchAll(ENTRY_CALLED)) push(match.index!, match[1], match[2]);
  for (const match of prompt.matchAll(ENTRY_FOR)) push(match.index!, match[1], match[2]);
  for (const match of prompt.matchAll(ENTRY_PAID)) push(match.index!, match[2], match[1]);
  for (const match of prompt.matchAll(ENTRY_PRICED)) push(match.index!, match[3], match[1] ?? match[2]);
  return found.sort((a, b) => a.at - b.at).map(({ text, amount }) => ({ text, amount }));
}
