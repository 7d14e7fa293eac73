import type { OutlineAction, OutlineForm, OutlineSection, PageOutline } from '../types.js';
import { type Beat, beatsOf } from './not-found.js';
import { concepts, pagePhrases } from './lexicon.js';
import { promptWords, stem } from './prompt-words.js';
import { promptSubjects } from './section-meaning.js';
import { keywords } from './text-match.js';
import { namedValues } from './named-values.js';

/**
 * Issue 56: where a prompt leaves the page. "Show how a returning customer signs in" on a landing page whose header
 * links to its own sign-in page: the demo goes there. A beat leaves the page when it asks for a place the page links
 * to and does not hold itself: a sign-in, a sign-up or a contact form found only behind a link, or a page the prompt
 * names ("open the tables page", "go to the pricing page"). Links of the same site only (`sameSite`), and never an
 * anchor of the page itself: a one-page site's "#pricing" is a scroll, which the section planner already does.
 */
export type FlowPurpose = 'sign-in' | 'sign-up' | 'contact' | 'page';

export interface FlowExit {
  /** the beats before the one that leaves, as written ("" when it is the first): shown on this page first */
  before: string;
  /** that beat and the rest: planned on the page the link opens */
  after: string;
  link: OutlineAction;
  purpose: FlowPurpose;
}

interface Purpose {
  purpose: Exclude<FlowPurpose, 'page'>;
  asked: RegExp;
  link: RegExp;
  /** the page already holds what the beat asks for: it is shown here, not behind a link */
  heldBy(form: OutlineForm, beat: string): boolean;
}

/** A lone box that searches: the header's "Search…", not a form anyone fills in. */
const searchBoxOnly = (form: OutlineForm) => textFields(form) === 1 && (hasType(form, /^search$/) || labelled(form, /search|^\s*q\s*$/i));
const hasType = (form: OutlineForm, type: RegExp) => form.fields.some((field) => type.test(field.type));
const textFields = (form: OutlineForm) => form.fields.filter((field) => !/^(?:checkbox|radio|hidden|submit|button)$/i.test(field.type)).length;
const labelled = (form: OutlineForm, words: RegExp) => words.test(form.label) || form.fields.some((field) => words.test(`${field.label} ${field.name ?? ''}`));

const purposes: Purpose[] = [
  {
    purpose: 'sign-in',
    // "Log me in as …", "sign her in": the person between the verb and its "in"; "log out and sign back in": again.
    asked: /\b(?:sign(?:s|ed|ing)?[\s-]?in(?:to)?|log(?:s|ged|ging)?[\s-]?(?:in(?:to)?|on)|(?:sign|log)(?:s|ged|ging)? (?:me|us|him|her|them|back) (?:in|on)\b|login|signin|returning (?:customer|user|member|visitor)s?)\b/i,
    // And as sites in other languages label it: "Iniciar sesión", "Inicio Sesion", "Connexion", "Anmelden", "Entrar".
    link: /\b(?:sign[\s-]?in|log[\s-]?in|login|signin|log[\s-]?on|my account|account|inici(?:ar|o) (?:de )?sesi[oó]n|acceder|entrar|connexion|se connecter|anmelden|einloggen|accedi|accesso)\b/iu,
    heldBy: (form) => hasType(form, /^password$/),
  },
  {
    purpose: 'sign-up',
    // "Subscribe me to their news" signs up too: to a newsletter, which a lone e-mail box on this page holds.
    // "How do I get an account?" asks for a new one: the sign-up (not the sign-in the word "account" also means).
    asked: /\b(?:sign(?:s|ed|ing)?[\s-]?up|sign(?:s|ed|ing)? (?:me|us|him|her|them) up|signup|subscrib(?:e|es|ed|ing)|register(?:s|ed|ing)?|registration|creat(?:e|es|ing) (?:new )?account|(?:creat(?:e|es|ing)|open(?:s|ing)?|mak(?:e|es|ing)|set(?:s|ting)? up|get(?:s|ting)?) (?:an |a |their |your |his |her |my )(?:new )?(?:(?!the |this |that )[\p{L}-]+ )?account(?!\s+(?:settings?|page|details|profile|overview|dashboard|menu)))\b|\b(?:her|his|their|my|your|our) own (?:login|account|user ?name)\b|\bset(?:s|ting)? (?:me|us|him|her|them) up with (?:an? |my |her |his |their |your |our )?(?:own |new )?(?:account|login)\b/iu,
    link: /\b(?:sign[\s-]?up|signup|register|registration|create (?:an |your )?account|join (?:now|free|us)|get started|start (?:a |your )?(?:free )?trial|reg[ií]strate|registrar(?:se|me)?|registro|crear (?:una )?cuenta|inscription|s['’]inscrire|registrieren|registrati|cadastr(?:o|e|ar)(?:-se)?)\b/iu,
    // Its own sign-up form: one that says so, an e-mail box without a password (a landing page's sign-up), or a
    // password among more fields than a sign-in asks for. A sign-in form (user name and password) is not one, nor a
    // row of an app's list that says "Create invoice" beside its checkbox (no box to type in).
    // A beat that wants an account (a user name, a password) is not held by a lone e-mail box: that is a newsletter.
    heldBy: (form, beat) =>
      (/\baccount\b|\buser ?name\b|\bpassword\b/i.test(beat) && !hasType(form, /^password$/) && textFields(form) < 2) ? false :
      (textFields(form) > 0 && /\b(?:sign[\s-]?up|register|create|join|get started|start)\b/i.test(`${form.label} ${form.submit?.label ?? ''}`)) ||
      ((hasType(form, /^email$/) || labelled(form, /e-?mail/i)) && !hasType(form, /^password$/)) ||
      (hasType(form, /^password$/) && form.fields.filter((field) => !/^(?:checkbox|radio|hidden)$/i.test(field.type)).length >= 3),
  },
  {
    purpose: 'contact',
    // "ask for a quote", "write to the studio", "who do I write to", "get hold of them", "ask the shop whether they
    // have avocados" are what a contact page is for too.
    asked: /\b(?:contact(?:s|ing)?|get(?:s|ting)? in touch|reach(?:es|ing)? (?:out|us|the team|them)|send(?:s|ing)? (?:[\w'’-]+ ){0,4}?(?:a |an )?(?:quick |short )?(?:message|note)\b|message(?:s|d|ing)? (?:the|us|them|their|our|his|her)\b|enquir\w*|inquir\w*|(?:ask(?:s|ing)?(?: for)?|request(?:s|ing)?|get(?:s|ting)?) an? (?:quote|estimate)|writ(?:e|es|ing) to (?:the|us|them|our|their)\b|who (?:do|can|should|could) (?:i|we) (?:write|talk|speak|turn) to\b|get(?:s|ting)? (?:a )?hold of (?:the|them|someone|somebody|anyone|a person|a human)\b|ask(?:s|ing)? (?:the|them|their|our) (?:shop|store|seller|team|owners?|staff|studio|company|firm|restaurant|caf[eé]|hotel|clinic|salon|bakery)\s+(?:whether|if|about|for|how|when|what|which|to)\b)/i,
    link: /\b(?:contact|contacto|contato|contatti|contattaci|contactez|kontakt|cont[aá]ctanos|get in touch|enquir\w*|inquir\w*|(?:get|request) an? (?:quote|estimate))\b/iu,
    // A message box, or more than a lone e-mail box: a newsletter sign-up is not a contact form.
    heldBy: (form) => hasType(form, /^textarea$/) || labelled(form, /message/i) || ((hasType(form, /^email$/) || labelled(form, /e-?mail/i)) && textFields(form) >= 2),
  },
];

/** "open the tables page", "go to the settings", "click through to the blog": the place a beat names. */
const GO = /\b(?:go(?:es|ing)?|navigat(?:e|es|ing)|open(?:s|ing)?|visit(?:s|ing)?|head(?:s|ing)?|switch(?:es|ing)?|jump(?:s|ing)?|click(?:s|ing)?(?: through)?|move(?:s)?|continu(?:e|es|ing)|on)\s+(?:over\s+|on\s+|through\s+)?(?:to|into|on)?\s*(?:the|their|its|your|our|a)?\s*([\p{L}\d][\p{L}\d\s'’&-]{1,40}?)\s+(?:page|tab|screen|view|link|menu|area|dashboard)\b/iu;
const NAMED_PAGE = /\b(?:the|their|its|your|our)\s+([\p{L}\d][\p{L}\d'’&-]*(?:\s+[\p{L}\d][\p{L}\d'’&-]*){0,2})\s+(?:page|screen|tab)\b/iu;

/** "go from the pricing to the contact form": two places, in that order. */
const FROM_TO = /\b(?:go(?:es|ing)?\s+|move(?:s)?\s+|head(?:s)?\s+)?from\s+((?:the\s+|their\s+|its\s+|our\s+)?[\p{L}\d][\p{L}\d\s'’-]{1,40}?)\s+(?:over\s+|on\s+)?to\s+(?=(?:the|their|its|our|a|an)\b)/iu;

export function flowExit(prompt: string, outline: PageOutline, sameSite: (url: string) => boolean): FlowExit | null {
  prompt = placesInOrder(prompt);
  const links = exitLinks(outline, sameSite);
  return links.length > 0 ? namedExit(prompt, beatsOf(prompt), outline, links) : null;
}

/** "Go from the pricing to the contact form" as two beats: "Show the pricing, then the contact form". */
export function placesInOrder(prompt: string): string {
  return prompt.replace(FROM_TO, 'Show $1, then ');
}

/** A sign-in, sign-up or contact form this page holds answers the beat that asks for one. */
export function heldHere(beat: string, outline: PageOutline): boolean {
  return purposes.some((purpose) => purpose.asked.test(beat) && outline.forms.some((form) => purpose.heldBy(form, beat)));
}

function namedExit(prompt: string, beats: Beat[], outline: PageOutline, links: OutlineAction[]): FlowExit | null {
  for (const [index, beat] of beats.entries()) {
    const found = exitFor(beat.text, outline, links);
    if (!found) continue;
    // "Start with how to get in touch with the organisers, then show where the event takes place": a way to reach
    // them, nothing to write, before a beat this page answers, is this page's (its e-mail line, its contact part); a
    // flow never comes back for the later beat.
    if (found.purpose === 'contact' && !writesSomething(beat.text) && beats.slice(index + 1).some((later) => !CONTACT_ASKED.test(later.text) && !unansweredHere(later.text, outline))) continue;
    // A flow, then: a beat before it that this page does not answer and that names one of its links ("go from the
    // pricing to the contact form" on a home page whose pricing is a page of its own) is that page, visited first.
    const earlier = beats.slice(0, index).findIndex((b) => namesLinkOnly(b.text, outline, links) !== null);
    let at = earlier >= 0 ? earlier : index;
    // A question this page has no answer for, just before the beat that leaves ("Can I send it back? Find the answer
    // in their help questions"), is asked of the page the link opens, not shown here first.
    while (earlier < 0 && at > 0 && unansweredHere(beats[at - 1]!.text, outline)) at--;
    const link = earlier >= 0 ? namesLinkOnly(beats[earlier]!.text, outline, links)! : found.link;
    const before = beats.slice(0, at).map((b) => b.text).join(', then ');
    return { before, after: remainderFrom(prompt, beats[at]!.text), link, purpose: earlier >= 0 ? 'page' : found.purpose };
  }
  return null;
}

const CONTACT_ASKED = purposes.find((purpose) => purpose.purpose === 'contact')!.asked;

/** Whether a beat names something to type: an address, a name, a message or a field's value. */
function writesSomething(beat: string): boolean {
  const values = namedValues(beat);
  return !!(values.email || values.name || values.message || values.fields.length > 0 || values.texts.length > 0);
}

export function unansweredHere(beat: string, outline: PageOutline): boolean {
  const meaning = promptSubjects(beat, outline);
  return meaning.subjects.length === 0 && meaning.endsOn === null && !meaning.endsOnAction;
}

/** The words a beat asks for, beyond its request ("go from", "show me", "then"). */
const REQUEST = /\b(?:go(?:es|ing)?|start(?:s|ing)?|begin(?:s|ning)?|from|to|show|me|us|the|then|and|first|with|at|on|see|visit|open|a|an|our|their|its)\b/gi;

/**
 * The link a beat names when nothing on this page answers it: every word it asks for is in the link's label, and no
 * section's heading has them.
 */
function namesLinkOnly(beat: string, outline: PageOutline, links: OutlineAction[]): OutlineAction | null {
  const wanted = keywords(beat.replace(REQUEST, ' '));
  if (wanted.length === 0 || wanted.length > 3) return null;
  const headed = outline.sections.some((section) => {
    const words = new Set(keywords(`${section.heading ?? ''} ${section.kicker ?? ''}`));
    return wanted.every((word) => words.has(word));
  });
  if (headed) return null;
  return links.find((link) => {
    const words = new Set(keywords(link.label));
    return wanted.every((word) => words.has(word));
  }) ?? null;
}

function exitFor(beat: string, outline: PageOutline, links: OutlineAction[]): { link: OutlineAction; purpose: FlowPurpose } | null {
  const item = itemOpened(beat, links);
  if (item) return { link: item, purpose: 'page' };
  const called = calledByName(beat, outline, links);
  if (called) return { link: called, purpose: 'page' };
  for (const purpose of inOrderFor(beat)) {
    // "…the sample screens like login and profile": a sign-in given as an example of what to show is not asked for.
    if (!purpose.asked.test(beat.replace(GIVEN_AS_EXAMPLE, ''))) continue;
    // "Go to the Register page and fill it in": the page named is another page, unless this is it (arrived at, its
    // form holds the beat: a "login" said on the way does not send the flow on to the sign-in page).
    const named = NAMED_PAGE.exec(beat)?.[1];
    const namedIsHere = named !== undefined && isThisPage(named, outline);
    if (outline.forms.some((form) => purpose.heldBy(form, beat)) && (!named || namedIsHere)) return null;
    const link = best(links.filter((candidate) => purpose.link.test(`${candidate.label} ${pathWords(candidate.href)}`)), purpose.link);
    if (link) return { link, purpose: purpose.purpose };
    // A sign-up with no link of its own in sight (in a menu that stays closed): sign-in pages link to it.
    if (purpose.purpose === 'sign-up') {
      const signIn = purposes[0]!;
      const way = best(links.filter((candidate) => signIn.link.test(`${candidate.label} ${pathWords(candidate.href)}`)), signIn.link);
      if (way) return { link: way, purpose: 'sign-up' };
    }
  }
  const adding = addsNew(beat, outline, links);
  if (adding) return { link: adding, purpose: 'page' };
  // An app's conventional place for what the beat does ("write a new email" is its "Compose").
  const here = `${outline.title} ${pathWords(outline.url)}`;
  for (const place of APP_PLACES) {
    if (!place.asked.test(beat)) continue;
    // Arrived: the mail app is where "from the mailbox" is done.
    if (place.link.test(here) || place.or?.test(here)) return null;
    for (const words of place.or ? [place.link, place.or] : [place.link]) {
      const link = best(links.filter((candidate) => words.test(`${candidate.label} ${pathWords(candidate.href)}`)), words);
      if (link) return { link, purpose: 'page' };
    }
  }
  const mine = ownPlace(beat, outline, links);
  if (mine) return { link: mine, purpose: 'page' };
  const inPlace = placeNamed(beat, outline, links);
  if (inPlace) return { link: inPlace, purpose: 'page' };
  // "…on its own page", "a separate page": the prompt wants the page for it, even where this page has a part on it.
  const ownPage = OWN_PAGE.test(beat);
  const named = ownPage ? undefined : (GO.exec(beat)?.[1] ?? NAMED_PAGE.exec(beat)?.[1]);
  if (!named) return unansweredExit(beat.replace(OWN_PAGE, ' '), outline, links, ownPage);
  const wanted = keywords(named);
  if (wanted.length === 0) return null;
  const matching = links.filter((link) => {
    const words = new Set([...keywords(link.label), ...keywords(pathWords(link.href))]);
    return wanted.every((word) => words.has(word));
  });
  const link = matching.sort((a, b) => keywords(a.label).length - keywords(b.label).length)[0];
  return link ? { link, purpose: 'page' } : unansweredExit(beat, outline, links, false);
}

/** "…, like login and profile", "such as …", "for example …": examples to the end of the beat (not "I'd like to"). */
const GIVEN_AS_EXAMPLE = /[,;]?\s*(?<!\b(?:i|we|you|they|would|i['’]d|we['’]d|you['’]d|they['’]d)\s)\b(?:like|such as|for example|for instance|e\.g\.)\s+.*$/i;

/**
 * "My colleague needs her own login: sign her up as …" says "login" and asks for a new account: where a beat asks for
 * both, the sign-up is what it wants (one who signs in has an account already and would not say "sign up").
 */
function inOrderFor(beat: string): Purpose[] {
  const signUp = purposes.find((purpose) => purpose.purpose === 'sign-up')!;
  return signUp.asked.test(beat) ? [signUp, ...purposes.filter((purpose) => purpose !== signUp)] : purposes;
}

/**
 * A link the prompt calls by its name, as the interface writes it: "the account details in Settings", "open Register
 * from the Account menu", "it's under About, then Pricing". A capitalised word in mid-sentence after "in", "under",
 * "from", "to", "open" or "click" is the name of a control, not a subject; it beats what the prompt's other words
 * suggest ("account" is no sign-up here). Not where a part of this page is headed by it ("the FAQ" on a page with
 * an FAQ).
 */
function calledByName(beat: string, outline: PageOutline, links: OutlineAction[]): OutlineAction | null {
  return links.find((link) => {
    const label = link.label.trim();
    if (!/^\p{Lu}[\p{L}'’&-]*(?:\s+\p{Lu}?[\p{L}'’&-]*){0,2}$/u.test(label) || label.length < 3 || STOCK_PHRASE.test(label)) return false;
    if (isSiteName(link, outline)) return false;
    const escaped = label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    const said = new RegExp(`\\b(?:[Ii]n|[Uu]nder|[Ff]rom|[Ii]nto|[Tt]o|[Oo]n|[Oo]pens?|[Cc]licks?|[Pp]ress|[Vv]ia)\\s+(?:the\\s+)?${escaped}(?![\\p{L}])`, 'u').test(beat);
    return said && !outline.sections.some((section) => headedBy(section, label));
  }) ?? null;
}

/**
 * The site's own name on its link home (a dashboard's logo "Vali" to index.html): "sign in to Vali" names the product,
 * not a control to click; followed, it left the flow on the template's landing page.
 */
function isSiteName(link: OutlineAction, outline: PageOutline): boolean {
  const words = keywords(link.label);
  const title = new Set(keywords(outline.title));
  if (words.length === 0 || !words.every((word) => title.has(word)) || !link.href) return false;
  try {
    return /\/(?:index\.html?)?$/i.test(new URL(link.href, outline.url).pathname);
  } catch {
    return false;
  }
}

/** "open the Site Reliability Engineer posting", "read the full story", "the Business Controller job's details": an item opened. */
const OPEN_ITEM = /\b(?:open(?:s|ing)?|read(?:s|ing)?|view(?:s|ing)?|click(?:s|ing)?(?: on| into)?|go(?:es)? into|dig(?:s)? into)\s+(?:up\s+)?(.{2,80})|(.{2,60}?)(?:'s|’s)\s+(?:details|description|posting|page|full story)\b/iu;
/** Names in the item's words: two capitalised words or more ("Site Reliability Engineer", "Business Controller"). */
const ITEM_NAME = /\p{Lu}[\p{L}\d'’&-]*(?:\s+(?:of\s+|for\s+|&\s+)?\p{Lu}[\p{L}\d'’&-]*)+/gu;
/** "one of the finished projects": any item of that kind (the plural noun). */
const ONE_OF = /\bone of (?:the|their|its|our|his|her|these|those)\s+(?:[\p{L}-]+\s+){0,2}?([\p{L}-]+s)\b/iu;

/**
 * Issue 56: an item of a list opened by its name: a job posting, an article, a project, a product, whose card's
 * heading or link says the name ("open the Site Reliability Engineer posting" clicks the "Apply Now" of the card
 * headed "Site Reliability Engineer"). "Open one of the finished projects" opens the first link whose address says
 * the kind of item ("project-details.html"), a card's first. Only on a request to open: a name said in passing ("show
 * the Pro Plan") stays on this page.
 */
function itemOpened(beat: string, links: OutlineAction[]): OutlineAction | null {
  const asked = OPEN_ITEM.exec(beat);
  if (!asked) return null;
  const words = asked[1] ?? asked[2]!;
  const names = [...words.matchAll(ITEM_NAME)].map((match) => keywords(match[0])).filter((name) => name.length >= 2);
  for (const name of names) {
    const found = links.find((link) => {
      const said = new Set(keywords(`${link.label} ${link.context ?? ''}`));
      return name.every((word) => said.has(word));
    });
    if (found) return found;
  }
  const kind = ONE_OF.exec(words)?.[1];
  if (!kind) return null;
  const root = stem(kind.toLowerCase());
  const ofKind = links.filter((link) => keywords(pathWords(link.href)).some((word) => stem(word) === root || stem(word).startsWith(root)));
  return ofKind.find((link) => link.context) ?? null;
}

/** "Enrol a new student", "add a new product", "create an invoice": the thing made, after a verb that makes it. */
const MAKES_NEW = /\b(?:add|adds|adding|create|creates|creating|enrol|enroll|enrols|enrolls|enrolling|register|registers|registering|onboard|make|makes|set up|put in)\s+(?:a |an |one |another )?(?:new\s+)?([\p{L}-]{3,})\b/iu;
/** How an admin's menu names the page that makes one: "Add Student", "New Invoice", "Create Product". */
const MAKER_LINK = /^(?:add|new|create|enrol|enroll|register)\b/i;

/**
 * The page that makes the thing the beat makes: "enrol a new student, Tomas Reyes, …" is the menu's "Add Student"
 * (add-student.html), not the dashboard the flow starts on. Only a link that says a making word and the thing; not
 * where this page is that page already (its title or address says the thing).
 */
function addsNew(beat: string, outline: PageOutline, links: OutlineAction[]): OutlineAction | null {
  const thing = MAKES_NEW.exec(beat)?.[1];
  if (!thing || /^(?:account|note|comment|message|task|item|row|entry)$/i.test(thing)) return null;
  const root = stem(thing.toLowerCase());
  const saysThing = (text: string) => keywords(text).some((word) => stem(word) === root);
  if (saysThing(`${outline.title} ${pathWords(outline.url)}`) && outline.forms.length > 0) return null;
  return links.find((link) => MAKER_LINK.test(link.label.trim()) && saysThing(link.label)) ?? null;
}

/** Whether this page is the one the words name: its title or its address says them ("Register" on register.html). */
function isThisPage(name: string, outline: PageOutline): boolean {
  const words = keywords(name);
  const here = new Set([...keywords(outline.title), ...keywords(pathWords(outline.url))]);
  return words.length > 0 && words.every((word) => here.has(word));
}

/** What an app's menu calls the place where a thing is done, by the convention every mail or chat app follows. */
const APP_PLACES: Array<{ asked: RegExp; link: RegExp; or?: RegExp }> = [
  {
    // "Send a note to finance@example.com": a message to an address is written in the mail app.
    asked: /\b(?:writ(?:e|es|ing)|compos(?:e|es|ing)|draft(?:s|ing)?)\s+(?:a\s+|an\s+)?(?:new\s+)?(?:e-?mail|mail|message)\b|\bsend(?:s|ing)?\s+(?:a\s+|an\s+)?(?:quick\s+|short\s+)?(?:note|message|e-?mail|mail)\s+to\s+[\w.+-]+@|\be-?mail(?:s|ing)?\s+(?:the|a|an|our|my|their|him|her|them)\b|\bfrom\s+(?:the|my|their|your)\s+(?:mailbox|inbox)\b/i,
    link: /\b(?:compose|new (?:e-?mail|mail|message)|write)\b/i,
    // No "Compose" in sight: the mail app itself, where it is.
    or: /\b(?:e-?mail|mail|mailbox|inbox)\b/i,
  },
  // One who cannot sign in ("I can't remember my password, send a reset to …") asks for the "Forgot password?" page.
  {
    asked: /\b(?:forg[eo]t(?:ten)?|can(?:no|['’])?t remember|don['’]?t remember|lost)\s+(?:my|your|their|his|her|the)\s+password\b|\bpassword\s+(?:reset|recovery)\b|\bsend(?:s|ing)?\s+(?:me\s+|her\s+|him\s+|them\s+)?an?\s+(?:password\s+)?reset\b/i,
    link: /\b(?:forg[eo]t|recover(?:y)?|reset|lost)\b/i,
  },
  // "I'm ready to pay for my cart", "go through checkout": the shop's checkout, which its cart leads to ("Proceed To
  // Checkout"); from a page with no way to it in sight, the cart (below) comes first.
  {
    asked: /\b(?:check(?:ing)?[\s-]?out|(?:ready|want|going|about) to (?:pay|buy|order)|pay(?:ing)? (?:for|by|with)|place (?:my|the|an|our) order)\b/i,
    link: /\bcheck[\s-]?out\b/i,
  },
  // "What's in my cart", "use a code on my basket": the shop's cart (an icon in its header, read by its picture).
  { asked: /\b(?:my|the|your|our)\s+(?:shopping\s+)?(?:cart|basket)\b|\bmy\s+shopping\s+bag\b/i, link: /\b(?:cart|basket)\b/i, or: /\b(?:shopping bag|bag)\b/i },
  // A password is changed in the account's settings (a "forgot password" page is for one who cannot sign in).
  { asked: /\b(?:change|update|reset|set|edit)\s+(?:my\s+|your\s+|the\s+|their\s+|a\s+new\s+)?password\b/i, link: /\b(?:settings?|security|account)\b/i },
];

const ABOUT_THE_SAME = /^\s*(?:and\s+|then\s+|also\s+)?(?:what|how much|how|where|when|which|why|who)\s+(?:[\p{L}'’]+\s+){0,2}?(?:they|them|it|its|their|these|those)\b/iu;
const PART_OF_PAGE = /\b(?:the|that)\s+(?:part|section|bit|block|band|area)\s+(?:where|that|which|with|in which)\b/i;
/**
 * "The FAQs in the docs", "a code snippet in my documentation", "on their blog": a part of the site the beat places
 * what it asks for in. The link whose address or label says that place leads there, unless this page's own address
 * does (already in the docs). Not the title: a template's pages all share one ("CoderDocs - … Documentation Template").
 */
const IN_PLACE = /\b(?:in|on|inside|within|from)\s+(?:the|their|its|your|our|my|his|her)\s+(docs|documentation|blog|forum|wiki|knowledge ?base|help cent(?:er|re)|changelog)\b/i;
/** A place's other names, as sites spell their addresses. */
const PLACE_NAMES: Record<string, string[]> = { docs: ['docs', 'doc', 'documentation'], documentation: ['docs', 'doc', 'documentation'], knowledgebase: ['kb', 'knowledgebase', 'knowledge'] };

function placeNamed(beat: string, outline: PageOutline, links: OutlineAction[]): OutlineAction | null {
  const said = IN_PLACE.exec(beat)?.[1]?.toLowerCase().replace(/\s+/g, '');
  if (!said) return null;
  const names = new Set(PLACE_NAMES[said] ?? [said.replace(/cent(?:er|re)$/, '')]);
  const says = (text: string) => keywords(text).some((word) => names.has(word));
  if (says(pathWords(outline.url))) return null;
  return links.find((link) => says(pathWords(link.href))) ?? links.find((link) => says(link.label)) ?? null;
}

/**
 * "Put … as the postcode on my profile", "add my site to my profile": the signed-in person's own page, which an app's
 * menu calls "Profile", "Profile Settings", "My Account" or "Account" (settings). A link that says "profile" first,
 * then one that says "account", by its label before its address (materio's "Notifications" lives at
 * pages-account-settings-notifications.html). Not where this page is that page already.
 */
const OWN_PROFILE = /\b(?:on|in|to|into|from|at|under)\s+(?:my|her|his|their|our|your)\s+(?:user\s+)?(profile|account)(?!\s+(?:picture|photo|page\s+link))\b/i;

function ownPlace(beat: string, outline: PageOutline, links: OutlineAction[]): OutlineAction | null {
  if (!OWN_PROFILE.test(beat)) return null;
  const here = `${outline.title} ${pathWords(outline.url)}`;
  if (/\b(?:profile|account)\b/i.test(here)) return null;
  for (const words of [/\bprofile\b/i, /\baccount\b/i]) {
    const link = links.find((candidate) => words.test(candidate.label)) ?? links.find((candidate) => words.test(pathWords(candidate.href)));
    if (link) return link;
  }
  return null;
}

/** Words that name a kind of page part, not which one ("Form elements", "Basic components"). */
const GENERIC_HEAD = /^(?:elements?|components?|widgets?|controls?|parts?|pieces?)$/i;

const OWN_PAGE = /\b(?:on|to|in)\s+(?:its|their|a|the)\s+(?:own|separate|dedicated|full|own dedicated)\s+page\b/i;

/**
 * A beat this page has nothing for, and a link of the page that says it: every word of a link of two words or more
 * is in the beat ("Forgot Password?" for "someone forgot their password"), or the link's one word means what the
 * beat asks for ("Pricing" for "compare the three plans", "Services" for "which services does the studio offer").
 */
function unansweredExit(beat: string, outline: PageOutline, links: OutlineAction[], wantsPage: boolean): { link: OutlineAction; purpose: FlowPurpose } | null {
  // "The part where they invite me to tell my story" asks for a part of this page (the one with that call to action),
  // not for where its button leads.
  if (!wantsPage && PART_OF_PAGE.test(beat)) return null;
  // "…and what do they cost?": a short question about what the beat before showed ("they", "it") asks more of the
  // same part, not for a page of its own (the products' prices are on their cards, not behind "Pricing").
  if (!wantsPage && ABOUT_THE_SAME.test(beat) && beat.trim().split(/\s+/).length <= 7) return null;
  // A link the prompt names word for word ("Forgot password?"), not a call to action's stock phrase ("Get started").
  const beatWords = new Set(keywords(beat));
  // "Modals" for "a modal dialog", "Calendars" for "a calendar": a docs sidebar names its pages in the plural.
  const beatStems = new Set([...beatWords].map(stem));
  // Said the same way, in any number: "ES 2015 Classes" for "an ES2015 class" (a version run into its name or not).
  const beatRoots = new Set([...keywords(beat), ...keywords(apart(beat))].map(root));
  const named = links.find((link) => {
    const words = keywords(apart(link.label));
    return words.length >= 2 && !STOCK_PHRASE.test(link.label) && words.every((word) => beatWords.has(word) || beatRoots.has(root(word)));
  });
  if (named) return { link: named, purpose: 'page' };
  // "Walk me to the beginner's guide": a docs site's page for newcomers is its "Getting Started", "Quick start",
  // "Introduction" (a call to action's "Get started" is a sign-up, not a guide).
  if (FIRST_STEPS_ASKED.test(beat)) {
    const guide = links.find((link) => FIRST_STEPS_LINK.test(link.label) && !STOCK_PHRASE.test(link.label));
    if (guide) return { link: guide, purpose: 'page' };
  }
  // A link whose one or two words the beat says ("Services" for "show the services on offer"), where no part of this
  // page is headed by them: the site's own page for it beats a part that only mentions it (a tile grid of the
  // site's pages, a "design. coding." block).
  const said = links.find((link) => {
    const words = keywords(link.label).filter((word) => !FUNCTION_WORDS.has(stem(word)));
    // (A stem that ends in "e" is also said without it: "theming" is "them" to the stemmer, "Themes" "theme".)
    const saidIn = (word: string) => beatStems.has(stem(word)) || (stem(word).endsWith('e') && beatStems.has(stem(word).slice(0, -1)));
    if (words.length < 1 || words.length > 2 || words.length !== keywords(link.label).length || STOCK_PHRASE.test(link.label)) return false;
    // "Form elements", "UI components": the last word only says it is a kind of page part; the first says which.
    const head = words.length === 2 && GENERIC_HEAD.test(words[1]!) ? words[0]! : words.at(-1)!;
    if (!asksFor(beat, stem(head))) return false;
    if (words.every((word) => (word.length > 3 || acronym(link.label, word)) && saidIn(word))) return true;
    // A docs sidebar's "Text Inputs" for "find the inputs docs": its head word said, and no other link has it; as a
    // thing, not as what someone does ("what a beginner should watch first" is no "Anime Watching").
    return words.length === 2 && head.length > 3 && saidIn(head) && !saidAsVerb(beat, stem(head)) && links.filter((other) => keywords(other.label).some((word) => stem(word) === stem(head))).length === 1;
  });
  const beatConcepts = conceptsOf(beat);
  // A one-word label means what the beat asks for ("Pricing" for "compare the plans", "F.A.Q" for "help questions");
  // or, where the label is a word of its own (a misspelt "MEMEBERSHIP"), the one word of its address ("pricing.html").
  const meaningOf = (link: OutlineAction): string[] => {
    const words = keywords(spelledOut(link.label));
    // A label of two words that a page's phrase names as one thing ("Release Notes" is the change log).
    if (words.length === 2) return pagePhrases.filter(([pattern]) => new RegExp(pattern.source, pattern.flags.replace('g', '')).test(link.label)).map(([, concept]) => concept).filter((concept) => beatConcepts.has(concept));
    if (words.length !== 1 || words[0]!.length <= 2) return [];
    // The page's own name: the last part of its address ("/tf-gymfit/pricing.html" → "pricing").
    const path = keywords(pathWords(link.href).split(' ').at(-1) ?? '');
    const shared = (text: string) => [...conceptsOf(text)].filter((concept) => beatConcepts.has(concept));
    const byLabel = words[0]!.length > 3 || acronym(spelledOut(link.label), words[0]!) ? shared(spelledOut(link.label)) : [];
    return byLabel.length > 0 ? byLabel : path.length === 1 && path[0]!.length > 3 ? shared(path[0]!) : [];
  };
  // Of several, the one whose meaning the beat says most ("cost … per month … packages" over "join").
  const weight = (link: OutlineAction) => Math.max(0, ...meaningOf(link).map((concept) => conceptWeight(beat, concept)));
  const meant = links.filter((link) => meaningOf(link).length > 0).sort((a, b) => weight(b) - weight(a))[0];
  // Only where the page has nothing for it at all: a weak match on this page is still this page's.
  if (!wantsPage) {
    const meaning = promptSubjects(beat, outline);
    const answered = [...meaning.subjects, ...(meaning.endsOn ? [meaning.endsOn] : [])].filter((subject) => subject.section.kind !== 'footer');
    if (said && !answered.some((subject) => headedBy(subject.section, said.label)) && !namedMoreHere(beat, said.label, outline)) return { link: said, purpose: 'page' };
    // A link that means it ("Pricing" for "what it costs") beats parts of this page that answer by other words only
    // (a grid matched by "does", testimonials by "people"): none is of its kind, none is headed by its meaning.
    // Only for a beat that says the link's meaning twice over ("cost … per month … packages", "help questions …
    // the answer"): one word of it ("who the doctors are") left a dozen one-page prompts off their page.
    if (meant && weight(meant) >= 2 && answered.length > 0 && !meaning.endsOnAction && !meaningOf(meant).some((concept) => pageHolds(outline, answered.map((subject) => subject.section), concept))) {
      return { link: meant, purpose: 'page' };
    }
    if (answered.length > 0 || meaning.endsOnAction) return null;
  }
  // A form asked for on a page that has forms is one of those, whatever its words; a header's search box is no such
  // form ("open the forms" on a dashboard whose one box searches it goes to its "Form elements").
  if (/\b(?:form|box|field)s?\b/i.test(beat) && outline.forms.some((form) => !searchBoxOnly(form) || /\bsearch/i.test(beat))) return null;
  return meant ? { link: meant, purpose: 'page' } : null;
}

/** Whether the beat says a word (a stem) as a verb: after a modal, "to" or a person ("should watch", "I watch"). */
function saidAsVerb(beat: string, word: string): boolean {
  const said = beat.toLowerCase().match(/[\p{L}'’]+/gu) ?? [];
  return said.some((token, i) => i > 0 && stem(token) === word && /^(?:should|would|could|can|will|must|to|i|we|you|they|he|she|do|does|did)$/.test(said[i - 1]!));
}

/** A guide for newcomers asked for by name ("the beginner's guide", "a tutorial for beginners"). */
const FIRST_STEPS_ASKED = /\bbeginner(?:['’]?s)?['’]?\s+(?:guide|tutorial|docs|documentation|page|intro(?:duction)?)\b|\b(?:guide|tutorial|intro(?:duction)?|docs)\s+for\s+(?:absolute\s+|complete\s+|total\s+)?(?:beginners|newcomers|first-timers)\b|\b(?:getting[\s-]started|quick[\s-]?start|first[\s-]steps)\s+(?:guide|page|tutorial|docs)\b/i;
/** What a docs site calls that guide. */
const FIRST_STEPS_LINK = /\bgetting[\s-]started\b|\bquick[\s-]?start\b|\bbeginners?\b|\bfirst[\s-]steps\b|^\s*introduction\b/i;

/** "ES2015" → "ES 2015", "HTML5" → "HTML 5": a name and its version, apart. */
const apart = (text: string) => text.replace(/(\p{L})(\d)/gu, '$1 $2').replace(/(\d)(\p{L})/gu, '$1 $2');

/** A word's root in any number: "classes" (which keywords() leaves as "classe") and "class" are one. */
const root = (word: string) => stem(word).replace(/(?<=(?:s|x|z|ch|sh))e$/, '');

/** What a docs page teaches one to do with the thing it is about ("how do I draw…", "I want to draw my first chart"). */
const MAKING = '(?:use|build|make|add|create|set up|style|get|draw|plot|embed)';

/**
 * The beat asks for the word itself ("which services…", "show the services on offer", "see their recent work"), not
 * only says it in passing ("what people think of the doctors", "start a project with the studio").
 */
function asksFor(beat: string, word: string): boolean {
  const article = `(?:me\\s+|us\\s+)?(?:(?:the|all|every|its|their|our|your|my|his|her|a|an|some)\\s+)?`;
  // A request: "show the services", "update my profile"; or a question a docs page answers, which may name two
  // things ("is there a date picker or a calendar", "how do I build a modal dialog").
  // The word itself or another form of it ("theming" for "Themes": its stem is the word's).
  const isWord = (said: string) => said.startsWith(word) || stem(said) === word || (said.length >= word.length && stem(said) === word.replace(/e$/, ''));
  // (A name with a dot inside, "Morris.js", is one word.)
  const after = (request: string, words: number) => new RegExp(`\\b(?:${request})\\s+${article}((?:[\\p{L}'’-]+(?:\\.[\\p{L}\\d]+)*\\s*){1,${words}})`, 'giu');
  const saysIt = (pattern: RegExp) => [...beat.matchAll(pattern)].some((match) => match[1]!.toLowerCase().split(/\s+/).some((said) => said !== '' && isWord(said)));
  return (
    // "look them up in the datatable", "search the directory": where something is looked up.
    saysIt(after('show|see|list|browse|open|view|visit|which|what|find|explore|tour|read|bring up|update|change|edit|look(?: (?:it|them|this|that|him|her))? up(?: in| on)?|search(?:es|ing)?(?: (?:in|on|through))?', 4)) ||
    saysIt(after(`how (?:do|can|would|should) (?:i|we|you) ${MAKING}|(?:i|we) (?:want|need|would like|['’]d like) to ${MAKING}|is there|are there`, 5))
  );
}

/** The kinds of part that hold a concept (section-kinds.ts); a concept without one is held by a heading that says it. */
const KIND_OF: Record<string, OutlineSection['kind']> = { pricing: 'pricing', faq: 'faq', testimonials: 'testimonials' };

/**
 * Whether this page holds a concept itself: a part of its kind anywhere on it, or one of the parts that answer the
 * beat headed by a word of it (what customers say is no team, whatever word they say it with).
 */
function pageHolds(outline: PageOutline, answering: OutlineSection[], concept: string): boolean {
  const kind = KIND_OF[concept];
  if (kind && outline.sections.some((section) => section.kind === kind)) return true;
  const stems = new Set((concepts[concept] ?? []).map(stem).filter((word) => !FUNCTION_WORDS.has(word)));
  return answering.some((section) => {
    if (section.kind === 'testimonials' && concept !== 'testimonials') return false;
    return promptWords(`${section.heading ?? ''} ${section.kicker ?? ''}`).map(stem).some((word) => stems.has(word));
  });
}

/** "F.A.Q" → "FAQ": an acronym written with dots is one word. */
function spelledOut(label: string): string {
  return label.replace(/\b(\p{Lu})\.(?=\p{Lu}(?:\.|\b))/gu, '$1');
}

/** A short word the label writes in capitals ("FAQ's", "API"): a name, not a little word. */
function acronym(label: string, word: string): boolean {
  return word.length >= 2 && new RegExp(`\\b${word.toUpperCase()}(?![\\p{Ll}])`, 'u').test(label);
}

/** A part of the page whose heading or kicker has every word of a link's label. */
/**
 * Whether this page's address or one of its headings says the link's words and more of the beat's: "search the
 * influencer finder" on influencer-finder.html is done here, not behind the sidebar's "Influencer" (its dashboard).
 */
function namedMoreHere(beat: string, label: string, outline: PageOutline): boolean {
  const asked = new Set(keywords(beat));
  const linkWords = keywords(label);
  const saysMore = (words: string[]) => linkWords.every((word) => words.includes(word)) && words.some((word) => asked.has(word) && !linkWords.includes(word));
  // This page's own name: the last part of its address ("influencer-finder.html").
  if (saysMore(keywords(pathWords(outline.url.split(/[?#]/)[0]!.split('/').filter(Boolean).at(-1) ?? null)))) return true;
  return outline.sections.some((section) => section.kind !== 'footer' && saysMore(keywords(`${section.heading ?? ''} ${section.kicker ?? ''}`)));
}

function headedBy(section: { heading?: string | null; kicker?: string | null }, label: string): boolean {
  const words = new Set(keywords(`${section.heading ?? ''} ${section.kicker ?? ''}`));
  return keywords(label).every((word) => words.has(word));
}

const STOCK_PHRASE = /^\s*(?:get|start|learn|see|view|read|try|find|discover|explore|watch|download|book|shop|join|click|go)\b/i;

/** Words of the lexicon that are as often just grammar ("hear about", "what it includes", "the first ad"). */
const FUNCTION_WORDS = new Set(['about', 'what', 'can', 'doe', 'does', 'free', 'help', 'first', 'word', 'much', 'face', 'behind', 'meet', 'since', 'call', 'write', 'book']);

/** The lexicon's concepts a text's words belong to (plan/lexicon.ts). */
function conceptsOf(text: string): Set<string> {
  const stems = new Set(promptWords(text).map(stem).filter((word) => !FUNCTION_WORDS.has(word)));
  const found = new Set<string>();
  for (const [concept, words] of Object.entries(concepts)) if (words.some((word) => stems.has(stem(word)))) found.add(concept);
  return found;
}

/** How many of a text's words belong to a concept. */
function conceptWeight(text: string, concept: string): number {
  const stems = new Set((concepts[concept] ?? []).map(stem));
  return promptWords(text).map(stem).filter((word) => !FUNCTION_WORDS.has(word) && stems.has(word)).length;
}

/** The page's links to other pages of the site: navigation first, then the page's own buttons. */
export function exitLinks(outline: PageOutline, sameSite: (url: string) => boolean): OutlineAction[] {
  const here = stripHash(outline.url);
  const seen = new Set<string>();
  // Links in sight first; then those of closed menus, which the demo opens first (their `opener`); then the page's
  // other links ("Forgot password?", a tile that says "Works").
  return [...outline.navigation, ...outline.actions, ...(outline.menuLinks ?? []), ...(outline.contentLinks ?? [])].filter((link) => {
    if (!link.href) return false;
    let url: URL;
    try {
      url = new URL(link.href, outline.url);
    } catch {
      return false;
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return false;
    if (!sameSite(url.href)) return false;
    // "#/settings", "#!/inbox": an app's own route, another screen; "#pricing": a place on this page.
    const route = /^#(?:!\/?|\/)[\p{L}\d]/u.test(url.hash) && url.href !== outline.url;
    if (stripHash(url.href) === here && !route) return false;
    // Cards' links that say the same ("Apply Now") to the same place are told apart by their card's heading.
    const key = `${link.label}|${url.href}|${link.context ?? ''}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** Of the links a purpose matches, the one whose label says it (not only its address), the shortest label first. */
function best(links: OutlineAction[], words: RegExp): OutlineAction | null {
  const byLabel = links.filter((link) => words.test(link.label));
  const pool = byLabel.length > 0 ? byLabel : links;
  return pool.sort((a, b) => a.label.length - b.label.length)[0] ?? null;
}

/** "/pages/sign-in.html" → "pages sign in html": an address's words, for a link whose label is an icon. */
function pathWords(href: string | null): string {
  if (!href) return '';
  try {
    return decodeURIComponent(new URL(href, 'http://x/').pathname).replace(/[/_.-]+/g, ' ').replace(/\bhtml?\b/g, '').trim();
  } catch {
    return '';
  }
}

export function remainderFrom(prompt: string, beat: string): string {
  const at = prompt.indexOf(beat);
  return at >= 0 ? prompt.slice(at).trim() : beat;
}

/** An address without its anchor, and a folder's "index.html" as the folder ("/site/index.html" is "/site/"). */
function stripHash(url: string): string {
  return url.replace(/#.*$/, '').replace(/\/index\.html?$/i, '/');
}
