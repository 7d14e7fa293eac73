import type { OutlineSection } from '../types.js';

/**
 * The vocabulary the planner reads prompts and pages with (section-meaning.ts does the reading): the concepts of a
 * landing page and the words people use for each, the phrases that stand for one, and the words that name no part.
 * Grown from pages written here and from public pages (`eval:story`'s real set); each word is general vocabulary, never
 * one page's.
 */

/** Concepts: each groups the stems that mean the same part of a landing page. */
export const concepts: Record<string, string[]> = {
  pricing: ['price', 'pric', 'plan', 'discount', 'tier', 'cost', 'pay', 'paid', 'billing', 'bill', 'subscription', 'afford', 'cheap', 'expensive', 'budget', 'package', 'fee', 'money', 'dollar', 'monthly', 'annual', 'much', 'spend', 'quote', 'ticket', 'admission', 'pass',
    // courses and big purchases
    'payment', 'instalment', 'installment', 'financing', 'tuition', 'scholarship', 'rate',
    // an account's bills
    'invoice', 'charge', 'receipt'],
  testimonials: ['testimonial', 'review', 'customer', 'client', 'love', 'feedback', 'rating', 'star', 'praise', 'opinion', 'word', 'mouth', 'happy', 'rave', 'endorsement', 'buyer', 'owner', 'verified'],
  team: ['team', 'people', 'founder', 'staff', 'crew', 'member', 'behind', 'employee', 'leadership', 'leader', 'face', 'who', 'person', 'human', 'squad', 'hire', 'meet', 'makers',
    // a school's, a gym's, a course's people: who teaches
    'teach', 'teacher', 'instructor', 'tutor', 'lecturer', 'educator', 'trainer', 'mentor', 'faculty',
    // an open-source project's people
    'contributor', 'maintainer',
    // an event's people
    'speaker', 'stage', 'keynote', 'lineup', 'presenter', 'panelist',
    // a gym's people
    'coach', 'coaching',
    // an event's or a club's people: who runs it
    'organiser', 'organizer', 'organising', 'organizing', 'committee', 'board'],
  contact: ['contact', 'touch', 'reach', 'email', 'call', 'message', 'talk', 'write', 'address', 'phone', 'inbox', 'chat', 'connect', 'hello', 'enquiry', 'inquiry', 'enquire', 'inquire', 'reply', 'book', 'booking', 'reserve', 'reservation', 'form',
    // a first meeting with a lawyer, an adviser, an agency
    'meeting', 'consult', 'consultation'],
  faq: ['faq', 'question', 'query', 'ask', 'answer', 'frequently', 'wonder', 'doubt', 'common', 'curious', 'concern', 'objection', 'help', 'assistance', 'unsure', 'worry', 'worried', 'hesitation'],
  stats: ['stat', 'statistic', 'number', 'metric', 'figure', 'count', 'result', 'growth', 'percent', 'uptime', 'impact', 'measure', 'scale', 'million', 'kpi', 'record', 'proof', 'outcome', 'achievement', 'achieve', 'accomplish'],
  history: ['history', 'timeline', 'journey', 'founded', 'year', 'milestone', 'past', 'began', 'origin', 'story', 'started', 'evolution', 'chronology', 'since', 'decade'],
  signup: ['signup', 'sign', 'register', 'registration', 'join', 'account', 'trial', 'onboard', 'waitlist', 'subscribe', 'newsletter', 'enrol', 'enroll', 'create', 'free',
    // a product not out yet: its beta, early access, an invitation
    'beta', 'invite', 'notified', 'notify'],
  features: ['feature', 'capability', 'tool', 'function', 'functionality', 'benefit', 'power', 'can', 'does', 'toolkit', 'what', 'reason'],
  integrations: ['integration', 'integrate', 'plugin', 'addon', 'extension', 'extend', 'ecosystem', 'app', 'partner', 'api', 'connector', 'stack', 'sync'],
  security: ['security', 'secure', 'privacy', 'compliance', 'safe', 'protect', 'encryption', 'gdpr', 'soc', 'trust'],
  hero: ['hero', 'headline', 'tagline', 'fold', 'first'],
  // books, courses, software: a free part of it to try before buying ("Get A Free Preview", "Read a sample chapter")
  preview: ['preview', 'sample', 'excerpt', 'sneak', 'peek'],
  // books, documents, media: the forms it comes in ("PDF, EPUB and Kindle")
  format: ['format', 'pdf', 'epub', 'kindle', 'mobi', 'paperback', 'hardcover', 'audiobook'],
  // what a purchase or a plan comes with ("What's Included", "In the box")
  included: ['include', 'included', 'includes', 'inclusion'],
  // books, articles: who wrote it
  author: ['author', 'writer', 'authored'],
  // a tool's showcase: the sites, apps, companies that use it ("Sites using Concrete", "Built with X", "In the wild")
  inuse: ['inuse'],
  // a closing band: "end on the banner" (a strip across the page is as often the last call to action as the hero)
  cta: ['cta', 'banner', 'closing', 'invitation'],
  // mobile apps: where to get it
  download: ['download', 'install', 'appstore', 'googleplay', 'playstore', 'android', 'iphone', 'ios'],
  // savings, ROI and price calculators: a figure the viewer works out
  calculator: ['calculator', 'calculate', 'calculation', 'estimator', 'simulator', 'slider', 'forecast', 'roi'],
  // ("case studies" is the portfolio by its "case"; "study" alone is as often where someone studied: education)
  work: ['work', 'portfolio', 'case', 'project', 'gallery', 'showcase', 'creation'],
  // résumés and portfolios: where someone studied, and what they know how to use
  education: ['education', 'study', 'studies', 'studied', 'degree', 'university', 'college', 'school', 'academic', 'graduate', 'graduated', 'diploma', 'bachelor', 'master', 'qualification', 'schooling', 'alma',
    // a résumé holds where one studied and where one worked
    'resume'],
  // résumés and portfolios: the jobs someone has held ("Experience", "Career", "Employment")
  experience: ['experience', 'job', 'employment', 'employer', 'employed', 'occupation', 'resume'],
  skills: ['skill', 'framework', 'proficiency', 'proficient', 'competence', 'competency', 'technology', 'technologies', 'tech', 'programming', 'expertise'],
  // pictures of the place or the product: hotels, venues, shops
  gallery: ['gallery', 'photo', 'photograph', 'photography', 'picture', 'image', 'lightbox', 'snapshot', 'slideshow', 'screenshot',
    // a photographer's, a designer's body of pictures
    'portfolio'],
  services: ['service', 'offer', 'offering', 'expertise', 'specialty', 'speciality', 'signature', 'specialist', 'specialised', 'specialized', 'help', 'assistance', 'assist', 'provide', 'provider',
    // what a place promises its guests ("Champion service": low prices, natural food, fast delivery)
    'promise', 'guarantee'],
  // developer tools: how a program learns what happened (a copy that succeeded, an upload that failed)
  callbacks: ['callback', 'listener', 'succeed', 'succeeded', 'success', 'fail', 'failed', 'failure', 'error'],
  logos: ['logo', 'brand', 'trusted', 'company', 'companies', 'sponsor', 'backer', 'patron', 'supporter', 'funder', 'business', 'firm', 'corporate', 'foundation', 'partner'],
  // ("how it works" is a process by its phrase below; "work" alone is as often the portfolio: "selected work")
  process: ['process', 'step', 'workflow', 'method', 'approach'],
  about: ['about', 'mission', 'value', 'belief', 'purpose', 'vision', 'principle', 'ethos', 'philosophy', 'aim', 'goal', 'ambition', 'objective',
    // what a thing is, told in a paragraph ("What kind of game is this?" → "About War of Sticks"; a docs page's "Introduction")
    'description', 'describe', 'introduction', 'intro',
    // who a person is, on a résumé or an author's page ("introduce who he is and his background" → "About me")
    'introduce', 'background', 'bio', 'biography'],
  // SaaS pages: the pains a product takes away ("Facing these challenges?", "Sound familiar?")
  problems: ['problem', 'challenge', 'headache', 'headach', 'struggle', 'frustration', 'frustrating', 'hassle', 'obstacle', 'difficulty', 'bottleneck'],
  // libraries, apps and products: what changed from one version to the next
  changelog: ['changelog', 'release', 'releases', 'version', 'versions'],
  // a text's ending: an essay's or a docs page's "Epilogue", "Conclusion", "Last words"
  conclusion: ['conclusion', 'epilogue', 'afterword', 'postscript'],
  comparison: ['compare', 'comparison', 'versus', 'difference', 'different', 'differ', 'alternative', 'choose', 'choice', 'pick', 'competition', 'competitor', 'rival'],
  // "The prizes the book has picked up", "the Tripadvisor recognition they earned": an "Award" heading.
  awards: ['award', 'prize', 'prizes', 'accolade', 'recognition', 'trophy', 'medal', 'honour', 'honor'],
  // "Explained for coders": a part "Built by Developers for Developers".
  developers: ['developer', 'coder', 'programmer'],
  // docs, guides, shops: advice on doing it well ("Any advice on printing it?" is its "Printing Tips")
  tips: ['tip', 'advice', 'hint', 'trick'],
  // docs and help pages: what a word or a thing is ("Where is it explained?" is its "What is a controlled vocabulary?")
  definition: ['definition', 'define', 'meaning', 'explain', 'explanation', 'glossary'],
  // developer tools and kits: where it is explained (not "docs" itself: on a docs page, "the docs" are the page)
  docs: ['documentation', 'documented', 'guide', 'tutorial', 'manual', 'handbook', 'reference', 'explained', 'explanation'],
  // the languages it speaks: programming languages and syntaxes, or the translations of an app
  languages: ['language', 'syntax', 'multilingual', 'translation', 'translated', 'localization', 'localisation', 'locale'],
  // how far it can be made one's own
  customise: ['customize', 'customise', 'customization', 'customisation', 'customizable', 'customisable', 'tweak', 'personalize', 'personalise', 'configure', 'configurable', 'tailor',
    // a widget's or a kit's look made one's own ("restyle it with my own CSS" is its "Skinning", "Theming")
    'restyle', 'restyling', 'reskin', 'skinning', 'theming', 'themeable'],
  // a film of the product on the page ("Watch our promo video"); the prompt's own "video" is the demo, a stop word
  film: ['film', 'movie', 'footage', 'video', 'watch', 'screening'],
  // UI kits: the form controls they style
  controls: ['form', 'input', 'field', 'dropdown', 'checkbox', 'radio', 'textarea', 'select'],
  // UI kits and their docs: a box over the page, a message to the user, something shown while it waits. A customer
  // says what it does ("a popup that asks to confirm", "the warning banners", "a spinner while it is busy"); the kit's
  // page names the component ("Modal", "Alerts", "Loading").
  dialogs: ['modal', 'dialog', 'popup', 'lightbox', 'overlay', 'confirm', 'confirmation'],
  alerts: ['alert', 'notification', 'notify', 'toast', 'snackbar', 'notice', 'warning', 'banner'],
  loading: ['loading', 'loader', 'spinner', 'spin', 'busy', 'progress'],
  // libraries: what a program calls on it ("the methods I can call" are its "API")
  api: ['api', 'method', 'methods'],
  // libraries and tools: what can be set, and what it is when nothing is ("the options I can pass and their defaults"
  // are its "Settings"; "the same options for every dialog" its "Global defaults")
  options: ['option', 'setting', 'settings', 'config', 'configuration', 'default', 'parameter', 'param', 'preference'],
  // a list played or dealt in no fixed order ("in a random order" is the "Shuffled" example)
  shuffle: ['shuffle', 'shuffled', 'shuffling', 'random', 'randomly', 'randomise', 'randomize', 'randomised', 'randomized', 'randomness'],
  // CSS grids and layout kits: moving a column along its row, changing the order, turning a row around
  offset: ['offset', 'push', 'shift', 'indent', 'nudge'],
  reorder: ['reorder', 'reordering', 'rearrange', 'rearranging', 'order', 'sequence',
    // lists a user puts in order with the pointer ("reorder the tags by dragging them" → "Drag & Sort")
    'drag', 'dragging', 'draggable', 'sort', 'sortable'],
  reverse: ['reverse', 'reversing', 'reversed', 'backwards', 'backward', 'flip', 'flipping', 'flipped', 'invert', 'inverted', 'inverse'],
  // events, courses, retreats: what happens when, and where
  // résumés and personal pages: what someone does for fun ("Interests", "Hobbies", "Outside of work")
  hobbies: ['hobby', 'hobbies', 'interest', 'interests', 'pastime', 'leisure', 'spare'],
  // shops of cosmetics, food, cleaning products: what goes into them ("Guaranteed PURE", "Completely Cruelty-Free")
  natural: ['natural', 'pure', 'purity', 'organic', 'ingredient', 'vegan', 'cruelty', 'toxic', 'chemical', 'botanical'],
  // web tools: keeping files in the browser ("Expires Headers", "Cache-Control", "far-future expiry")
  caching: ['cache', 'cached', 'caching', 'expire', 'expires', 'expiry', 'etag'],
  // calls for entries, applications, papers: when they are due and when the answer comes ("Important Dates")
  dates: ['date', 'dates', 'deadline', 'due', 'notification'],
  schedule: ['agenda', 'schedule', 'programme', 'program', 'timetable', 'session', 'talk', 'workshop', 'itinerary'],
  // local trades (a locksmith, a plumber, a cleaner): the towns they come out to ("Areas we serve", "Serving Metro Detroit")
  servicearea: ['servicearea'],
  // hotels and resorts: where guests sleep ("Luxurious Villas", "Rooms & Suites"); "accommodation" is as often a
  // conference's travel page, so it is a place too
  rooms: ['room', 'suite', 'villa', 'accommodation', 'lodging', 'bungalow', 'chalet', 'cabin', 'cottage'],
  location: ['venue', 'location', 'located', 'map', 'direction', 'hotel', 'travel', 'nearby', 'held', 'transport', 'parking', 'airport', 'accommodation', 'lodging', 'visit', 'address', 'bus', 'station'],
  // shops, restaurants, venues: when they are open, what they serve, what to give
  hours: ['hour', 'weekday', 'weekend', 'midweek', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'],
  food: ['menu', 'dish', 'food', 'eat', 'meal', 'cuisine', 'cook', 'plate', 'starter', 'dessert', 'kitchen', 'chef', 'recipe', 'taste', 'tasting', 'course', 'lunch', 'dinner', 'brunch', 'breakfast'],
  // a restaurant's or a bakery's sweet course (often misspelt "Deserts")
  sweets: ['dessert', 'desert', 'sweet', 'cake', 'pastry', 'pudding', 'patisserie'],
  gift: ['gift', 'voucher', 'present', 'giftcard'],
  // shops: a price cut for a while, often with a clock counting down to its end
  sale: ['sale', 'deal', 'discount', 'countdown', 'limited', 'hurry', 'timer', 'clearance', 'promo', 'promotion', 'coupon', 'flash', 'markdown', 'bargain'],
  // shops, libraries, media: what someone there recommends
  // shops: what they sell, the catalogue ("the products" of a shop; "product" alone names the thing being demoed, a stop word)
  wares: ['wares', 'merchandise', 'catalog', 'catalogue', 'goods', 'inventory'],
  // companies: the jobs they are hiring for ("Careers", "Join us", "Open positions")
  careers: ['career', 'vacancy', 'vacancies', 'hiring', 'recruit', 'recruiting', 'recruitment'],
  picks: ['recommend', 'recommendation', 'favourite', 'favorite', 'curated', 'bestseller', 'bestselling', 'popular', 'trending', 'trendy', 'editor', 'pick', 'staff', 'hottest'],
  // charities, clubs, open-source projects: giving money, giving time
  donate: ['donate', 'donation', 'donor', 'contribute', 'contribution', 'fundraise', 'fundraising', 'pledge', 'appeal'],
  volunteer: ['volunteer', 'rota', 'helper', 'involved'],
  // clinics, lessons, anything people put off out of fear: the part for those who dread it
  anxiety: ['nervous', 'anxious', 'anxiety', 'scared', 'fear', 'afraid', 'phobia', 'dread', 'frighten', 'terrified', 'panic', 'reassure', 'reassuring', 'reassurance', 'sedation'],
  // clinics, repairs, vets: when it cannot wait
  emergency: ['emergency', 'urgent', 'urgently', 'agony', 'pain', 'painful', 'ache', 'toothache', 'sameday', 'accident', 'injury', 'injured', 'asap'],
  // firms, studios, projects: what the press wrote and what they posted
  news: ['news', 'press', 'article', 'blog', 'journal', 'coverage', 'announcement', 'newsroom'],
  // events and communities: how people are expected to treat each other, and who can take part
  // shops, restaurants, carriers: how it gets to the customer, and how soon
  delivery: ['delivery', 'deliver', 'shipping', 'shipment', 'courier', 'dispatch', 'postage', 'doorstep'],
  speed: ['speed', 'fast', 'faster', 'fastest', 'quick', 'quicker', 'rapid', 'express', 'minute', 'min'],
  // carriers, couriers, orders: where a parcel is on its way ("track record" is the stats', by its phrase)
  tracking: ['track', 'tracking', 'tracker', 'trace', 'whereabouts'],
  // news, items, projects, course material: the newest of them
  recent: ['latest', 'lately', 'recent', 'recently', 'newest', 'freshest', 'current', 'uptodate'],
  // garages, plumbers, repair shops: what they mend
  repair: ['repair', 'fix', 'mend', 'restore'],
  conduct: ['conduct', 'harassment', 'inclusion', 'inclusive', 'inclusivity', 'accessibility', 'accessible', 'diversity', 'respect', 'wheelchair'],
  // libraries, tools, apps: what must be there first ("Requires", "Prerequisites", "Dependencies")
  requirements: ['require', 'requirement', 'dependency', 'depend', 'prerequisite', 'prereq'],
  // libraries, kits, apps: how to get it running in one's own project ("Setup", "Installation", "How to use")
  setup: ['setup', 'install', 'installation', 'usage', 'quickstart'],
  // developer tools: where it does not work, and what to watch for ("Drawbacks", "Caveats", "Known issues")
  limitation: ['limitation', 'drawback', 'caveat', 'downside', 'gotcha', 'pitfall', 'shortcoming', 'unsupported', 'incompatible', 'incompatibility'],
  // design tools, kits, sites: who can read and use it ("A11Y", contrast that stays readable)
  // UI kits and design systems: the part that shows its fonts and text styles
  typography: ['typography', 'font', 'typeface', 'typefaces', 'lettering', 'typographic'],
  // UI kits: a quotation set apart from the text ("how are quotations styled" → "Blockquotes")
  quotation: ['quotation', 'blockquote', 'citation', 'pullquote'],
  // languages and template engines: text a reader of the source sees and the output never shows
  comments: ['comment', 'comments', 'commented', 'annotation', 'annotate', 'remark'],
  // template engines and parsers: the characters that open and close a tag ("swap the curly braces for other markers"
  // → "Set Delimiter")
  delimiters: ['delimiter', 'delimiters', 'brace', 'braces', 'bracket', 'brackets', 'marker', 'markers'],
  // hackathons, courses, conferences, blogs: what it is about ("the challenge topics teams can pick from" → "Problem
  // Statements & Themes")
  topics: ['topic', 'theme', 'subject'],
  // lists, trees, menus: one inside another ("lists tucked inside other lists" → "Nested Sortables")
  nested: ['nested', 'nesting', 'nest', 'tree', 'hierarchy', 'hierarchical'],
  // editors, lists, drag and drop: a copy made of a thing ("dragging copies an item" → "Cloning")
  copying: ['copy', 'copies', 'copying', 'clone', 'cloning', 'cloned', 'duplicate', 'duplicating'],
  // libraries, kits, apps: how a thing looks and where that is chosen ("how the notice looks" → "Pick a Theme")
  appearance: ['appearance', 'theme', 'themes', 'skin', 'skins', 'styling'],
  // tools and libraries: how they are run from a terminal ("run it from the terminal" → "Command Line Interface")
  cli: ['terminal', 'cli', 'shell', 'bash', 'console', 'commandline'],
  // sites, shops, people: where they post ("their social media links" → a footer's "Follow us" with its icons)
  social: ['social', 'facebook', 'twitter', 'instagram', 'linkedin', 'youtube', 'tiktok', 'pinterest', 'mastodon', 'follow', 'follower', 'followers'],
  accessibility: ['accessibility', 'accessible', 'a11y', 'wcag', 'contrast', 'legible', 'legibility', 'readable', 'readability', 'colorblind', 'colourblind', 'impaired', 'impairment', 'disability', 'screenreader'],
};

/** Section kinds the analyser assigns, as concepts. */
export const kindConcepts: Partial<Record<OutlineSection['kind'], string[]>> = {
  pricing: ['pricing'], testimonials: ['testimonials'], faq: ['faq'], form: ['signup', 'contact'], features: ['features'],
  logos: ['logos'], hero: ['hero'], cta: ['cta'],
};

/** Words after which "who" opens a question about people, not a relative clause. */
export const questionLeadsBeforeWho = new Set(['show', 'see', 'meet', 'introduce', 'tell', 'know', 'learn', 'reveal', 'explain', 'me', 'us', 'them',
  'and', 'then', 'but', 'or', 'on', 'about', 'of', 'to', 'is', 'are', 'exactly', 'just']);

/**
 * Phrases of a prompt that stand for one concept word ("what clients say" asks for testimonials, not for a section
 * whose heading is "Say hello"). Only the prompt is rewritten: on the page, the words mean what they say.
 */
export const promptPhrases: Array<[RegExp, string | ((match: string, ...groups: string[]) => string)]> = [
  // "Leave a note in a template", "add a remark to the code": a comment in the source, not a message to anyone.
  [/\b(?:leave|leaving|add|adding|write|writing|put|putting)s? (?:a |an |some )?(?:little |short |quick )?(?:notes?|remarks?) (?:in|inside|into|to) (?:a|an|the|my|your|our|its) (?:template|code|file|source|markup|script|stylesheet)s?\b/g, 'comment'],
  // "early access" is a product not out yet (its sign-up); "early days" alone is history
  [/\bearly[- ]access\b/g, 'beta'],
  // "I'd like to see": how the asking is put, never a word of a heading ("Like A Pro"). ("What it looks like" stays:
  // "look" and "like" are what a first appointment's "what you'd like… a thorough look" answers.)
  [/\b(?:i['’]?d|i would|we['’]?d|we would|would) like\b/g, ' '],
  // "Show the products", "everything they sell": a shop's catalogue. "The product" alone is what the demo is about.
  // The words between stay ("the latest products" is new wares).
  [/\b(?:the|your|their|our|its|his|her|these|those|all(?: of)?(?: the| their| our| its)?)((?: (?:latest|newest|new|best|featured|popular|top|whole|full|other|different))?) products\b|\b(?:everything|what|all) (?:they|you|we|it|she|he) sells?\b/g, (_match: string, between = '') => `${between} wares`],
  // "The plants for sale", "the clothes they sell": what a shop sells, its catalogue (the words stay: a "Quick Sale"
  // row is what is for sale too).
  [/\bfor sale\b|\b(?:they|you|we|it|she|he) (?:sell|sells|stock|stocks|carry|carries)\b/g, (match: string) => `${match} wares`],
  // "Talk to sales", "the sales team": the people to write to ("sales" alone is as often a shop's price cuts).
  [/\b(?:contact|talk to|speak (?:to|with)|call|email|ask) (?:our |the |their )?sales\b|\bsales (?:team|department|reps?|representatives?|enquir(?:y|ies)|inquir(?:y|ies))\b/g, ' contact '],
  // "What's the catch", "where won't it work": its limits (before "what's the" is read as a question's frame), not a catch of errors nor the portfolio's work.
  [/\bwhat(?:'s|’s| is) the catch\b|\b(?:won['’]t|will not|doesn['’]t|does not|don['’]t|do not|can['’]t|cannot) (?:\w+ ){0,2}?(?:work|handle|support|cover)\b/g, 'limitation'],
  // "What sets them apart", "what makes it different": why choose them over the others.
  [/\bwhat (?:sets|makes) (?:them|it|you|us|him|her|this [\w-]+|the [\w-]+) (?:apart|different|special|unique|stand out)\b|\bsets? (?:them|it|you|us|him|her) apart\b/g, ' different '],
  // "What the page says it is for", "what this is about": its purpose, which its about tells.
  [/\bwhat (?:\w+ ){0,5}?(?:it|this|they)(?:['’]s| is| are| was) (?:for|about)\b/g, ' purpose '],
  // "What does it come with", "what the template comes with": what is included.
  [/\bcom(?:es?|ing) with\b/g, ' included '],
  // "What people have been making with it": the things made with a tool, its examples and showcase.
  [/\bwhat (?:people|others|users|folks|developers|designers|the community) (?:have |has )?(?:been )?(?:made|making|built|building|created|creating|doing|done) with (?:it|this|them)\b/g, ' community examples showcase '],
  // "The part that invites me to hire him": a call to action, whatever it invites to.
  [/\binvit(?:e|es|ing) (?:me|you|us|people|visitors|readers|them) to\b/g, ' invitation '],
  // A pull request is what its page calls a "PR".
  [/\bpull[- ]requests?\b/g, ' pullrequest '],
  // "Where are their offices?": where they are, not an office's work.
  [/\bwhere (?:are|is) (?:their|your|the|its|his|her|our) (?:offices?|headquarters|hq|branch(?:es)?|stores?|shops?|studios?)\b/g, ' location '],
  // "What do buyers say", "what clients think": the question word belongs to the phrase, not to "what it does";
  // who says it stays ($1).
  // What they say it about ("what a former student says about the program") is the page's whole subject, not a part of
  // it: the part is where they say it (a heading "OUR PROGRAM" is not the testimonials).
  // (Who says it may be long: "what do the developers who already use it think of it"; "what are people saying".)
  // (A relative clause about them is not who they are: "what are people who used it saying" asks for no team.)
  [/\bwhat (?:do |does |did |are |were |will |would |have |has )?((?:\w+ ){0,6}?)(?:says?|saying|said|thinks?|thinking|thought|feels?|feeling|felt)\b(?: (?:about|of) (?:it|us|them|him|her|(?:the|this|our|their|its|his|her) \w+|\w+ing(?: (?:there|here|with (?:them|us|him|her)|at (?:the|this|their) \w+))?)\b)?/g,
    (_match, who: string) => `${who.replace(/\b(?:who|that)\b.*$/, '').replace(/\bpeople\b/g, '')} testimonial`],
  // "How guests feel about it": an opinion. But "a feel for the rooms", "the feel of the place" is a sense of the
  // thing itself, not what anyone says about it, so "feel" alone is not enough.
  [/\bhow (?:[\w'’]+ ){0,3}?(?:feel|felt)\b/g, 'testimonial'],
  [/\b(?:says?|saying|said|thinks?|thought)\b/g, 'testimonial'],
  // "Big-name companies", "well-known brands that rely on it": the logos of its customers, not what it is used for.
  [/\b(?:big[- ]name|well[- ]known|famous|household[- ]name|major|leading|large) (?:companies|brands|businesses|firms|clients|customers|names|organi[sz]ations)\b(?: (?:that|who) (?:already )?(?:use|rely on|trust|run on|build on|build with)\b(?: (?:it|them|this|us))?)?/g, 'logos brand'],
  // "What the winning team takes home": the prize, not a team nor a price.
  [/\b(?:the )?win(?:ning|ners?['’]?s?) (?:team|teams|entry|entries|project|projects)?\s?(?:can )?(?:gets?|takes? home|wins?|receives?)\b|\btakes? home\b|\bwinning team\b/g, 'prize'],
  // "Real websites built with it", "apps made with this": a tool's showcase, the sites that use it (before the work of
  // a person below).
  [/\b(?:sites|websites|apps|applications|projects|products|pages|companies)\b(?: [\w'’]+){0,3}? (?:built|made|created|designed|powered|running|done) (?:with|using|on|in) (?:it|this|them)\b|\b(?:who|what|which (?:sites|companies|projects))(?: else)? (?:is |are )?(?:using|uses|use) (?:it|this)\b(?! for)/g, ' inuse '],
  // "The sites this developer has already built", "apps she has made": the work they show, not how it is built.
  // (The thing itself stays: "projects" may be the heading's own word.)
  [/\b(sites|websites|apps|projects|products|things|pages)\b(?: [\w'’]+){0,3}? (?:has |have |had )?(?:already )?(?:built|made|created|designed|done)\b/g, '$1 work'],
  // "Which dishes is this place known for", "what they're famous for": its specialties, signature dishes.
  [/\b(?:(?:best |most |well )?known|famous|renowned|loved|celebrated) for\b/g, 'specialty signature'],
  // "What happens on the first day, hour by hour": the programme of an event.
  [/\b(?:hour|minute) by (?:hour|minute)\b|\bhour-by-hour\b|\bwhat (?:happens|is on|goes on) (?:on|during|each|every) (?:the )?(?:first |second |third |last |final |opening |closing )?(?:day|morning|afternoon|evening|night)\b/g, 'schedule'],
  // "Lock my project to one exact release": pinning a version (a docs page's "Version Pinning").
  [/\b(?:lock|locking|fix|fixing|freeze|freezing|stick|sticking)s? (?:[\w'’-]+ ){0,3}?(?:to|at|on) (?:one |a |an |the )?(?:exact |specific |particular |single |fixed )?(?:release|version)\b/g, 'version pinning'],
  // "The table with the alternating shaded rows": a striped (zebra) table, as a UI kit's docs call it.
  [/\b(?:alternat(?:e|ing)|zebra)(?:[- ](?:shaded|shading|coloured|colored|grey|gray|tinted|striped))? rows?\b|\bzebra[- ]stripe[sd]?\b/g, 'striped'],
  // "What a warning message looks like": an alert, as a UI kit names it.
  [/\b(warning|error|success|danger|info) (?:message|notice|banner|box)\b/g, '$1 alert'],
  // "Everything they have built", "all she has made": the work they show.
  [/\b(?:everything|all|what) (?:that )?(?:they|he|she|we|you|it)(?: have| has|'ve|’ve)? (?:ever )?(?:built|made|created|designed|done|produced)\b/g, 'work'],
  // "Which tools and languages does he work with", "her tech stack": the skills of a person, not the product's features.
  [/\b(?:tools|languages|frameworks|technologies)(?: (?:and|&|or) (?:tools|languages|frameworks|technologies))? (?:does|do|did) (?:this|the|that|he|she|they)\b(?: [\w'’]+){0,2}? (?:work|use|know|code)s?(?: with| in)?\b|\btech(?:nology)? stack\b/g, 'skill'],
  // "A little about who this person is", "who she is": the about part of a person's page.
  [/\bwho (?:this|the|that) (?:person|developer|designer|guy|woman|man|artist|writer|photographer|freelancer|creator) (?:is|really is)\b|\bwho (?:he|she) (?:is|really is)\b/g, 'bio'],
  // "What they offer clients": a person's or a firm's services.
  [/\bwhat (?:he|she|they|you|we) (?:can )?offers? (?:to )?(?:clients|customers|businesses|companies)\b/g, 'service'],
  // "Do you clean offices as well?", "does the studio repair vintage bikes?": a yes-or-no question that opens on what a
  // business does asks for its services (not a question of having, offering or taking something).
  [/^\s*(?:do|does) (?:you|they|the (?:\w+ )?(?:company|firm|studio|agency|team|business|shop|clinic|salon|garage))(?: also| even| still)? (?!have\b|has\b|offer|need|want|know|think|mean|get\b|say|use\b|support|accept|take|charge|cost|work\b|ship\b|deliver)([a-z]+)\b/g, 'service $1'],
  // "When can family come", "when may I visit": the hours of a place, not a date.
  [/\bwhen (?:can|may|could|should|do|does) (?:\w+ ){1,3}?(?:come|visit|drop by|stop by|pop in|call in)\b/g, 'hour visit'],
  // "The quotes from happy users", "quotes by former nurses": what people said, not a price quote.
  [/\bquotes? (?:from|by)\b/g, 'testimonial'],
  // "What kind of game is this?", "what sort of tool is it": what the thing is, told in its description ("About …").
  [/\bwhat (?:kind|sort|type) of (\w+) (?:is|are) (?:this|it|that|they|these)\b|\bwhat (?:is|['’]s) (?:this|it) (?:all )?about\b/g, 'description $1'],
  // "Show one slide at a time", "one item per view": a single one (a "Single Item" example), not the word "one".
  [/\bone (\w+ )?(?:at a time|per (?:view|page|screen))\b/g, 'single $1'],
  // "In a random order", "at random": shuffled (the word itself, as a demo's heading says it), not the reorder of a grid.
  [/\b(?:in )?(?:a )?random(?:ly)? (?:order|sequence)\b|\bat random\b/g, 'random shuffled'],
  // "From my own code", "programmatically": what a program calls, the API ("Methods"), not the code samples of a demo.
  [/\b(?:from|in|with|through) (?:my|our|your|their|the) (?:own )?(?:code|script|javascript|program)\b|\bprogrammatically\b/g, 'api'],
  // "Tear the slider down", "tear it down": destroying it (a library's destroy()), not a way down the page.
  [/\btear(?:s|ing)? (?:(?:it|them|this|that|the \w+) )?down\b|\bteardown\b/g, 'destroy'],
  // "How does it stack up against X", "compared to", "vs": a comparison, not "does" (features) or "stack" (integrations).
  [/\b(?:how (?:does|do|would|will) (?:it|they|this|we) )?stacks? up (?:against|to|with)\b|\bcompared? (?:to|with)\b|\bversus\b|\bvs\b\.?/g, 'comparison'],
  [/\bopening (?:hours|times)\b/g, 'hour'],
  // "What time does the cafe open on Saturdays?", "when do they close", "are you open on Sundays": the opening hours.
  [/\b(?:what time|when|how late|how early|until when)(?: [\w'’]+){0,4}? (?:open|opens|close|closes|shut|shuts)\b|\b(?:is|are) (?:it|they|you|we|the [\w'’]+) (?:open|closed)\b/g, 'hour'],
  // "the difference it has made": what was achieved, not a comparison.
  [/\b(?:the )?difference (?:(?:\w+ ){0,4}(?:made|makes|make|making)\b)|\bmake(?:s)? a difference\b/g, 'impact'],
  // Giving money: "chip in", "support the cause financially", "make a donation" (before giving time: "pitch in").
  [/\bchip(?:s|ped|ping)? in\b|\bgive (?:money|what (?:you|they|we) can)\b|\bsupport (?:us|them|it|the (?:cause|work|charity|project)) (?:financially|with (?:money|a gift|a donation))\b|\bmake a (?:donation|one-off gift|monthly gift)\b/g, 'donate'],
  // Giving time: "help out", "lend a hand", "give up a Saturday", not the FAQ's help nor the opening hours' days.
  [/\bhelp(?:s|ing)? out\b|\blend(?:s|ing)? a hand\b|\bpitch(?:es|ing)? in\b|\bget(?:ting)? involved\b|\bgive (?:up )?(?:a|an|one|their|your|some|spare) (?:\w+day|weekend|morning|evening|afternoon|hours?|time|days?)\b/g, 'volunteer'],
  // "Make a quick clip", "I need a short promo", "put together a demo that…": the request, not its subject.
  [/\b(?:i need|i'd like|i want|we need|let's do|let us do|can you (?:do|make|record|create)|(?:make|record|create|do|shoot|produce|put together|give me)) (?:a|an|me a|us a)? ?(?:(?:quick|short|little|fun|punchy|snappy|polished|new|\d+[\s-]second) )*(?:video|clip|reel|demo|promo|teaser|walkthrough|walk-through|trailer|recording|tour)\b/g, ' '],
  [/\bapp ?store\b|\bgoogle play\b|\bplay store\b/g, 'download'],
  // "The video player example", "their promo video": a film on the page, not the demo the prompt asks for (whose
  // "video" is a stop word).
  [/\bvideos? (?:player|embed|element|example|clip)s?\b|\b(?:embedded|promo|promotional|product|intro|explainer|youtube|vimeo) videos?\b/g, 'film'],
  // "Where has she worked before", "his previous jobs", "their work history": the jobs held, not the portfolio's work.
  // ("The companies he worked for" is the clients', below.)
  [/\b(?:has|have|had) (?:\w+ )?worked (?:before|previously|so far)?\b|\bworked (?:before|previously)\b|\b(?:previous|past|former) (?:jobs?|roles?|employers?|positions?)\b|\bwork(?:ing)? (?:history|experience)\b/g, 'experience'],
  // "How she goes about a project", "how they approach it", "their way of working": the process.
  [/\bhow (?:she|he|they|you|we|i|it|the team) (?:goes|go|going|went) about\b|\bhow (?:she|he|they|you|we|the team) (?:approach(?:es)?|tackles?|works?)\b|\bway of working\b/g, 'process'],
  // "What people are buying most", "the best sellers": what sells, the popular products.
  // "The dishes diners love most", "what customers like best", "the most loved": their favourites.
  [/\b(?:love[sd]?|lik(?:e[sd]?|ing)|enjoy(?:s|ed)?) (?:the )?(?:most|best)\b|\bmost (?:loved|liked|enjoyed)\b|\bfan[- ]favou?rites?\b/g, 'popular'],
  [/\b(?:buy(?:s|ing)?|bought|order(?:s|ing)?|purchas(?:e|es|ing)) (?:the )?most\b|\bmost (?:bought|ordered|purchased|sold)\b|\bsell(?:s|ing)? (?:the )?(?:most|best)\b|\bbest[- ]?sellers?\b/g, 'popular'],
  // "Which companies has he done work for", "brands they worked with": the clients, not the portfolio's work.
  [/\b(?:compan(?:y|ies)|brands?|businesses|firms|organi[sz]ations)\b(?: [\w'’]+){0,3}? (?:work(?:s|ed)?|done work|built|designed) (?:for|with)\b/g, 'client company'],
  // "Follow them to hear about new releases", "follow us for updates": their social accounts, not the release notes.
  [/\b(?:follow|keep up with) (?:them|us|him|her|it)\b(?:[\w'’ ]{0,20}?) (?:to (?:hear|learn|find out|know) (?:about|of)|for) (?:any |the )?(?:new(?:est)? |latest |upcoming )?(?:releases?|updates?|news|versions?)\b/g, ' follow social '],
  // "What changed in the latest releases", "what's new", "the most recent Starlette release": the change log, not a
  // change of plan.
  [/\bwhat(?:'s|’s| has| have)? (?:changed|new)\b|\b(?:latest|(?:most )?recent|newest) (?:[\w-]+ )?(?:releases?|versions?|updates?)\b|\b(?:new|past) (?:releases?|versions?|updates?)\b|\brelease notes\b/g, 'changelog'],
  // "For power users", "expert mode": what goes beyond the basics, not "power" (features) nor the users.
  [/\bpower[- ]users?\b|\bexperts? (?:users?|mode)\b/g, 'advanced'],
  // "How to get in touch with the organisers", "talk to the team": the way to reach them is asked, not who they are.
  [/\b(?:get(?:ting)? in touch|talk(?:ing)?|speak(?:ing)?|reach(?:ing)? out|chat(?:ting)?) (?:with|to) (?:the |their |its |our |his |her )?(?:organi[sz]ers?|team|staff|owners?|founders?|hosts?|people (?:behind|running) (?:it|this|the \w+))\b/g, 'contact'],
  [/\bget(?:ting)? in touch\b|\breach(?:ing)? out\b|\bdrop (?:us |them )?a line\b|\bget(?:ting)? (?:a )?hold of\b/g, 'contact'],
  // "End on booking a visit", "reserve a table": the booking is the subject; what is booked only says what kind
  // (a section about the first visit is not where one books it).
  // "Reserving a spot for dinner", "book a table for two": what it is for says when, not what to show (alone, "dinner"
  // went to the menu).
  [/\b(?:book|booking|reserve|reserving|schedule|scheduling) (?:a |an |your |the |my )?(?:visit|appointment|table|slot|spot|seat|place|consultation|session|viewing|check-?up|call|meeting)\b(?: for (?:dinner|lunch|breakfast|brunch|supper|tonight|two|\d+|a group|the (?:evening|night|weekend)))?/g, 'booking'],
  // "Anything special on certain nights of the week", "which days of the week": the weekdays a page names ("Steak
  // Night Tuesdays", "Open Monday–Friday").
  [/\b(?:nights?|days?|evenings?) of the week\b|\bweek ?nights?\b/g, 'weekday'],
  // "What they serve": a kitchen's menu, not a firm's services.
  [/\bwhat (?:they|you|it|the (?:restaurant|kitchen|cafe|café|bar|place)) (?:serves?|cooks?)\b/g, 'menu'],
  // "Who are the cooks", "the chefs in the kitchen": the people who cook, a team, not the food.
  [/\b(?:cooks|chefs|bakers|baristas|bartenders)\b/g, 'chef team'],
  [/\bhow (?:much|expensive)\b|\bset (?:me|you|us) back\b/g, 'pricing'],
  // "Where their office is", "the company's headquarters": where it works from, not offices as premises it cleans.
  [/\bwhere (?:(?:is|are) )?(?:their|the|its|your|his|her) (?:main |head )?(?:office|offices|headquarters|hq)\b|\bhead ?quarters\b|\bhead office\b/g, 'location'],
  // "Why the product is well made": its quality, as a page says it ("Quality meets…", "Premium quality").
  [/\bwell[- ](?:made|built|crafted)\b|\b(?:built|made) to last\b/g, 'quality'],
  // "How easy it is to learn", "the learning curve": the skill it takes ("Anyone can start with minimum skills").
  [/\bhow (?:easy|hard|simple|difficult) (?:it is |is it )?to (?:learn|pick up|get the hang of|master)\b|\blearning curve\b/g, 'skill easy learn'],
  // "What the app's screens look like", "screenshots of it": the pictures of the app, its gallery.
  [/\b(?:what )?(?:the |its |their )?screens? (?:look|looks) like\b|\bscreen ?shots?\b/g, 'screenshot'],
  // "What they can do for my business": the services a firm offers, not the product's features.
  [/\bwhat (?:they|she|he|the (?:team|agency|firm|company|studio)) (?:can|could) do for (?:me|us|you|my \w+|our \w+)\b/g, 'service'],
  // "What would it cost me to book her", "the price to hire them": what booking costs is asked, not how to book.
  [/\b(?:cost|costs|price|fee|charge)s? (?:(?:me|us|you) )?(?:to|for) (?:book(?:ing)?|hir(?:e|ing)|rent(?:ing)?|reserv(?:e|ing))\b/g, 'pricing'],
  // "At no cost", "free of charge": what it costs is nothing, so the ask is the free sign-up, not the prices.
  [/\b(?:at|for) no (?:cost|charge)\b|\bfree of charge\b|\bwithout paying\b|\bcosts? nothing\b/g, 'free'],
  // "What he likes doing in his free time", "what she does for fun": hobbies (not a free plan, not features).
  [/\bwhat (?:he|she|they|i|you) (?:likes?|loves?|enjoys?) (?:doing|to do)\b|\b(?:in|during) (?:his|her|their|my|your) (?:free|spare) time\b|\bfor fun\b|\boutside (?:of )?work\b/g, ' hobbies '],
  // "The icons also work on phones", "runs on my smartphone": the mobile platforms (Android, iPhone), not a phone number.
  [/\b(?:work|works|working|run|runs|running|available|usable) (?:(?:just )?as well )?on (?:(?:my|your|their|a|an|the|all) )?(?:(?:mobile|smart) ?)?(?:phones?|mobiles?|tablets?)\b/g, ' mobile android iphone '],
  // "Phone numbers", "telephone number": a way to call, not figures (stats).
  [/\b(?:tele)?phone numbers?\b/g, ' phone '],
  // "Which films do viewers score the highest", "the best-rated ones": the top rated (not what a plan's rate costs).
  [/\b(?:score|scored|scores|rate|rated|rates|review|reviewed) (?:the |them |it )?(?:highest|best|most highly)\b|\b(?:best|highest|top)[- ](?:rated|scored|reviewed)\b/g, ' top rated '],
  // "Not tested on animals", "no animal testing": cruelty-free.
  [/\bnot tested on animals\b|\b(?:no|without) animal testing\b|\banimal[- ]friendly\b/g, ' cruelty '],
  // "When do papers have to be in", "when is the deadline", "when will authors hear back": the dates of a call.
  [/\bwhen (?:do|does|will|must|should|are|is) (?:[\w-]+ ){0,3}?(?:have to be (?:in|sent|submitted)|need to be (?:in|sent|submitted)|be (?:in|due|submitted)|due|hear back|be notified|get (?:an answer|a reply|results))\b|\bwhen (?:is|are) the deadlines?\b/g, 'date deadline'],
  [/\bwho (?:works|is behind|runs|makes)\b/g, 'team'],
  // "Who reviews the submitted papers", "who judges the entries": the people who do it (a committee, a jury), not the
  // thing they do it to ("Call For Papers" is where papers are sent).
  [/\bwho (?:reviews|judges|referees|selects)(?: (?:the|our|my|your|their|all|each|every))?(?: [\w-]+){0,2}/g, ' team reviewer '],
  // "Who wrote it", "who wrote the book": its author, not a team nor who it is for (a
  // book's, an article's; before the contributors of a project below).
  [/\bwho (?:wrote|writes|has written|is writing|penned|authored) (?:it|this|that|the \w+)\b|\bwho (?:is|['’]s) the (?:author|writer)\b/g, ' author '],
  // "The developers who have written code for it", "the people who built it": its contributors, not an audience (the
  // rule after this one) nor the docs (where "code" also stands).
  [/\b(?:[a-z]+ )?who (?:have |has |had )?(?:written|wrote|writes?|built|builds?|coded|contributed|contributes?|committed)\b(?: (?:the |its |their )?(?:code|software|it|to it))?/g, 'contributor'],
  // "Which jobs can the firm take on", "the projects they undertake", "the kinds of lock jobs they handle": the work it
  // does for clients, its services.
  [/\b(?:take|takes|taking|took) on\b|\bundertakes?\b|\b(?:jobs|work|projects|cases|repairs|tasks)(?: [\w'’]+){0,2}? (?:they|he|she|you|we|the (?:firm|team|company|studio)) (?:can )?(?:handle|handles|do|does|cover|covers)\b/g, 'service'],
  // "folks who are scared", "people who hate forms": a relative "who" with a state or a feeling says which audience
  // the video is for, and so does the word it hangs on; neither asks who is behind it ("show people who are nervous"
  // is not the team). "The people who lead the climbs" (who does the work) and a question's "who" ("meet who you
  // will see", "who will look after me") still mean the team.
  [/\b([a-z]+) who (?=(?:are|is|were|was|feel|felt|get|gets|hate|hates|dread|dreads|fear|fears|need|needs|want|wants|have|has|had|love|loves|struggle|struggles|worry|worries|can't|cannot|don't|doesn't|never|still|already|might|may)\b)/g,
    (match: string, before: string) => (questionLeadsBeforeWho.has(before) ? match : ' ')],
  // "What it does", "what the app can do": its features (the words alone are a question's frame).
  // Not when a subject follows: "what degree does he have" asks for the degree, with "does" only its auxiliary.
  [/\bwhat (?:it|they|this|the \w+|\w+) (?:does|do|can do|can offer|offers?)\b(?! (?:he|she|they|it|we|i|you|one|someone|anyone|the|this|that|my|your|our|their|his|her)\b)/g, 'feature'],
  // "Feature the long article", "spotlight the gallery": the verb asks to show, it names no section.
  [/^\s*(?:feature|spotlight)\s+(?=(?:the|a|an|our|its|their|this|that)\b)/g, ' '],
  // "Open on the challenge topics", "begin with the team", "kick off with the prices": where the video starts, as "end
  // on" says where it ends; not an "open" the page says ("open to all students").
  [/^\s*(?:open|opens|opening|begin|begins|beginning|kick off|kicks off|lead|leads) (?:on|with)\b/g, ' '],
  // "What are the opening hours": the question's frame, not "what it does" (features).
  [/\bwhat(?: are|'re| is|'s| were| was) (?:the|its|their|your|our)\b/g, ' '],
  // "Get her new posts by email", "receive the news in my inbox": a newsletter to subscribe to, not the posts or a contact.
  [/\b(?:get|getting|receive|receiving|have)\b(?: [\w'’]+){0,4}? (?:by|via|through) e-?mail\b|\b(?:get|getting|receive|receiving)\b(?: [\w'’]+){0,4}? in(?:to)? (?:my|our|your|their) inbox\b/g, 'newsletter'],
  // "book for Friday night", "a table tonight": when the viewer wants to come, not a subject (the opening hours).
  [/\b(?:for|on|this|next) (?:(?:mon|tues|wednes|thurs|fri|satur|sun)day|weekend)(?: (?:night|evening|morning|afternoon))?\b|\btonight\b|\btomorrow(?: (?:night|evening|morning))?\b/g, ' '],
  // "end by asking viewers to sign up": the asking is the video's, not a question (FAQ); what they are asked to do stays.
  [/\b(?:ask|asks|asking|invite|invites|inviting|encourage|encourages|encouraging|tell|telling) (?:people|viewers|visitors|users|them|everyone|folks|the audience|the viewer) to\b/g, ' '],
  // "the companies that back the event", "who funds it": sponsors, not a way back.
  [/\b(?:back(?:s|ed|ing)?|fund(?:s|ed|ing)?) (?:the|this|our|it)\b/g, 'sponsor'],
  // "News and special offers by email", "updates in my inbox": a newsletter, not the blog's news nor a way to write.
  [/\b(?:news|updates?|offers?|deals?|promotions?|tips|discounts?)\b(?:[\w'’ ]{0,30}?) (?:by|via|over|in|to) (?:e-?mail|(?:my|your|our|the) inbox)\b|\be-?mail(?:ed)? (?:me |us |you )?(?:the )?(?:news|updates|offers|deals)\b/g, 'newsletter'],
  // "Help work on the compiler", "send my changes", "open a pull request": contributing to an open-source project (its
  // "Contributing" guide), not the changelog's changes nor the FAQ's help.
  [/\bhelp(?:ing)? (?:to )?(?:work on|build|develop|improve|hack on)\b|\bsend(?:s|ing)? (?:in )?(?:(?:my|our|your|their|new|own|some) )*(?:changes|fixes|patches|improvements|pull requests)\b|\b(?:open|make|submit)(?:s|ing)? a pull request\b|\bpull requests?\b/g, 'contributing'],
  // Acronyms a kit's docs name their parts by, spelled out: "right to left" is RTL, "by itself" is automatic ("Auto
  // close", "Autoplay").
  // (the words stay too: a page may spell it out, "Right-to-Left Support")
  [/\bright[\s-]to[\s-]left\b/g, 'rtl right left'],
  [/\bleft[\s-]to[\s-]right\b/g, 'ltr left right'],
  [/\bby (?:it|them)sel(?:f|ves)\b|\bon (?:its|their) own\b|\bautomatically\b/g, 'auto'],
  // "stay in the loop", "keep me posted": a newsletter, not a place to stay or a post.
  [/\bstay (?:in the loop|up to date|informed|posted|tuned)\b|\bkeep (?:me|you|them|us|viewers|people) (?:posted|updated|informed|in the loop)\b/g, 'newsletter'],
  // "works with GitHub", "plugs into", "the tools teams already use": integrations, not features or a portfolio.
  [/\bworks? (?:with|alongside)\b|\bplugs? (?:in|into)\b|\bconnects? (?:to|with)\b|\bplays? (?:nice|nicely|well) with\b/g, 'integration'],
  [/\b(?:tools|apps|software|services) (?:\w+ ){0,2}(?:already )?(?:use|uses|rely on|love)\b/g, 'integration'],
  // "How it works", "how the booking works": the process (after "works with", which is an integration).
  [/\bhow ((?:[\w'’]+ ){1,3}?)works?\b/g, '$1process'],
  // "Made headlines", "in the press": what the news wrote, not the page's own headline.
  [/\b(?:made|make|makes|making|hit|hits|grabbed|grabbing) (?:the )?headlines\b|\bin the (?:headlines|press|news)\b/g, 'news'],
  // "Covered in the media", "featured in the papers": what the press wrote about them.
  [/\b(?:covered|featured|mentioned|written up|profiled|interviewed) (?:in|by) (?:the )?(?:media|papers|newspapers|magazines|press|news)\b/g, 'news'],
  // "The robots and gadgets he has built": what a person or a studio built is its projects (the noun stays).
  [/\b(?:he|she|they|we|i)(?:'ve|’ve| have| has| had)? (?:built|developed|created|designed|engineered)\b/g, 'project'],
  // "Where the place is located", "where they are based": the location, whatever the place is called.
  [/\bwhere (?:[\w'’]+ ){0,3}?(?:is|are) (?:located|based)\b/g, 'location'],
  // "A proven track record": what was achieved (the stats), not where a parcel is.
  [/\btrack records?\b/g, 'record'],
  // "Follow where my parcel is", "keep track of the order": tracking it; what is tracked stays ($1).
  [/\b(?:follow|see|check|know|find out|tell) where (?:my|our|your|the|their|a) (\w+) (?:is|are)\b/g, 'tracking $1'],
  [/\bkeep(?:s|ing)? (?:track|tabs) (?:of|on)\b/g, 'tracking'],
  // "How quickly will my food get to me", "how soon does an order arrive": the delivery's speed; what is delivered is
  // the page's whole subject (a restaurant's food), not a part of it.
  [/\bhow (?:quickly|fast|soon|long)(?: [\w'’]+){0,4}? (?:gets? (?:to|here to) (?:me|you|us|them)|arrives?|(?:be|is|are|get|gets) (?:delivered|shipped)|turns? up)\b/g, 'delivery speed'],
  // "How long have they been around", "how long has the place been going": years in business.
  [/\bhow long (?:have|has) (?:[\w'’]+ ){1,3}?been (?:around|going|open|running|trading|in business|operating)\b|\bbeen around\b/g, 'history year experience'],
  // "How many customers have they served": a figure.
  [/\bhow many\b/g, 'stats'],
  // "A regular who comes in for lunch": a customer.
  [/\b(?:a|the|their|our|one of the) regulars?\b/g, 'customer'],
  // "Everything they can fix", "all it can build": what they offer (what it can *do* is its features, above).
  [/\b(?:everything|all|anything|what) (?:they|he|she|we|you) (?:can|could) (?=\w)/g, 'service '],
  // "The things he has built", "stuff they've made": their projects.
  [/\b(?:things|stuff) (?:(?:they|we|he|she|you|i)(?:'ve|’ve| have| has| had)? )?(?:built|made|created|shipped|developed|designed|worked on)\b/g, 'project'],
  // "Projects the agency has shipped for clients", "sites built for customers": work done for others, the portfolio; the
  // clients are whom it was for, not what is asked (their testimonials).
  [/\b(?:shipped|built|made|delivered|done|created|designed|developed|completed|launched) for (?:(?:their|its|our|his|her|the|some|many|real) )?(?:clients|customers|brands|companies|businesses)\b/g, 'project'],
  // "Jobs they've finished", "work they have done": their past projects (a "job" alone is as often a vacancy).
  [/\b(?:jobs?|work) (?:(?:they|we|he|she|you)(?:'ve|’ve| have| has| had)? )?(?:finished|done|completed|delivered|carried out)\b/g, 'project'],
  // "Why learn with them", "why shop at them": the verb is what the whole page offers; the question asks for reasons.
  [/\bwhy (?:should (?:i|we) |would (?:i|we) |do people )?[a-z]+ (?:with|from|at) (?:them|us|him|her|it)\b/g, 'reason'],
  [/\b(?:rather than|instead of) (?:somewhere|anywhere|someone|anybody|anyone) else\b/g, 'comparison'],
  // "Up to date": recent.
  [/\bup[- ]to[- ]date\b/g, 'uptodate'],
  // "The people giving talks", "whoever is presenting the sessions": the speakers, not the programme of talks.
  [/\b(?:people|persons|folks|experts|guests|those|ones|the ones|who(?:ever)?(?: is| are)?) (?:giving|presenting|delivering|leading|doing|running) (?:the |a |their )?(?:talks?|sessions?|keynotes?|presentations?|lectures?|workshops?)\b/g, 'speaker'],
  // "Lists tucked inside other lists", "menus within one another": nesting.
  [/\b(\w+?)s? (?:tucked |placed |put |sitting |living )?(?:inside|within|in) (?:other|another|each other|one another|their own) \1s?\b|\b(?:inside|within) (?:each other|one another)\b/g, 'nested'],
  // "Where do I leave my email to hear about it before launch": a waitlist's or a newsletter's box, not a contact.
  [/\b(?:leave|drop|give|enter|put|submit)s?\s+(?:my|our|your|an?|the|their)\s+e-?mail(?: address)?\b|\bhear (?:about|of) (?:it|this|them)(?= (?:first|early|before|when))|\bbefore (?:it |the app |the product )?launch(?:es)?\b|\bget notified\b/g, 'signup'],
  // "How the notice looks", "change how it looks": its appearance (the thing's own words stay), not a look at it.
  [/\bhow ((?:[\w'"“”-]+ ){0,5}?)(?:looks|look|appears)\b(?! (?:at|for|into|up|like|after|through|around))/g, 'how $1 appearance'],
  // "Getting it running on my dropdowns", "set it up", "add it to my project", "get this into my project": a library's
  // setup, not a run or a project.
  [/\bget(?:s|ting)? (?:it|this|them|\w+) (?:up and )?(?:running|working)\b|\bset(?:s|ting)? (?:it|this|them|things) up\b|\bget(?:ting)? started\b|\b(?:add|adds|adding|put|putting|include|including|use|using|install|installing|drop|dropping|get|getting|bring|bringing) (?:(?:it|this|them) )?(?:in|into|to|on) (?:my|our|your|a|the) (?:own )?(?:project|site|app|page|code|codebase|build)\b/g, 'setup'],
  // "Play several times in a row", "over and over", "loop forever": repeating it, not a row of a table nor forever as time.
  [/\b(?:several|many|a few|multiple|(?:a )?(?:number|couple) of) times(?: in a row| over)?\b|\bover and over(?: again)?\b|\bagain and again\b|\bmore than once\b|\bloop(?:s|ing)? forever\b/g, 'repeat'],
  // "Stop people picking more than a handful": a limit (of an option), not who the people are.
  [/\b(?:stop|stops|stopping|prevent|prevents|preventing)(?: \w+){0,3}? (?:from )?\w+ing more than\b/g, 'limit'],
  // "Push numbers from my scripts", "feed my metrics in": getting data in (developer tools, dashboards), not a page's
  // figures (the stats).
  [/\b(?:push|send|feed|pipe|post|stream|load|import)(?:es|s|ed|ing)? (?:(?:my|our|your|their|the|own|some|live) )*(?:numbers|data|figures|metrics|values|readings)\b/g, 'data'],
  // "Which templates can I pick from", "colours to choose from": picking among what is offered; the noun is what is
  // asked, no comparison ("choose between" still compares).
  [/\b(?:pick|choose|select)(?:s|ing)? from\b/g, ' '],
  // "The closing thoughts", "final words": how a text ends, its epilogue or conclusion.
  [/\b(?:closing|final|parting|concluding) (?:thoughts?|remarks?|words?|notes?)\b/g, 'conclusion'],
  // "What shipped in the last release", "what changed since": "what" is the subject of a deed, no feature.
  [/\bwhat (?=(?!need|feed|seed|speed)[a-z]{3,}ed (?:in|on|with|since|for|to|at|last|this)\b)/g, ' '],
  // "What options can I pass", "what dishes do they serve": "what" asks which of a noun, it is no feature; the noun is
  // what is asked (last, after the phrases that read "what it does", "what people say").
  // (The noun may have words before it: "what interactive pieces does it include".)
  [/\bwhat (?=(?:[\w-]+ ){1,3}(?:can|could|do|does|did|should|would|will|are|is|were|was|have|has) (?:i|we|you|they|it|he|she|one)\b)/g, ' '],
  // "Which formats I'd receive", "what do I get": what it comes with (not "get started", "get in touch").
  [/\b(?:i['’]?d|i would|i will|i['’]ll|you['’]?d|you would|you will|you['’]ll|do i|will i|would i|do you|will you|would you) (?:receive|get)\b(?! (?:started|in touch|there|here|to|help|hold|back|a quote|an? answer))/g, ' included '],
  // "How consistent have I been with meditating", "how often did I run": one's own record, its statistics.
  [/\bhow (?:consistent|regular|regularly|often|well|much progress)(?: [\w'’]+){0,2}? (?:have|has|did|am|was|were) (?:i|we)\b(?: been)?/g, ' statistic '],
  // "Somewhere to stay", "a place to sleep near the venue": accommodation, not the venue itself.
  [/\b(?:somewhere|anywhere|a place|places|where) to (?:stay|sleep|spend the night)\b|\bstay (?:over|overnight)\b/g, ' accommodation lodging '],
  // "What are they building at the moment", "right now": what is current, not what is done.
  [/\b(?:at the moment|right now|at present|these days|currently)\b/g, ' current '],
  // "Getting it onto my phone", "install it on my iPhone": the app's download, not a phone number.
  [/\b(?:get|gets|getting|put|putting|install|installing|download|downloading|have|having) (?:it|this|the app|them) (?:on|onto|to|for) (?:my|your|a|our) (?:phone|iphone|android|device|mobile|smartphone|tablet)\b/g, ' get app download install '],
  // "Will they send an order to me overseas", "do you ship abroad": the delivery, wherever it goes.
  [/\b(?:send|sends|ship|ships|post|posts|deliver|delivers)(?: (?:an?|my|the|your|our) )?(?: ?(?:orders?|parcels?|packages?|items?|it|them|things))?(?: [\w'’]+){0,3}? (?:overseas|abroad|internationally|worldwide|to (?:my|another|other|any) countr(?:y|ies))\b/g, ' delivery shipping '],
  // "Then move on to restyling it", "go on to the prices": how the video passes from one beat to the next, not a
  // "move" the page documents.
  [/\b(?:mov(?:e|es|ing)|go(?:es|ing)?|carr(?:y|ies|ying)) on (?:to|with)\b/g, ' '],
  // "The reasons to hire them over someone else", "why pick them over the competition": how they differ.
  [/\bover (?:someone|anyone|anybody|somebody) else\b|\bover (?:the )?(?:others|other (?:firms|companies|agencies|shops)|competitors|competition|rivals|alternatives)\b/g, ' different '],
  // "Which towns and counties will they come out to", "what areas do you cover": where a local trade works.
  [/\b(?:towns?|cities|city|areas?|neighbou?rhoods?|count(?:y|ies)|regions?|suburbs?|postcodes?|zip codes?)\b(?: (?:and|or) [\w]+)?(?: [\w'’]+){0,3}? (?:serve|served|cover|covered|come (?:out )?to|travel to|work in|operate in)\b|\bcome out to\b/g, ' servicearea '],
  // "Where would we stay", "where do guests sleep": the rooms, not the place's address.
  [/\bwhere (?:would|will|do|can|could|should|does|did) (?:we|i|you|they|guests|visitors|people) (?:actually |really )?(?:stay|sleep)\b/g, ' room '],
  // "Where the event takes place", "where it is held": the venue.
  [/\bwhere (?:the |this |it |they |he |she )?(?:[\w-]+ )?(?:takes? place|is held|are held|will be held|happens|is happening)\b/g, ' venue location '],
  // "What do they cost", "what does it weigh": "what" frames the question, the verb after the pronoun is what is asked.
  [/\bwhat (?=(?:do|does|did|can|could|would|will|should) (?:i|we|you|they|it|he|she|one|these|those)\b)/g, ' '],
  // "Which browsers does this colour picker work in": "does" after the nouns a question asks which of is its
  // auxiliary, not "what it does" (features).
  [/\b(which|what) ((?:[\w-]+ ){1,2})(?:does|do|did) (?=(?:this|the|it|they|he|she|you|i|we|its|their|your) )/g, (_match: string, wh = '', nouns = '') => `${wh} ${nouns}`],
];

/**
 * Phrases of a page that name a concept no single word of them does ("Find us" is where the place is). Unlike the
 * prompt's, these stay beside the words: the heading "Find us" still has "find".
 */
export const pagePhrases: Array<[RegExp, string]> = [
  [/\bearly[- ]access\b/i, 'beta'],
  [/\bPRs?\b|\bpull[- ]requests?\b/, 'pullrequest'],
  // "Product Overview", "Our Products", "Featured products": the catalogue of a shop.
  [/\bproducts? (?:overview|range|catalog(?:ue)?|list(?:ing)?|grid)\b|\b(?:our|all|featured|new|latest|top|popular|trending) products\b/i, 'wares'],
  // A heading that asks what a thing is ("What is a controlled vocabulary?") explains it.
  [/^\s*what (?:is|are) (?:an? |the )?[\p{L}\d-]+(?: [\p{L}\d-]+){0,3}\s*\??\s*$/iu, 'definition'],
  // "Contact sales", "Talk to our sales team": where to write to ("sales" alone is a shop's price cuts as often).
  [/\b(?:contact|talk to|speak (?:to|with)|call|email|ask) (?:our |the )?sales\b|\bsales (?:team|department|reps?|representatives?|enquir(?:y|ies)|inquir(?:y|ies))\b/i, 'contact'],
  // "Hot sales", "hot sellers", "what's hot": what sells most (not "hot" alone: coffee, weather, a hot tub).
  [/\bhot (?:sales?|sellers?|selling|items|products|picks|deals|right now)\b|\bwhat['’]?s hot\b/gi, 'popular'],
  // "Top Sellers", "Best-selling": who or what sells most (an NFT market's artists, a shop's products).
  [/\b(?:top|best)[- ]?(?:sellers?|selling)\b/gi, 'popular'],
  // "10% off every Wednesday", "$5 off", "half price": a discount, said without the word.
  [/\d+ ?%\s?off\b|[$€£]\s?\d+(?:[.,]\d+)?\s?off\b|\bhalf[- ]price\b|\b(?:buy one,? get one|bogo)\b/gi, 'discount'],
  // "$3.50", "€29", "12,90 €" under a product: its price, what "what do they cost" asks for. Not a figure in the
  // thousands or millions ("$53,000" today, "$2M raised"), which is no price tag.
  [/[$€£¥]\s?\d{1,4}(?:[.,]\d{1,2})?(?![\d,.]*\d)(?!\s?(?:k|m|bn?|million|billion)\b)|\b\d{1,4}(?:[.,]\d{2})?\s?(?:€|eur\b|usd\b)/gi, 'price'],
  // "As featured in", "As seen on", "Featured in" over a row of outlets' logos: the press that wrote about them.
  [/\b(?:as )?(?:featured|seen|mentioned|covered) (?:in|on|by)\b(?!\s+(?:our|my|this|the (?:app|product|demo|video)))/i, 'news'],
  // "Sites using Concrete", "Who's using it", "Built with Milligram", "In the wild", "Showcase": a tool's showcase.
  [/\b(?:sites|websites|apps|projects|companies|products|teams|who['’]?s|who is) (?:using|built (?:with|on)|made with|powered by|running on)\b|\bin the wild\b|\bshowcase\b/i, 'inuse'],
  [/\bchange[\s-]?log\b|\brelease notes\b|\bwhat[’']?s new\b/i, 'changelog'],
  [/\b(?:last|final|closing|parting) (?:words|thoughts|remarks)\b|\bin conclusion\b/i, 'conclusion'],
  // A telephone number written out ("+1 (555) 010-2030", "020 7946 0958"): what "the phone number" asks for.
  // International ("+23 345 67980"), North American ("(555) 010-2030", "555-010-2030") or national ("020 7946 0958")
  // forms only: a year range ("2009 - 2011") is not one.
  [/\+\d[\d\s().-]{6,}\d|\(\d{2,4}\)\s?\d{3}[\s.-]?\d{3,4}\b|\b\d{3}[\s.-]\d{3}[\s.-]\d{4}\b|\b0\d{2,4}\s\d{3,4}\s\d{3,4}\b/g, 'phone'],
  [/\bwhat (?:it|we|they) (?:does|do|can do|offers?)\b/gi, 'feature'],
  // A firm's "What we do" is its services as much as its features.
  [/\bwhat we (?:do|offer)\b/gi, 'service'],
  // A firm's "Practice Areas" ("Practicing Areas", "Areas of Practice"): the kinds of work it takes on.
  [/\bpractic(?:e|ing) areas?\b|\bareas? of (?:practice|expertise|law)\b/gi, 'service'],
  [/\b(?:find|visit) us\b|\bgetting (?:here|there|to)\b|\bhow to (?:get|find) (?:here|there|us)\b|\bwhere (?:we are|to find us)\b/gi, 'location'],
  [/\bopen(?:ing)? (?:hours|times)\b/gi, 'hour'],
  // "Our Headquarters", "Head office", "Our offices": where a company works from, its location.
  [/\bhead ?quarters\b|\bhead office\b|\bHQ\b|\b(?:our|main|registered) offices?\b/gi, 'location'],
  // "Make an Appointment", "Request a booking", "Reservations": where one books, more surely than a contact form.
  [/\b(?:make|book|request|schedule|reserve) (?:an? |your )?(?:appointment|reservation|booking|visit|table)\b|\bappointments?\b|\breservations?\b/gi, 'booking'],
  // A conference's "Program Committee", a "Review Board", a "Jury": the people who review what is sent in.
  [/\b(?:technical |scientific )?program(?:me)? committee\b|\b(?:review|reviewing|selection) (?:committee|board|panel)\b|\breviewers\b|\bjury\b|\bjudges\b/gi, 'reviewer'],
  // "Our Acclaimed Chefs", "Meet the Bakers": the people who cook, a team as well as the kitchen.
  [/\b(?:cooks|chefs|bakers|baristas|bartenders)\b/gi, 'team'],
  // "Why Choose TSME?", "Why us", "Why work with us": the reasons to pick them over the others.
  [/\bwhy (?:choose|pick|hire|us\b|work with|go with|trust|book with|shop with)/gi, 'reason different'],
  // "Areas we serve", "Service Areas", "Serving Metro Detroit": the towns a local trade comes out to.
  [/\bareas? (?:we )?(?:serve|served|covered|we cover)\b|\bservice (?:areas?|region)\b|\bcoverage area\b|\bwe (?:serve|cover) (?:the )?(?:following|these|all)\b/gi, 'servicearea'],
  [/\b[Ss]erving (?:the )?(?:greater |metro |all of |all )?[A-Z][a-z]+/g, 'servicearea'],
  // "Come on in, we're open", "Open daily from 8", "Business hours": when the place is open, said without "hours".
  [/\b(?:we['’]?re|we are|now) open\b|\bopen (?:daily|every day|7 days|seven days|from \d|until \d)|\b(?:business|trading|office) hours\b|\bhours of (?:operation|business)\b/gi, 'hour'],
  [/\bget involved\b|\bgive (?:your|some|a little) time\b/gi, 'volunteer'],
  // A form that asks how much to give: a donation form, whatever its heading calls it ("Support the developers of
  // tomorrow", "Select your amount", "one time / monthly").
  [/\b(?:select|choose|enter|pick) (?:your |an |the |a custom |another )?(?:donation )?amount\b|\bthanks to your (?:support|generosity|gifts?|donations?)\b/gi, 'donate'],
  // "Success stories", "alumni stories": what the people it helped say, its testimonials.
  [/\bsuccess stor(?:y|ies)\b|\b(?:alumni|student|graduate|customer|client)s?['’]? stor(?:y|ies)\b/gi, 'testimonial'],
  [/\bapp ?store\b|\bgoogle play\b|\bplay store\b/gi, 'download'],
  [/\bhow (?:it|this|they|we|everything) works?\b/gi, 'process'],
  [/\bup[- ]to[- ]date\b/i, 'uptodate'],
  [/\btrack records?\b/i, 'record'],
  // A docs page's "How to use", "Getting started", "Quick start": its setup.
  [/\bhow to use\b|\bget(?:ting)? started\b|\bquick[\s-]?start\b|\bset(?:ting)?[\s-]up\b/i, 'setup'],
  // A project's "Credits", "Acknowledgements", "maintained by": who built it.
  [/\bcredits\b|\backnowledge?ments?\b|\b(?:built|created|developed|maintained) by\b/i, 'contributor'],
];

/** Words of a prompt that name no part of a page (its frame, the video, the camera). */
export const stop = new Set([
  'a', 'an', 'and', 'are', 'as', 'at', 'be', 'by', 'for', 'from', 'how', 'in', 'into', 'is', 'it', 'its', 'me', 'my', 'of',
  'on', 'or', 'our', 'the', 'their', 'them', 'this', 'that', 'to', 'us', 'we', 'with', 'you', 'your', 'section', 'part',
  'area', 'block', 'panel', 'page', 'show', 'demo', 'video', 'clip', 'reel', 'promo', 'let', 'want', 'need', 'see',
  'visitor', 'viewer', 'make', 'quick', 'site', 'website', 'homepage', 'product', 'please', 'highlight', 'focus', 'give',
  'take', 'look', 'end', 'finish', 'close', 'then',
  'there', 'where', 'do', 'they', 'get', 'have', 'has', 'about', 'all', 'some', 'any', 'real', 'also', 'just', 'one',
  'each', 'every', 'so', 'up', 'out', 'off', 'down', 'over', 'will', 'would', 'should', 'can', 'could', 'finally',
  'last', 'first', 'before', 'after', 'walk', 'through', 'tour', 'scroll', 'stay', 'hold', 'wrap', 'start', 'bit',
  // a question's frame ("which kinds of jobs…"), never what is asked about
  'which',
  // a list of examples' frame ("pieces such as pop-ups")
  'such',
  // what is left of a contraction ("they're", "we've", "you'll")
  're', 've', 'll',
  // a condition's frame ("if something goes wrong…"), not a language's if statement
  'if',
]);
// "about", "can", "first", "start" are kept as concept words but are too common in prompts to count as subjects.

/** What people call each widget the analyser finds in a section. */
export const widgetWords: Record<NonNullable<OutlineSection['widgets']>[number], string> = {
  slider: 'slider range', accordion: 'accordion expand collapse', tabs: 'tab tabs', toggle: 'toggle switch',
  carousel: 'carousel slideshow swipe swiper', table: 'table matrix spreadsheet', form: 'form', countdown: 'countdown timer clock',
};

/** Words that say how the video should feel, not what it shows: a page that uses one ("cinematic") is no subject. */
export const manner = new Set(['cinematic', 'cinematically', 'polished', 'beautiful', 'beautifully', 'stunning', 'smooth', 'slick', 'sleek', 'elegant',
  'snappy', 'punchy', 'dramatic', 'epic', 'fun', 'playful', 'quick', 'quickly', 'short', 'brief', 'fast', 'slow', 'slowly', 'gentle', 'calm',
  'overview', 'teaser', 'trailer', 'showcase', 'hype', 'highlight', 'highlights', 'walkthrough', 'tour', 'minimal', 'clean', 'professional']);
