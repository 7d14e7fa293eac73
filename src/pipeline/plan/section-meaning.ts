import type { OutlineAction, OutlineSection, PageOutline } from '../types.js';
import { actionsIn, isFixed, sectionName, sectionsInOrder } from './outline-query.js';

/**
 * What a prompt asks to see, by meaning rather than by keyword: each clause of the prompt ("the team", "how to get
 * in touch", "end on the sign-up") is matched against every section's heading, id and classes, the navigation
 * links that point at it, its kind and its text. Words are stemmed, and a lexicon of the vocabularies people use for
 * the usual parts of a landing page lets "how much it costs" find "Plans" and "people behind it" find "Our team".
 *
 * A lexicon rather than shipped word vectors: it is small, offline and explainable in the signals; the vectors were
 * not measured against it (see docs/decisions.md).
 */

/** Concepts: each groups the stems that mean the same part of a landing page. */
const concepts: Record<string, string[]> = {
  pricing: ['price', 'pric', 'plan', 'tier', 'cost', 'pay', 'paid', 'billing', 'bill', 'subscription', 'afford', 'cheap', 'expensive', 'budget', 'package', 'fee', 'money', 'dollar', 'monthly', 'annual', 'much', 'spend', 'quote', 'ticket', 'admission', 'pass',
    // courses and big purchases
    'payment', 'instalment', 'installment', 'financing', 'tuition', 'scholarship', 'rate'],
  testimonials: ['testimonial', 'review', 'customer', 'client', 'love', 'feedback', 'rating', 'star', 'praise', 'opinion', 'word', 'mouth', 'happy', 'rave', 'endorsement', 'buyer', 'owner', 'verified'],
  team: ['team', 'people', 'founder', 'staff', 'crew', 'member', 'behind', 'employee', 'leadership', 'leader', 'face', 'who', 'person', 'human', 'squad', 'hire', 'meet', 'makers',
    // an open-source project's people
    'contributor', 'maintainer',
    // an event's people
    'speaker', 'stage', 'keynote', 'lineup', 'presenter', 'panelist'],
  contact: ['contact', 'touch', 'reach', 'email', 'call', 'message', 'talk', 'write', 'address', 'phone', 'inbox', 'chat', 'connect', 'hello', 'enquiry', 'inquiry', 'enquire', 'inquire', 'reply', 'book', 'booking', 'reserve', 'reservation', 'sales', 'form'],
  faq: ['faq', 'question', 'query', 'ask', 'answer', 'frequently', 'wonder', 'doubt', 'common', 'curious', 'concern', 'objection', 'help', 'assistance', 'unsure', 'worry', 'worried', 'hesitation'],
  stats: ['stat', 'statistic', 'number', 'metric', 'figure', 'count', 'result', 'growth', 'percent', 'uptime', 'impact', 'measure', 'scale', 'million', 'kpi', 'track', 'record', 'proof', 'outcome', 'achievement', 'achieve', 'accomplish'],
  history: ['history', 'timeline', 'journey', 'founded', 'year', 'milestone', 'past', 'began', 'origin', 'story', 'started', 'evolution', 'chronology', 'since', 'decade'],
  signup: ['signup', 'sign', 'register', 'registration', 'join', 'account', 'trial', 'onboard', 'waitlist', 'subscribe', 'newsletter', 'enrol', 'enroll', 'create', 'free'],
  features: ['feature', 'capability', 'tool', 'function', 'functionality', 'benefit', 'power', 'can', 'does', 'toolkit', 'what'],
  integrations: ['integration', 'integrate', 'plugin', 'addon', 'extension', 'extend', 'ecosystem', 'app', 'partner', 'api', 'connector', 'stack', 'sync'],
  security: ['security', 'secure', 'privacy', 'compliance', 'safe', 'protect', 'encryption', 'gdpr', 'soc', 'trust'],
  hero: ['hero', 'headline', 'tagline', 'fold', 'first'],
  // a closing band: "end on the banner" (a strip across the page is as often the last call to action as the hero)
  cta: ['cta', 'banner', 'closing'],
  // mobile apps: where to get it
  download: ['download', 'install', 'appstore', 'googleplay', 'playstore', 'android', 'iphone', 'ios'],
  // savings, ROI and price calculators: a figure the viewer works out
  calculator: ['calculator', 'calculate', 'calculation', 'estimator', 'simulator', 'slider', 'forecast', 'roi'],
  work: ['work', 'portfolio', 'case', 'project', 'gallery', 'showcase', 'study', 'studies'],
  // pictures of the place or the product: hotels, venues, shops
  gallery: ['gallery', 'photo', 'photograph', 'photography', 'picture', 'image', 'lightbox', 'snapshot', 'slideshow'],
  services: ['service', 'offer', 'offering', 'expertise', 'specialty', 'help', 'assistance', 'assist'],
  logos: ['logo', 'brand', 'trusted', 'company', 'companies', 'sponsor', 'backer', 'patron', 'supporter', 'funder', 'business', 'firm', 'corporate', 'foundation', 'partner'],
  process: ['process', 'step', 'workflow', 'method', 'works', 'approach'],
  about: ['about', 'mission', 'value', 'belief', 'purpose', 'vision', 'principle', 'ethos', 'philosophy'],
  comparison: ['compare', 'comparison', 'versus', 'difference', 'different', 'differ', 'alternative', 'choose', 'choice', 'pick', 'competition', 'competitor', 'rival'],
  // how far it can be made one's own
  customise: ['customize', 'customise', 'customization', 'customisation', 'customizable', 'customisable', 'tweak', 'personalize', 'personalise', 'configure', 'configurable', 'tailor'],
  // a film of the product on the page ("Watch our promo video"); the prompt's own "video" is the demo, a stop word
  film: ['film', 'movie', 'footage', 'video', 'watch', 'screening'],
  // UI kits: the form controls they style
  controls: ['form', 'input', 'field', 'dropdown', 'checkbox', 'radio', 'textarea', 'select'],
  // events, courses, retreats: what happens when, and where
  schedule: ['agenda', 'schedule', 'programme', 'program', 'timetable', 'session', 'talk', 'workshop', 'itinerary'],
  location: ['venue', 'location', 'map', 'direction', 'hotel', 'travel', 'nearby', 'held', 'transport', 'parking', 'airport', 'accommodation', 'lodging', 'visit', 'address', 'bus', 'station'],
  // shops, restaurants, venues: when they are open, what they serve, what to give
  hours: ['hour', 'weekday', 'weekend', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'],
  food: ['menu', 'dish', 'food', 'eat', 'meal', 'cuisine', 'cook', 'plate', 'starter', 'dessert', 'kitchen', 'chef', 'recipe', 'taste', 'tasting', 'course', 'lunch', 'dinner', 'brunch', 'breakfast'],
  gift: ['gift', 'voucher', 'present', 'giftcard'],
  // charities, clubs, open-source projects: giving money, giving time
  donate: ['donate', 'donation', 'donor', 'contribute', 'contribution', 'fundraise', 'fundraising', 'pledge', 'appeal'],
  volunteer: ['volunteer', 'rota', 'helper', 'involved'],
  // clinics, lessons, anything people put off out of fear: the part for those who dread it
  anxiety: ['nervous', 'anxious', 'anxiety', 'scared', 'fear', 'afraid', 'phobia', 'dread', 'frighten', 'terrified', 'panic', 'reassure', 'reassuring', 'reassurance', 'sedation'],
  // clinics, repairs, vets: when it cannot wait
  emergency: ['emergency', 'urgent', 'urgently', 'agony', 'pain', 'painful', 'ache', 'toothache', 'sameday', 'accident', 'injury', 'injured', 'asap'],
  // events and communities: how people are expected to treat each other, and who can take part
  conduct: ['conduct', 'harassment', 'inclusion', 'inclusive', 'inclusivity', 'accessibility', 'accessible', 'diversity', 'respect', 'wheelchair'],
};

/** Section kinds the analyser assigns, as concepts. */
const kindConcepts: Partial<Record<OutlineSection['kind'], string[]>> = {
  pricing: ['pricing'], testimonials: ['testimonials'], faq: ['faq'], form: ['signup', 'contact'], features: ['features'],
  logos: ['logos'], hero: ['hero'], cta: ['cta'],
};

/** Words after which "who" opens a question about people, not a relative clause. */
const questionLeadsBeforeWho = new Set(['show', 'see', 'meet', 'introduce', 'tell', 'know', 'learn', 'reveal', 'explain', 'me', 'us', 'them',
  'and', 'then', 'but', 'or', 'on', 'about', 'of', 'to', 'is', 'are', 'exactly', 'just']);

/**
 * Phrases of a prompt that stand for one concept word ("what clients say" asks for testimonials, not for a section
 * whose heading is "Say hello"). Only the prompt is rewritten: on the page, the words mean what they say.
 */
const promptPhrases: Array<[RegExp, string | ((match: string, ...groups: string[]) => string)]> = [
  // "What do buyers say", "what clients think": the question word belongs to the phrase, not to "what it does";
  // who says it stays ($1).
  [/\bwhat (?:do |does |did |are |were |will |would )?((?:\w+ ){0,3}?)(?:say|said|think|thought|feel|felt)\b/g, '$1testimonial'],
  // "How guests feel about it": an opinion. But "a feel for the rooms", "the feel of the place" is a sense of the
  // thing itself, not what anyone says about it, so "feel" alone is not enough.
  [/\bhow (?:[\w'’]+ ){0,3}?(?:feel|felt)\b/g, 'testimonial'],
  [/\b(?:say|said|think|thought)\b/g, 'testimonial'],
  // "How does it stack up against X", "compared to", "vs": a comparison, not "does" (features) or "stack" (integrations).
  [/\b(?:how (?:does|do|would|will) (?:it|they|this|we) )?stacks? up (?:against|to|with)\b|\bcompared? (?:to|with)\b|\bversus\b|\bvs\b\.?/g, 'comparison'],
  [/\bopening (?:hours|times)\b/g, 'hour'],
  // "the difference it has made": what was achieved, not a comparison.
  [/\b(?:the )?difference (?:(?:\w+ ){0,4}(?:made|makes|make|making)\b)|\bmake(?:s)? a difference\b/g, 'impact'],
  // Giving money: "chip in", "support the cause financially", "make a donation" (before giving time: "pitch in").
  [/\bchip(?:s|ped|ping)? in\b|\bgive (?:money|what (?:you|they|we) can)\b|\bsupport (?:us|them|it|the (?:cause|work|charity|project)) (?:financially|with (?:money|a gift|a donation))\b|\bmake a (?:donation|one-off gift|monthly gift)\b/g, 'donate'],
  // Giving time: "help out", "lend a hand", "give up a Saturday", not the FAQ's help nor the opening hours' days.
  [/\bhelp(?:s|ing)? out\b|\blend(?:s|ing)? a hand\b|\bpitch(?:es|ing)? in\b|\bget(?:ting)? involved\b|\bgive (?:up )?(?:a|an|one|their|your|some|spare) (?:\w+day|weekend|morning|evening|afternoon|hours?|time|days?)\b/g, 'volunteer'],
  // "Make a quick clip", "I need a short promo", "put together a demo that…": the request, not its subject.
  [/\b(?:i need|i'd like|i want|we need|let's do|let us do|can you (?:do|make|record|create)|(?:make|record|create|do|shoot|produce|put together|give me)) (?:a|an|me a|us a)? ?(?:(?:quick|short|little|fun|punchy|snappy|polished|new|\d+[\s-]second) )*(?:video|clip|reel|demo|promo|teaser|walkthrough|walk-through|trailer|recording|tour)\b/g, ' '],
  [/\bapp ?store\b|\bgoogle play\b|\bplay store\b/g, 'download'],
  [/\bget(?:ting)? in touch\b|\breach(?:ing)? out\b|\bdrop (?:us |them )?a line\b/g, 'contact'],
  // "End on booking a visit", "reserve a table": the booking is the subject; what is booked only says what kind
  // (a section about the first visit is not where one books it).
  [/\b(?:book|booking|reserve|reserving|schedule|scheduling) (?:a |an |your |the |my )?(?:visit|appointment|table|slot|consultation|session|viewing|check-?up|call)\b/g, 'booking'],
  [/\bhow (?:much|expensive)\b|\bset (?:me|you|us) back\b/g, 'pricing'],
  // "At no cost", "free of charge": what it costs is nothing, so the ask is the free sign-up, not the prices.
  [/\b(?:at|for) no (?:cost|charge)\b|\bfree of charge\b|\bwithout paying\b|\bcosts? nothing\b/g, 'free'],
  [/\bwho (?:works|is behind|runs|makes)\b/g, 'team'],
  // "folks who are scared", "people who hate forms": a relative "who" with a state or a feeling says which audience
  // the video is for, and so does the word it hangs on; neither asks who is behind it ("show people who are nervous"
  // is not the team). "The people who lead the climbs" (who does the work) and a question's "who" ("meet who you
  // will see", "who will look after me") still mean the team.
  [/\b([a-z]+) who (?=(?:are|is|were|was|feel|felt|get|gets|hate|hates|dread|dreads|fear|fears|need|needs|want|wants|have|has|had|love|loves|struggle|struggles|worry|worries|can't|cannot|don't|doesn't|never|still|already|might|may)\b)/g,
    (match: string, before: string) => (questionLeadsBeforeWho.has(before) ? match : ' ')],
  // "What it does", "what the app can do": its features (the words alone are a question's frame).
  [/\bwhat (?:it|they|this|the \w+|\w+) (?:does|do|can do|can offer|offers?)\b/g, 'feature'],
  // "Feature the long article", "spotlight the gallery": the verb asks to show, it names no section.
  [/^\s*(?:feature|spotlight)\s+(?=(?:the|a|an|our|its|their|this|that)\b)/g, ' '],
  // "What are the opening hours": the question's frame, not "what it does" (features).
  [/\bwhat(?: are|'re| is|'s| were| was) (?:the|its|their|your|our)\b/g, ' '],
  // "book for Friday night", "a table tonight": when the viewer wants to come, not a subject (the opening hours).
  [/\b(?:for|on|this|next) (?:(?:mon|tues|wednes|thurs|fri|satur|sun)day|weekend)(?: (?:night|evening|morning|afternoon))?\b|\btonight\b|\btomorrow(?: (?:night|evening|morning))?\b/g, ' '],
  // "end by asking viewers to sign up": the asking is the video's, not a question (FAQ); what they are asked to do stays.
  [/\b(?:ask|asks|asking|invite|invites|inviting|encourage|encourages|encouraging|tell|telling) (?:people|viewers|visitors|users|them|everyone|folks|the audience|the viewer) to\b/g, ' '],
  // "the companies that back the event", "who funds it": sponsors, not a way back.
  [/\b(?:back(?:s|ed|ing)?|fund(?:s|ed|ing)?) (?:the|this|our|it)\b/g, 'sponsor'],
  // "stay in the loop", "keep me posted": a newsletter, not a place to stay or a post.
  [/\bstay (?:in the loop|up to date|informed|posted|tuned)\b|\bkeep (?:me|you|them|us|viewers|people) (?:posted|updated|informed|in the loop)\b/g, 'newsletter'],
  // "works with GitHub", "plugs into", "the tools teams already use": integrations, not features or a portfolio.
  [/\bworks? (?:with|alongside)\b|\bplugs? (?:in|into)\b|\bconnects? (?:to|with)\b|\bplays? (?:nice|nicely|well) with\b/g, 'integration'],
  [/\b(?:tools|apps|software|services) (?:\w+ ){0,2}(?:already )?(?:use|uses|rely on|love)\b/g, 'integration'],
];

/**
 * Phrases of a page that name a concept no single word of them does ("Find us" is where the place is). Unlike the
 * prompt's, these stay beside the words: the heading "Find us" still has "find".
 */
const pagePhrases: Array<[RegExp, string]> = [
  // A telephone number written out ("+1 (555) 010-2030", "020 7946 0958"): what "the phone number" asks for.
  // International ("+23 345 67980"), North American ("(555) 010-2030", "555-010-2030") or national ("020 7946 0958")
  // forms only: a year range ("2009 - 2011") is not one.
  [/\+\d[\d\s().-]{6,}\d|\(\d{2,4}\)\s?\d{3}[\s.-]?\d{3,4}\b|\b\d{3}[\s.-]\d{3}[\s.-]\d{4}\b|\b0\d{2,4}\s\d{3,4}\s\d{3,4}\b/g, 'phone'],
  [/\bwhat (?:it|we|they) (?:does|do|can do|offers?)\b/gi, 'feature'],
  [/\b(?:find|visit) us\b|\bgetting (?:here|there|to)\b|\bhow to (?:get|find) (?:here|there|us)\b|\bwhere (?:we are|to find us)\b/gi, 'location'],
  [/\bopening (?:hours|times)\b/gi, 'hour'],
  [/\bget involved\b|\bgive (?:your|some|a little) time\b/gi, 'volunteer'],
  [/\bapp ?store\b|\bgoogle play\b|\bplay store\b/gi, 'download'],
];

/** Words whose "'s" is "is" or "us", not a possessive ("let's", "what's", "it's"). */
const contractedBeforeS = new Set(['let', 'it', 'that', 'what', 'who', 'here', 'there', 'where', 'how', 'he', 'she', 'when', 'why', 'this']);

/**
 * "The hotel's history", "the team's favourite features", "our customers' reviews": the possessor is whose it is,
 * the word after it is what is asked for. On a hotel's page "hotel" names the whole site (and its menu's "Find us"
 * reads as where the hotel is), so the possessor is left out of the clause's words.
 */
function withoutPossessors(text: string): string {
  return text
    .replace(/\b([a-z]+)['’]s\b(?=\s+[a-z])/g, (match, word: string) => (contractedBeforeS.has(word) ? match : ' '))
    .replace(/\b[a-z]+s['’](?=\s+[a-z])/g, ' ')
    // One space between words again, as the phrases below expect.
    .replace(/\s+/g, ' ');
}

function promptWords(clause: string): string[] {
  let text = withoutPossessors(clause.toLowerCase());
  for (const [pattern, concept] of promptPhrases) {
    text = typeof concept === 'string' ? text.replace(pattern, ` ${concept} `) : text.replace(pattern, (match, ...groups: string[]) => ` ${concept(match, ...groups)} `);
  }
  return words(text);
}

const stop = new Set([
  'a', 'an', 'and', 'are', 'as', 'at', 'be', 'by', 'for', 'from', 'how', 'in', 'into', 'is', 'it', 'its', 'me', 'my', 'of',
  'on', 'or', 'our', 'the', 'their', 'them', 'this', 'that', 'to', 'us', 'we', 'with', 'you', 'your', 'section', 'part',
  'area', 'block', 'panel', 'page', 'show', 'demo', 'video', 'clip', 'reel', 'promo', 'let', 'want', 'need', 'see',
  'visitor', 'viewer', 'make', 'quick', 'site', 'website', 'homepage', 'product', 'please', 'highlight', 'focus', 'give',
  'take', 'look', 'end', 'finish', 'close', 'then',
  'there', 'where', 'do', 'they', 'get', 'have', 'has', 'about', 'all', 'some', 'any', 'real', 'also', 'just', 'one',
  'each', 'every', 'so', 'up', 'out', 'off', 'down', 'over', 'will', 'would', 'should', 'can', 'could', 'finally',
  'last', 'first', 'before', 'after', 'walk', 'through', 'tour', 'scroll', 'stay', 'hold', 'wrap', 'start', 'bit',
]);
// "about", "can", "first", "start" are kept as concept words but are too common in prompts to count as subjects.

/** A light suffix stemmer, applied alike to the prompt, the page and the lexicon. */
export function stem(word: string): string {
  let w = word.toLowerCase();
  if (w.length <= 3) return w;
  for (const [suffix, replacement] of [['ies', 'y'], ['ing', ''], ['ed', ''], ['es', ''], ['s', ''], ['ly', '']] as const) {
    // "-es" only after a sibilant ("boxes", "touches"): "rates" is "rate", which must not meet "rating" as "rat".
    if (suffix === 'es' && !/(?:s|x|z|ch|sh)es$/.test(w)) continue;
    if (w.endsWith(suffix) && w.length - suffix.length >= 3 && !(suffix === 's' && w.endsWith('ss'))) {
      w = w.slice(0, -suffix.length) + replacement;
      break;
    }
  }
  return w;
}

function words(text: string): string[] {
  return text
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/sign[\s-]?up/g, 'signup')
    .replace(/f\.?a\.?q/g, 'faq')
    // "line-up", "check-in": the joined word as well as its parts.
    .replace(/\b([a-z]+)-([a-z]+)\b/g, '$1 $2 $1$2')
    .split(/[^a-z0-9]+/)
    .filter((word) => word.length > 1);
}

const conceptOfStem = new Map<string, string[]>();
for (const [concept, list] of Object.entries(concepts)) {
  for (const word of list) {
    const s = stem(word);
    conceptOfStem.set(s, [...(conceptOfStem.get(s) ?? []), concept]);
  }
}

interface Field {
  weight: number;
  what: string;
  stems: Set<string>;
  concepts: Set<string>;
}

function field(text: string, weight: number, what: string, extraConcepts: string[] = []): Field {
  const named = pagePhrases.flatMap(([pattern, concept]) => (new RegExp(pattern.source, pattern.flags).test(text) ? [concept] : []));
  const stems = new Set([...words(text), ...named].map(stem));
  const found = new Set(extraConcepts);
  for (const s of stems) for (const concept of conceptOfStem.get(s) ?? []) found.add(concept);
  return { weight, what, stems, concepts: found };
}

/** The text a section is known by, each source weighted by how much it says what the section is. */
function sectionFields(outline: PageOutline, section: OutlineSection): Field[] {
  const navLabels = menuLabelsFor(outline, section);
  // Calls to action that lead there ("Book a table" → #reserve) say what it is for, but more weakly than a menu: a
  // pricing card's "Request a quote" leads to the contact form, which is not where prices are.
  const elementId = /#([\w-]+)/.exec(section.selector)?.[1] ?? null;
  const ctaLabels = elementId
    ? [...new Set(outline.actions.filter((a) => (a.kind === 'cta' || a.kind === 'primary-cta') && a.href?.endsWith(`#${elementId}`)).map((a) => a.label))]
    : [];
  const kind = kindConcepts[section.kind] ?? [];
  return [
    field(section.heading ?? '', 1, 'heading'),
    field(`${section.id} ${section.selector.replace(/[#.[\]="'>:()-]/g, ' ')}`, 0.8, 'id/classes', kind),
    field(navLabels.join(' '), 0.9, 'nav link'),
    field(section.kicker ?? '', 0.9, 'eyebrow'),
    field((section.widgets ?? []).map((widget) => widgetWords[widget]).join(' '), 0.8, 'widgets'),
    field(ctaLabels.join(' '), 0.6, 'call to action'),
    // Its own buttons ("Download on the App Store"): what a visitor does there.
    field(actionsIn(outline, section).map((action) => action.label).join(' '), 0.5, 'buttons'),
    field(section.body ?? section.text, 0.45, 'text'),
  ];
}

/** What people call each widget the analyser finds in a section. */
const widgetWords: Record<NonNullable<OutlineSection['widgets']>[number], string> = {
  slider: 'slider range', accordion: 'accordion expand collapse', tabs: 'tab tabs', toggle: 'toggle switch',
  carousel: 'carousel slideshow swipe swiper',
};

/** The labels of the navigation links that point at a section (`href="#its-id"`), deduplicated. */
export function menuLabelsFor(outline: PageOutline, section: OutlineSection): string[] {
  const elementId = /#([\w-]+)/.exec(section.selector)?.[1] ?? null;
  if (!elementId) return [];
  const links = outline.navigation.concat(outline.actions.filter((action) => action.kind === 'nav-link'));
  return [...new Set(links.filter((link) => link.href?.endsWith(`#${elementId}`)).map((link) => link.label))];
}

export interface Subject {
  section: OutlineSection;
  /** 0–1, from how strongly the clause matches and how clearly it beats the next-best section. */
  confidence: number;
  why: string;
  /** The clause of the prompt that asked for it. */
  clause: string;
}

export interface PromptSubjects {
  /** In the order to visit: the prompt's order, with an "end on X" subject last. */
  subjects: Subject[];
  endsOn: Subject | null;
  /**
   * The button of a header that stays on screen which the ending clause names word for word ("end on how to book
   * a stay" → "Book your stay"): the demo ends on it, wherever the page is, rather than on a section.
   */
  endsOnAction?: OutlineAction;
}

const endCue = /\b(?:end(?:s|ing)?|finish(?:es|ing)?|clos(?:e|es|ing)|wrap(?:s|ped|ping)? up|land(?:s|ing)?|conclude|stop)\s+(?:on|with|at|by|where)\b|\blast(?:ly)?\b|\bfinally\b/i;

/** Clauses: "the team and how to get in touch, then end on the sign-up" → three. */
export function clausesOf(prompt: string): string[] {
  return prompt
    // "the carousel (budgeting, round-ups, bill alerts)": what is in brackets elaborates its clause.
    .replace(/\(([^()]*)\)/g, (_, inside: string) => ` ${inside.replace(/[,;&]|\band\b/g, ' ')} `)
    // So does a list after a colon or "like", "such as", "including" ("loans: student, mortgage, payday", "specialties
    // like dentistry and cardiology"): its items are what the clause is about, not subjects of their own. Up to the
    // sentence's end or a "then".
    .replace(/,?\s*(:|\b(?:like|such as|including|e\.g\.|for example|for instance|especially))((?:(?!\bthen\b)[^.;!?])*)/gi,
      (_, lead: string, list: string) => ` ${lead}${list.replace(/,|&|\band\b|\bor\b/gi, ' ')}`)
    .split(/[.;!?]|,|\band then\b|\bthen\b|\band\b|\bfollowed by\b|\bplus\b|&/i)
    .map((clause) => clause.trim())
    .filter((clause) => clause.length > 1);
}

/** Where on the page a clause places its section: the last one before the footer. */
const bottomCue = /\b(?:at|near|towards?) the (?:very )?bottom(?: of the page)?\b|\b(?:at|near|towards?) the (?:very )?end of the page\b|\b(?:just |right )?(?:above|before) the footer\b|\bbottom of the page\b/i;
/** What that position is worth: as much as a word of the clause in its heading. */
const BOTTOM_BONUS = 0.6;

/** The least an ending clause's best section must score to end on it (a subject needs 0.65). */
const ENDING_FLOOR = 0.35;

/** Words that say how the video should feel, not what it shows: a page that uses one ("cinematic") is no subject. */
const manner = new Set(['cinematic', 'cinematically', 'polished', 'beautiful', 'beautifully', 'stunning', 'smooth', 'slick', 'sleek', 'elegant',
  'snappy', 'punchy', 'dramatic', 'epic', 'fun', 'playful', 'quick', 'quickly', 'short', 'brief', 'fast', 'slow', 'slowly', 'gentle', 'calm',
  'overview', 'teaser', 'trailer', 'showcase', 'hype', 'highlight', 'highlights', 'walkthrough', 'tour', 'minimal', 'clean', 'professional']);

/** The least a subject found by a word only its section uses must score (one such word in its text: 0.45). */
const LITERAL_FLOOR = 0.45;

/**
 * Whether a content word of the clause (four letters or more, not a stop word) stands, as itself, in this section's
 * words and in no other section's but the footer's: a literal, distinctive match, which a lexicon concept that
 * points elsewhere must not outweigh.
 */
function onlyThisSectionSays(clause: string, section: OutlineSection, fields: Map<OutlineSection, Field[]>): boolean {
  const tokens = [...new Set(promptWords(clause).filter((w) => !stop.has(w) && !manner.has(w)).map(stem))].filter((w) => w.length >= 4 && !stop.has(w));
  const has = (s: OutlineSection, token: string) => fields.get(s)!.some((f) => f.stems.has(token));
  return tokens.some(
    (token) => has(section, token) && ![...fields.keys()].some((other) => other !== section && other.kind !== 'footer' && has(other, token)),
  );
}

/** What each further source naming a section adds to its best one. */
const CORROBORATION = 0.1;

/**
 * The words most of a page's sections use: the page's own subject ("app" on an app's page, "kit" on a UI kit's).
 * They say what the whole page is about, not which part: a clause's match on one counts half.
 */
function commonWords(fields: Map<OutlineSection, Field[]>): Set<string> {
  const body = [...fields.entries()].filter(([section]) => section.kind !== 'footer');
  const counts = new Map<string, number>();
  for (const [, sectionFields] of body) {
    const stems = new Set(sectionFields.flatMap((f) => [...f.stems]));
    for (const s of stems) counts.set(s, (counts.get(s) ?? 0) + 1);
  }
  const needed = Math.max(4, Math.ceil(body.length * 0.5));
  return new Set([...counts].filter(([, n]) => n >= needed).map(([s]) => s));
}

/** What a match on one of the page's common words is worth against a match on a word of one part. */
const COMMON_WORD_WEIGHT = 0.5;

function scoreClause(clause: string, fields: Field[], common: Set<string> = new Set()): { score: number; why: string } {
  // "ending on" is as much the video's own words as "end on": stop words are checked after stemming too.
  const tokens = [...new Set(promptWords(clause).filter((w) => !stop.has(w)).map(stem))].filter((w) => !stop.has(w));
  let score = 0;
  let best = { value: 0, why: '' };
  for (const token of tokens) {
    let value = 0;
    let why = '';
    let evidence = 0;
    for (const f of fields) {
      let here = 0;
      let hereWhy = '';
      if (f.stems.has(token)) {
        here = f.weight;
        hereWhy = `"${token}" in its ${f.what}`;
      }
      for (const concept of conceptOfStem.get(token) ?? []) {
        if (f.concepts.has(concept) && f.weight * 0.85 > here) {
          here = f.weight * 0.85;
          hereWhy = `"${token}" means ${concept}, as its ${f.what} says`;
        }
      }
      evidence += here;
      if (here > value) {
        value = here;
        why = hereWhy;
      }
    }
    // Corroboration: a section that its id, menu, eyebrow and text all name so is surer than one whose slogan of a
    // heading happens to hold a word of the concept ("Built for the people who…" is not the speakers).
    value += CORROBORATION * (evidence - value);
    if (common.has(token)) value *= COMMON_WORD_WEIGHT;
    score += value;
    if (value > best.value) best = { value, why };
  }
  return { score, why: best.why };
}

/** The sections a prompt asks for, in the order to show them; empty when it names none with some confidence. */
export function promptSubjects(prompt: string, outline: PageOutline): PromptSubjects {
  const sections = sectionsInOrder(outline);
  const fields = new Map(sections.map((section) => [section, sectionFields(outline, section)]));
  const common = commonWords(fields);
  const subjects: Subject[] = [];
  let endsOn: Subject | null = null;
  let endsOnAction: OutlineAction | undefined;
  for (const rawClause of clausesOf(prompt)) {
    // "At the very bottom", "just above the footer": where the section is, which its words may not say.
    const atBottom = bottomCue.test(rawClause);
    const clause = atBottom ? rawClause.replace(bottomCue, ' ') : rawClause;
    const lastBody = sections.filter((section) => section.kind !== 'footer').at(-1);
    const ranked = sections
      .map((section) => {
        const { score, why } = scoreClause(clause, fields.get(section)!, common);
        // Footers and heroes repeat every name on the page (link columns, a summary headline): weaker evidence.
        const discount = section.kind === 'footer' ? 0.4 : section.kind === 'hero' && !/\b(hero|headline|top|banner|fold)\b/i.test(clause) ? 0.6 : 1;
        if (atBottom && section === lastBody) return { section, score: score * discount + BOTTOM_BONUS, why: why ? `${why}, and it is the last before the footer` : 'the last section before the footer' };
        return { section, score: score * discount, why };
      })
      .sort((a, b) => b.score - a.score);
    const ending = endCue.test(clause);
    const action = ending ? headerActionNamed(clause, outline) : null;
    if (action) {
      endsOnAction = action;
      continue;
    }
    // A video that ends on the hero went back up to where it began: only when the clause asks for the top.
    const backToTop = /\b(hero|top|headline|first screen|start)\b/i.test(clause);
    const [top, next] = ending && !backToTop ? ranked.filter((r) => r.section.kind !== 'hero') : ranked;
    // An ending is a hard constraint ("finish on the closing banner"): the video ends on the section that answers
    // the clause best, even when no section answers it as surely as a subject must. A word of the clause that only
    // one section's own words hold ("Chrome", "dentistry", "mortgage") is as good a reason as a concept.
    const floor = ending ? ENDING_FLOOR : top && onlyThisSectionSays(clause, top.section, fields) ? LITERAL_FLOOR : 0.65;
    if (!top || top.score < floor) continue;
    const margin = top.score - (next?.score ?? 0);
    const confidence = Math.min(0.97, 0.3 + 0.3 * Math.min(1, top.score / 1.5) + 0.4 * Math.min(1, margin / 0.8));
    const subject: Subject = { section: top.section, confidence: Math.round(confidence * 100) / 100, why: top.why, clause };
    if (ending) endsOn = subject;
    else if (!subjects.some((s) => s.section === top.section)) subjects.push(subject);
  }
  const action = endsOnAction ? { endsOnAction } : {};
  if (endsOn) {
    const last = endsOn;
    return { subjects: [...subjects.filter((s) => s.section !== last.section), last], endsOn: last, ...action };
  }
  return { subjects, endsOn: null, ...action };
}

/** Words a button's label needs no match for ("Book your stay", "Start your free trial now"). */
const labelFiller = new Set(['a', 'an', 'the', 'your', 'our', 'my', 'you', 'us', 'to', 'for', 'of', 'and', 'now', 'today', 'here']);

/**
 * A call to action in a header that stays on screen (so ending on it needs no scroll back up) whose label's words,
 * at least two, all appear in the ending clause; unless a section's heading holds them all too, as a closing band's
 * "Start your free trial today" does, which is then the better ending.
 */
function headerActionNamed(clause: string, outline: PageOutline): OutlineAction | null {
  const clauseStems = new Set(words(clause).map(stem));
  const labelStems = (text: string) => words(text).filter((word) => !labelFiller.has(word)).map(stem);
  for (const action of outline.actions) {
    if (action.kind !== 'cta' || !isFixed(outline, action.rect)) continue;
    const needed = labelStems(action.label);
    if (needed.length < 2 || !needed.every((word) => clauseStems.has(word))) continue;
    const inHeading = outline.sections.some((section) => {
      const heading = new Set(labelStems(section.heading ?? ''));
      return needed.every((word) => heading.has(word));
    });
    if (!inHeading) return action;
  }
  return null;
}

/** One line for `autoSelection.signals`. */
export function describeSubject(subject: Subject): string {
  return `"${subject.clause.slice(0, 60)}" → "${sectionName(subject.section)}" (${subject.why}; confidence ${subject.confidence})`;
}
