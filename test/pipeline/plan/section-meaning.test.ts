import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { autoSelectionSchema } from '../../../src/demos/presentation.js';
import { planDemo } from '../../../src/pipeline/plan/heuristic-planner.js';
import { clausesOf } from '../../../src/pipeline/plan/prompt-clauses.js';
import { stem } from '../../../src/pipeline/plan/prompt-words.js';
import { promptSubjects } from '../../../src/pipeline/plan/section-meaning.js';
import type { OutlineAction, OutlineSection, PageOutline, SectionKind } from '../../../src/pipeline/types.js';

/** A link of the page's menu to one of its sections. */
function navLink(label: string, href: string, x: number): OutlineAction {
  return { label, kind: 'nav-link', href, selector: `header a[href="${href}"]`, fallbackSelectors: [], rect: { x, y: 20, width: 80, height: 30 } };
}

/** A studio page whose headings never say "team", "contact" or "pricing"; its menu does. */
function studioOutline(): PageOutline {
  const section = (id: string, kind: SectionKind, heading: string, y: number, text: string): OutlineSection => ({
    id, kind, heading, text, label: heading, selector: `#${id}`, fallbackSelectors: [], rect: { x: 0, y, width: 1440, height: 700 },
  });
  return {
    url: 'http://localhost/studio/', title: 'Fernhill', description: null, viewport: { width: 1440, height: 810 },
    documentHeight: 5000, stickyHeaderHeight: 64,
    navigation: [navLink('Team', '#people', 600), navLink('Pricing', '#rates', 700), navLink('Contact', '#hello', 800)],
    sections: [
      section('intro', 'hero', 'Brands that feel like somebody made them', 0, 'An independent studio for identity and websites.'),
      section('work', 'features', 'Recent projects', 700, 'Oatly Bakery rebrand, Greenway Bikes website.'),
      section('people', 'content', 'The studio', 1400, 'Seven designers, writers and developers in Bristol.'),
      section('rates', 'pricing', 'Rates', 2100, 'Fixed quotes: Sprint £6k, Project £18k, Retainer £4k a month.'),
      section('hello', 'form', 'Say hello', 2800, 'Tell us about your project; we answer every message.'),
    ],
    actions: [], forms: [], media: [], dismissedOverlays: [],
  };
}

/** The ids of the sections a prompt asks for on `outline`, in the order to visit them. */
function subjectIdsOn(outline: PageOutline): (prompt: string) => string[] {
  return (prompt) => promptSubjects(prompt, outline).subjects.map((s) => s.section.id);
}

/** A section of a page made up for a test, 500 px tall. */
function block(id: string, kind: SectionKind, heading: string, y: number, text: string): OutlineSection {
  return { id, kind, heading, text, label: heading, selector: `#${id}`, fallbackSelectors: [], rect: { x: 0, y, width: 1440, height: 500 } };
}

describe('what the prompt asks to see, by meaning', () => {
  it('knows a sale with its countdown, the products staff recommend, and early access as a sign-up', () => {
    const outline = studioOutline();
    outline.sections = [
      block('hero', 'hero', 'Gear for every trail', 0, 'Boots, packs and tents.'),
      block('deal', 'content', 'Flash deal: 30% off tents', 600, 'Ends in 02:14:33. While stocks last.'),
      block('picks', 'content', 'Our team’s favourites', 1200, 'Hand-chosen by the people in our shop.'),
      block('beta', 'cta', 'Get early access to the app', 1800, 'Leave your email and we will let you in first.'),
      block('story', 'content', 'Our story', 2400, 'From a market stall in 1998 to three shops.'),
    ];
    const ids = subjectIdsOn(outline);
    assert.deepEqual(ids('Show the limited-time sale and its countdown'), ['deal']);
    assert.deepEqual(ids('Which products do the staff recommend?'), ['picks']);
    assert.deepEqual(ids('Finish on the sign-up for the beta'), ['beta']);
    assert.deepEqual(ids('Tell the story from the early days'), ['story'], 'early days are history, not early access');
  });

  it('knows the pains a product takes away, what changed in the latest releases, and trendy products as popular ones', () => {
    const outline = studioOutline();
    outline.sections = [
      block('hero', 'hero', 'Ship your MVP faster', 0, 'The toolkit for small teams.'),
      block('pains', 'features', 'Facing these challenges?', 600, 'Scattered tools. Slow launches. Messy feedback.'),
      block('trendy', 'content', 'Trendy products', 1200, 'Linen shirt $40. Canvas tote $25.'),
      block('plans', 'pricing', 'Simple & transparent pricing', 1800, 'Free $0. Starter $10. Pro $25.'),
      block('log', 'content', 'Change Log', 2400, '1.6.0 — Added a new option. 1.5.3 — Fixed a bug.'),
    ];
    const ids = subjectIdsOn(outline);
    assert.deepEqual(ids('Start with the headaches it takes away'), ['pains']);
    assert.deepEqual(ids('Which pieces are popular right now?'), ['trendy']);
    assert.deepEqual(ids('End on what changed in the latest releases'), ['log']);
  });

  it('reads names listed before their noun as one subject: "the Free, Starter and Pro plans"', () => {
    assert.deepEqual(clausesOf('Start with the headaches, then end on what the Free, Starter and Pro plans cost.'), [
      'Start with the headaches',
      'end on what the Free Starter Pro plans cost',
    ]);
    assert.deepEqual(clausesOf('Open Widgets and show the Standard, Business and Premium pricing'), ['Open Widgets', 'show the Standard Business Premium pricing']);
    // Names not followed by their noun are still a list of subjects.
    assert.deepEqual(clausesOf('Show Pricing, Team and Contact then end on the FAQ'), ['Show Pricing', 'Team', 'Contact', 'end on the FAQ']);
    assert.deepEqual(clausesOf('Show Pricing, Team and Contact'), ['Show Pricing', 'Team', 'Contact']);
  });

  it('takes a "who" in the middle of a heading for a relative clause, not for a team', () => {
    const outline = studioOutline();
    outline.sections = [
      block('hero', 'hero', 'Your most trusted health partner', 0, 'Care for the whole family.'),
      block('partners', 'logos', 'Partners who support us', 600, 'Logos of the foundations and insurers.'),
      block('story', 'content', 'Who we are', 1200, 'A small clinic by the river since 1984.'),
    ];
    const ids = subjectIdsOn(outline);
    assert.deepEqual(ids('Who are the doctors on staff?').filter((id) => id === 'partners'), []);
    assert.deepEqual(ids('Introduce the team'), ['story'], 'a heading that asks "who" still speaks of people');
  });

  it('finds sections named in other words than their headings, through the menu and the vocabularies', () => {
    const outline = studioOutline();
    const ids = subjectIdsOn(outline);
    assert.deepEqual(ids('Introduce the people behind the agency'), ['people']);
    assert.deepEqual(ids('How much would a project cost me?'), ['rates']);
    assert.deepEqual(ids('How can a prospect reach out?'), ['hello']);
  });

  it('reads "works with" and "the tools they already use" as integrations, not as the portfolio or the features', () => {
    const outline = studioOutline();
    outline.sections.splice(3, 0, {
      id: 'apps', kind: 'content', heading: 'Fits right in', text: 'Figma, Notion, Slack and Linear, synced both ways.',
      label: 'Fits right in', selector: '#apps', fallbackSelectors: [], rect: { x: 0, y: 1750, width: 1440, height: 350 },
    });
    const ids = subjectIdsOn(outline);
    assert.deepEqual(ids('Show that it works with the tools designers already use'), ['apps']);
    assert.deepEqual(ids('Show off the portfolio'), ['work']);
  });

  it('reads "what do buyers say" as reviews and "how does it stack up against" as a comparison, not as features', () => {
    const outline = studioOutline();
    // A shop's product page: the features block's text shares a word ("month") with the question.
    outline.sections = [
      outline.sections[0]!,
      block('why', 'features', 'Made for the second cup', 700, 'Three brew methods a month, one grinder.'),
      block('compare', 'content', 'Which one fits your kitchen?', 1300, 'Model M38, P64 and P83 side by side.'),
      block('reviews', 'testimonials', 'From the people who own one', 1900, '4.8 from 2,314 verified owners.'),
    ];
    const ids = subjectIdsOn(outline);
    assert.deepEqual(ids('What do buyers say about it after a few months?'), ['reviews']);
    assert.deepEqual(ids('How does it stack up against the cheaper model?'), ['compare']);
    assert.deepEqual(ids('Put it side by side versus the alternatives'), ['compare']);
  });

  it('reads "a feel for the cabins" as the cabins themselves, and "how campers felt" as what people say', () => {
    const outline = studioOutline();
    // A campsite's page: the reviews' heading would win any mention of an opinion.
    outline.sections = [
      outline.sections[0]!,
      block('cabins', 'content', 'Six places under the pines', 700, 'Cabins with a stove, bunks for four and a porch.'),
      block('food', 'content', 'Breakfast at the long table', 1300, 'Eggs from the farm next door.'),
      block('reviews', 'testimonials', 'Postcards we were sent', 1900, '4.9 from 600 stays.'),
    ];
    const ids = subjectIdsOn(outline);
    assert.deepEqual(ids('Give families a feel for the cabins'), ['cabins']);
    assert.deepEqual(ids('Show how last summer’s campers felt about it'), ['reviews']);
  });

  it('reads "the hotel\'s history" as the history: the possessor is whose it is, not what to show', () => {
    const outline = studioOutline();
    // A hotel's page, whose menu's "Find us" is where the hotel is: "hotel" there named the whole site.
    outline.navigation = [navLink('Find us', '#lane', 600)];
    outline.sections = [
      block('top', 'hero', 'Twelve rooms by the harbour', 0, 'A small hotel on the quay.'),
      block('story', 'content', 'A house that kept its name', 700, 'Built as a chandlery, then a customs house.'),
      block('rooms', 'content', 'Places to wake slowly', 1300, 'Doubles and a loft over the water.'),
      block('lane', 'content', 'The lane to the water', 1900, 'By train, by car, by boat.'),
    ];
    const ids = subjectIdsOn(outline);
    assert.deepEqual(ids("Scroll down to the hotel's history"), ['story']);
    assert.deepEqual(ids("Show our guests' favourite places to wake up"), ['rooms'], 'a plural possessor too');
    assert.deepEqual(ids('How do guests get to the hotel'), ['lane'], 'where "hotel" is what is asked for, it still counts');
    assert.deepEqual(ids("Let's see the rooms"), ['rooms'], '"let\'s" is no possessive');
  });

  it('knows the part for people who dread a visit and the part for when it cannot wait; a relative "who" is the audience', () => {
    const outline = studioOutline();
    // A vets' practice: nothing in the headings says fear or emergency; the menu and the text do.
    outline.navigation = [navLink('Nervous pets', '#calm', 500), navLink('Emergencies', '#night', 600)];
    outline.sections = [
      block('top', 'hero', 'Care for every kind of companion', 0, 'A family practice in Hexham since 1991.'),
      block('calm', 'content', 'Visits without the shaking', 700, 'Fear-free handling, quiet rooms and treats from the moment you arrive.'),
      block('vets', 'features', 'The people behind the counter', 1300, 'Six vets and four nurses, and the people on the phones.'),
      block('night', 'content', 'Night or day, we answer', 1900, 'A line open all night for injured or poisoned animals.'),
      block('first-visit', 'content', 'Your first visit, step by step', 2500, 'Bring any records; the first consultation takes half an hour.'),
      block('appointments', 'form', 'Pick a time that suits', 3100, 'Name, pet, preferred day.'),
    ];
    const ids = subjectIdsOn(outline);
    assert.deepEqual(ids('Win over owners who are terrified their dog will panic'), ['calm'], '"owners who are" is the audience, not the team');
    assert.deepEqual(ids('Show people who are nervous how gently we handle them'), ['calm'], 'nor is "people who are", though the vets are "the people behind the counter"');
    assert.deepEqual(ids('What happens if a cat gets hurt in an accident at 2am'), ['night']);
    assert.deepEqual(ids('Introduce the people who look after the animals'), ['vets'], 'who does the work is the team');
    assert.deepEqual(ids('Show how we treat nervous animals, then end on booking a visit'), ['calm', 'appointments'], 'the booking, not the visit booked');
  });

  it('knows the parts of an event page: who is on stage, the timetable, the venue, the passes, the sponsors', () => {
    const outline = studioOutline();
    // A meetup's page whose headings name none of it; only ids and text do.
    outline.navigation = [];
    outline.sections = [
      block('top', 'hero', 'Northwind DevDays', 0, 'Two days of talks in Utrecht.'),
      block('speakers', 'content', 'Twelve people worth the trip', 700, 'Engineers from Fastly, Adyen and Mollie.'),
      block('schedule', 'content', 'How the day runs', 1200, '09:00 registration, 10:00 opening keynote, workshops after lunch.'),
      block('location', 'content', 'Finding us', 1700, 'The old tram depot, two stops from the central station; hotels nearby.'),
      block('tickets', 'pricing', 'Come along', 2200, 'Standard €240 per person, Student €60.'),
      block('sponsors', 'content', 'Thanks to', 2700, 'Acme, Globex and Initech cover the coffee.'),
      block('faq', 'faq', 'Good to know', 3200, 'Refunds until a week before. Is there step-free access?'),
      block('newsletter', 'cta', 'Next year too?', 3700, 'Leave your email for the dates.'),
    ];
    const ids = subjectIdsOn(outline);
    assert.deepEqual(ids('Introduce the keynote guests'), ['speakers']);
    assert.deepEqual(ids('Run through the timetable'), ['schedule']);
    assert.deepEqual(ids('Is there a hotel close by?'), ['location']);
    assert.deepEqual(ids('What does a seat cost?'), ['tickets']);
    assert.deepEqual(ids('Which firms fund it?'), ['sponsors']);
    assert.deepEqual(ids('Calm the usual worries'), ['faq']);
    assert.deepEqual(ids('Close by asking people to stay in the loop'), ['newsletter']);
  });

  it('knows a restaurant: what it serves, where and when it is, how to book, and a gift; a booking date is no subject', () => {
    const outline = studioOutline();
    outline.navigation = [];
    outline.actions = [{ label: 'Reserve', kind: 'primary-cta', href: '#table', selector: '.hero a', fallbackSelectors: [], rect: { x: 60, y: 500, width: 160, height: 48 } }];
    outline.sections = [
      block('top', 'hero', 'Noodles pulled to order', 0, 'A counter of twelve stools in Leith.'),
      block('plates', 'features', 'What we cook', 700, 'Biang biang with chilli oil £12, dumplings £8, cucumber salad £5.'),
      block('where', 'content', 'Visit us', 1200, '14 Duke Street. Tuesday to Sunday, noon till ten.'),
      block('table', 'form', 'Grab a stool', 1700, 'Name, day, time and how many.'),
      block('story', 'content', 'Two brothers from Xi’an', 2200, 'We started with a market stall in 2014.'),
      block('cards', 'content', 'Give a bowl', 2700, 'Gift cards from £20, sent by email.'),
    ];
    const ids = subjectIdsOn(outline);
    assert.deepEqual(ids('Show the menu'), ['plates']);
    assert.deepEqual(ids('What are the opening hours and the address?'), ['where']);
    assert.deepEqual(ids('How do I reserve for Saturday night?'), ['table'], 'the date asked for is not the hours');
    assert.deepEqual(ids('End on gift cards for a friend'), ['cards']);
  });

  it('knows a charity: what it achieved, giving time and giving money, its funders; "help out" is not the FAQ', () => {
    const outline = studioOutline();
    outline.navigation = [];
    outline.sections = [
      block('top', 'hero', 'A warm bed for every stray', 0, 'An animal shelter in Leeds since 1987.'),
      block('results', 'content', 'Last year at the shelter', 700, '2,140 animals rehomed, 96% of them within a month.'),
      block('helpers', 'form', 'Walk a dog with us', 1200, 'Get involved: walkers, fosterers and drivers wanted.'),
      block('faq', 'faq', 'Good to know', 1700, 'Can I adopt if I rent? Do you take cats?'),
      block('backers', 'content', 'With thanks to', 2200, 'Pets at Home, Leeds Building Society and the Arnold Trust.'),
      block('donate', 'cta', 'Buy a week of food', 2700, 'From £5, once or every month.'),
    ];
    const ids = subjectIdsOn(outline);
    assert.deepEqual(ids('Show the difference they have made'), ['results']);
    assert.deepEqual(ids('How can I help out on a Sunday?'), ['helpers'], 'helping out is volunteering, Sunday no opening hours');
    assert.deepEqual(ids('Which businesses support them?'), ['backers']);
    const ending = promptSubjects('Finish where people can chip in', outline);
    assert.equal(ending.endsOn?.section.id, 'donate', '"finish where" ends there');
  });

  it('visits several subjects in the prompt order, and "end on X" ends on X', () => {
    const outline = studioOutline();
    assert.deepEqual(promptSubjects('Show the team and how to get in touch', outline).subjects.map((s) => s.section.id), ['people', 'hello']);
    const ending = promptSubjects('End on the fees, after the people', outline);
    assert.deepEqual(ending.subjects.map((s) => s.section.id), ['people', 'rates']);
    assert.equal(ending.endsOn?.section.id, 'rates');
  });

  it('asks for nothing when the prompt names no part of the page', () => {
    assert.deepEqual(promptSubjects('Make it cinematic and polished', studioOutline()).subjects, []);
  });

  it('plans the subjects in order, says why in the signals with a real confidence, and holds the last one', () => {
    const plan = planDemo({ prompt: 'Show the team and how to get in touch', outline: studioOutline(), durationTarget: '10s', template: { id: 'auto' }, mode: 'script' });
    const selection = autoSelectionSchema.parse(plan.autoSelection);
    assert.equal(selection.selectedId, 'section-focus');
    assert.ok(selection.signals?.some((s) => s.includes('"The studio"') && /confidence 0\.\d+/.test(s)), selection.signals?.join('\n'));
    assert.ok(selection.signals?.some((s) => s.includes('"Say hello"')));
    assert.ok(selection.confidence > 0.5 && selection.confidence < 1);
    const visited = plan.steps.flatMap((step) => (step.action === 'focus' ? [step.sectionId] : []));
    assert.deepEqual(visited, ['people', 'hello']);
    assert.equal(plan.steps.at(-1)?.action, 'pause', 'the video holds on the last subject');
  });

  it('visits both subjects when the first is a part without a heading (one of several called "content"), and reads "power users" as advanced', () => {
    const outline = studioOutline();
    // Two parts without a heading: each goes by "content"; the second holds the font samples.
    outline.sections.splice(1, 0,
      { ...block('content', 'content', '', 700, 'Installing from npm or a CDN.'), heading: null, label: 'content' },
      { ...block('content-2', 'content', '', 1200, 'Font size samples from 50rem down to 15rem.'), heading: null, label: 'content' },
      block('advanced', 'content', 'Advanced usage', 1700, 'Target, text and container as functions.'),
    );
    for (const later of outline.sections.slice(4)) later.rect = { ...later.rect, y: later.rect.y + 1500 };
    const plan = planDemo({ prompt: 'Scroll past the font size samples, then end on the part for power users', outline, durationTarget: '10s', template: { id: 'auto' }, mode: 'script' });
    const visited = plan.steps.flatMap((step) => (step.action === 'focus' ? [step.sectionId] : []));
    assert.deepEqual(visited, ['content-2', 'advanced']);
  });

  it('knows a developer tool\'s documentation and the languages it speaks by other words', () => {
    const outline = studioOutline();
    outline.sections.splice(3, 0,
      block('langs', 'content', 'Supported languages', 1750, 'Markup, CSS, C-like, JavaScript and 290 more.'),
      block('guides', 'content', 'Complete documentation', 2250, 'Every component with its options and examples.'),
    );
    const ids = subjectIdsOn(outline);
    assert.deepEqual(ids('Which coding syntaxes can it colour?'), ['langs']);
    assert.deepEqual(ids('Show how thoroughly it is explained, with a tutorial for each part'), ['guides']);
  });

  it('trusts a section its menu, eyebrow and id all name over a slogan that happens to say "people"', () => {
    const outline = studioOutline();
    outline.navigation = [{ label: 'Speakers', kind: 'nav-link', href: '#speakers', selector: 'header a', fallbackSelectors: [], rect: { x: 600, y: 20, width: 80, height: 30 } }];
    outline.sections = [
      block('top', 'hero', 'Harbourline 2027', 0, 'A two-day product conference by the sea.'),
      block('why', 'features', 'Built for the people who turn sketches into shipped work', 700, 'Case studies, not slide decks.'),
      { ...block('speakers', 'features', 'The voices taking the main deck this year', 1300, 'Ten practitioners from Tidewell and Nordbank.'), kicker: 'Line-up' },
    ];
    const asked = promptSubjects('I need a teaser that lands on the lineup of presenters with their headshots', outline);
    assert.equal(asked.endsOn?.section.id, 'speakers');
  });

  it('hears the request ("I need a short promo") apart from what it is about', () => {
    const outline = studioOutline();
    outline.navigation = [];
    outline.sections = [
      block('top', 'hero', 'The money app that budgets for you', 0, 'Pennywise sorts your spending.'),
      block('features', 'features', 'Everything your money needs, one swipe away', 700, 'Automatic budgets and bill alerts.'),
      { ...block('calculator', 'content', 'Small habits, surprisingly big numbers', 1300, "Slide to pick how much you'd put aside each week; interest paid monthly."), kicker: 'Savings pots' },
    ];
    const asked = promptSubjects('I need a short promo that lands on the interest slider so viewers see what weekly deposits add up to', outline);
    assert.equal(asked.endsOn?.section.id, 'calculator');
  });

  it('takes "the download banner with the App Store buttons" for the closing band, not the hero that says "app"', () => {
    const outline = studioOutline();
    outline.navigation = [];
    const band = block('get-started', 'cta', 'Your future self says thanks in advance', 2000, 'Join 540,000 people who save without thinking.');
    const button = (label: string, x: number): OutlineAction => ({
      label, kind: 'cta', href: null, selector: `#get-started a`, fallbackSelectors: [], rect: { x, y: 2300, width: 200, height: 56 },
    });
    outline.sections = [
      block('top', 'hero', 'The money app that budgets for you', 0, 'Pennywise sorts your spending.'),
      block('reviews', 'testimonials', 'Half a million people stopped dreading payday', 700, '4.8 on the App Store.'),
      band,
    ];
    outline.actions = [button('Download on the App Store', 500), button('Get it on Google Play', 740)];
    const asked = promptSubjects('Do a quick tour of the homepage that wraps up on the download banner with the App Store and Google Play buttons', outline);
    assert.equal(asked.endsOn?.section.id, 'get-started');
  });

  it('finds the carousel a prompt names, and reads a list in brackets as part of its clause', () => {
    const outline = studioOutline();
    outline.navigation = [];
    outline.sections = [
      block('top', 'hero', 'Tally', 0, 'Money, sorted.'),
      { ...block('tools', 'features', 'Tools you will open daily', 700, 'Budgets, round-ups and a bill radar.'), widgets: ['carousel'] },
      block('plans', 'pricing', 'Choose how much extra you want', 1300, 'Free, Plus £3 a month, Premium £7.'),
    ];
    const asked = promptSubjects("Let's do a teaser that pans across the product carousel (budgeting, round-ups, bill alerts) and holds on it", outline);
    assert.deepEqual(asked.subjects.map((s) => s.section.id), ['tools']);
  });

  it('does not take the video\'s own "ending on" for a heading that ends somewhere; knows a photo grid and a payment plan', () => {
    const outline = studioOutline();
    outline.navigation = [];
    outline.sections = [
      block('top', 'hero', 'The Saltmarsh', 0, 'A small hotel on the estuary.'),
      { ...block('offers', 'features', 'Reasons to return in every season', 700, 'Winter break £340 for two nights; midweek escape.'), kicker: 'Packages' },
      block('gallery', 'content', 'Seen from the sea wall', 1300, 'Twelve views of the creek at low tide.'),
      block('getting-here', 'content', 'The lane that ends at the water', 2500, 'Trains to Woodbridge, then a taxi.'),
    ];
    const ids = subjectIdsOn(outline);
    const ending = promptSubjects('Create a demo ending on the package deals, like the winter break', outline);
    assert.equal(ending.endsOn?.section.id, 'offers');
    assert.ok(!ending.subjects.some((s) => s.section.id === 'getting-here'), 'not "The lane that ends at the water"');
    assert.deepEqual(ids('Scroll to the photo grid and pop open one of the pictures'), ['gallery']);
    // A course's page: the fee under a slogan.
    outline.sections.splice(1, 1, block('tuition', 'pricing', 'Invest now, later, or once you are earning', 700, 'Upfront $13,900, or spread it out.'));
    assert.deepEqual(ids('Finish on the payment options, instalments included'), ['tuition']);
  });

  it('stems alike on both sides without merging different words', () => {
    assert.equal(stem('questions'), stem('question'));
    assert.equal(stem('touches'), 'touch');
    assert.notEqual(stem('rates'), stem('rating'));
  });
});

describe('reading real pages by their own words (issue 33, second pass)', () => {
  /** An app's page: "app" stands in nearly every part, as the page's subject does. */
  function appOutline(): PageOutline {
    return {
      url: 'http://localhost/app/', title: 'Tally', description: null, viewport: { width: 1440, height: 810 },
      documentHeight: 4200, stickyHeaderHeight: 0, navigation: [],
      sections: [
        block('hero', 'hero', 'Showcase your app with Tally', 0, 'The budgeting app for couples. Download the app today.'),
        block('productive', 'features', 'Increase your productivity with the app', 600, 'Every bill in one app, split fairly.'),
        block('film', 'content', 'Watch our promo video', 1200, 'Ninety seconds with Tally.'),
        block('compare', 'content', 'What makes us different from others?', 1800, 'No fees, no ads, and a human on the phone.'),
        block('faq', 'faq', 'Frequently asked questions', 2400, 'Is the app free? Which banks does the app support?'),
        block('signup', 'form', 'Join the newsletter', 3000, 'Monthly tips for the app, in your inbox.'),
        block('footer', 'footer', '', 3600, 'Tally app © 2026'),
      ],
      actions: [], forms: [], media: [], dismissedOverlays: [],
    };
  }

  it('a word most of the page uses (its subject) counts half: "the short film about the app" is the video, not a part that names the app', () => {
    assert.deepEqual(subjectIdsOn(appOutline())('Show the product clip: the short film about the app.'), ['film']);
  });

  it('knows the words people use for comparisons and for questions', () => {
    const ids = subjectIdsOn(appOutline());
    assert.deepEqual(ids('Why pick this one over the competition?'), ['compare']);
    assert.deepEqual(ids('End on the common queries people have before they sign up'), ['faq']);
  });

  it('places "just above the footer" and "at the very bottom" at the last part before the footer', () => {
    const subjects = promptSubjects('Show the features, then finish on the strip just above the footer.', appOutline());
    assert.equal(subjects.endsOn?.section.id, 'signup');
    assert.match(subjects.endsOn!.why, /last section before the footer/);
    // "At the end of the video" is a time, not a place on the page.
    assert.notEqual(promptSubjects('Show the questions at the end of the video', appOutline()).subjects[0]?.section.id, 'signup');
  });

  it('"Feature the X" asks to show X: the verb names no section', () => {
    const outline = appOutline();
    outline.sections[1] = block('productive', 'features', 'Feature highlights', 600, 'Every bill in one place, split fairly.');
    outline.sections[2] = block('film', 'content', 'Ninety seconds with Tally', 1200, 'A long piece on saving for a flat in Lisbon.');
    assert.deepEqual(subjectIdsOn(outline)('Feature the piece about Lisbon'), ['film']);
  });

  it('a telephone number written out is what "the phone number" asks for, and assistance is help', () => {
    const outline = appOutline();
    outline.sections.splice(5, 0, block('help', 'content', 'Can we help?', 2700, 'Call us any day: +1 (555) 010-2030.'));
    outline.sections[3] = block('compare', 'content', 'About us', 1800, 'Founded by two engineers; a phone in every pocket, a budget in every phone.');
    const subjects = promptSubjects('Show the questions, then end on the phone number call-out for anyone needing assistance.', outline);
    assert.equal(subjects.endsOn?.section.id, 'help');
  });

  it('knows the people who wrote the code, how a program learns a copy failed, and the jobs a firm takes on', () => {
    const devTool = appOutline();
    devTool.sections.splice(4, 0,
      block('events', 'content', 'Events', 2100, 'We fire custom events such as success and error for you to listen to.'),
      block('docs', 'content', 'Docs', 2200, 'Guides with code for every setting.'),
      block('people', 'content', 'Contributors', 2300, 'Ana, Bo, Chen, Dara and 214 more.'),
    );
    devTool.sections[3] = block('compare', 'content', 'Different from others', 1800, 'No fees, no ads.');
    const ids = subjectIdsOn(devTool);
    assert.deepEqual(ids('How does my code find out that a copy succeeded or failed?'), ['events']);
    // "developers who have written code" are its contributors: not an audience, and not the docs where "code" stands.
    assert.equal(promptSubjects('Show the clip, then end on the list of developers who have written code for it.', devTool).endsOn?.section.id, 'people');

    const firm = appOutline();
    firm.sections[2] = block('trades', 'content', 'We are specialists in', 1200, 'Home construction, building remodels, interior design.');
    assert.deepEqual(subjectIdsOn(firm)('Which kinds of jobs can the firm take on?'), ['trades']);
  });

  it('places a part by its neighbour: "the one just before the services grid", "the band below the hero"; "after" alone is a time', () => {
    const outline = appOutline();
    outline.sections[1] = block('stripe', 'cta', 'Sed ipsum dolor', 600, 'Lorem ipsum dolor sit amet.');
    outline.sections[2] = block('services', 'features', 'What we do', 1200, 'Lorem ipsum, six round icons.');
    const placed = promptSubjects('Show the third photo stripe, the last one before the services grid.', outline);
    assert.deepEqual(placed.subjects.map((s) => s.section.id), ['stripe']);
    assert.match(placed.subjects[0]!.why, /just above "What we do"/);
    assert.deepEqual(subjectIdsOn(outline)('Show the band right below the services grid'), ['compare']);
    // "After" alone is the time of the video, not a place on the page: not the part after the services.
    const timed = promptSubjects('Show the questions after the services', outline).subjects;
    assert.ok(timed.length > 0 && timed.every((s) => s.section.id !== 'compare' && !/just below/.test(s.why)));
  });
});

describe('fresh real pages (session 50): an invitation down the page, and how to show a subject', () => {
  /** A photo studio (its subject: most parts say "studio") whose sticky header and closing band both offer "Start a project". */
  function studioWithClosingBand(closingButton: boolean): PageOutline {
    const button = (label: string, y: number, selector: string): OutlineAction => ({
      label, kind: 'cta', href: '/contact', selector, fallbackSelectors: [], rect: { x: 1200, y, width: 160, height: 40 },
    });
    return {
      url: 'http://localhost/studio/', title: 'Brivon', description: null, viewport: { width: 1440, height: 810 },
      documentHeight: 4200, stickyHeaderHeight: 70, navigation: [],
      sections: [
        block('hero', 'hero', 'We photograph the work, not the brief.', 70, 'A small commercial photography studio.'),
        block('shoots', 'content', 'Twelve frames from a working year.', 600, 'Selected work from the studio: lookbooks, catalogues, cookbooks.'),
        block('about', 'testimonials', 'A studio that treats each frame as work.', 1200, 'We work slower than the rate card.'),
        block('steps', 'content', 'From the first call to the last frame.', 1800, 'How the studio runs a shoot. Step 01 discovery, step 02 pre-production.'),
        block('closing', 'cta', 'Have a project that deserves the third frame?', 2400, 'The studio books three to five months ahead. Start a project.'),
        block('footer', 'footer', '', 3000, 'Brivon, Brooklyn and Berlin.'),
      ],
      actions: [button('Start a project', 15, 'header .btn'), ...(closingButton ? [button('Start a project', 2700, '.closing-cta .btn')] : [])],
      forms: [], media: [], dismissedOverlays: [],
    };
  }

  it('ends on the closing band that offers the header\'s own button, not on the header\'s copy of it', () => {
    const prompt = 'Open with a few favourite shoots from this year, then end on the invitation to start a project with the studio.';
    const subjects = promptSubjects(prompt, studioWithClosingBand(true));
    assert.equal(subjects.endsOnAction, undefined);
    assert.equal(subjects.endsOn?.section.id, 'closing');
    // With no such band, the header's button is still the ending it names word for word.
    assert.equal(promptSubjects(prompt, studioWithClosingBand(false)).endsOnAction?.selector, 'header .btn');
  });

  it('keeps "step by step" with the clause it says how to show, rather than as a subject of its own', () => {
    assert.deepEqual(clausesOf('Walk through how a shoot runs with them, step by step, from the first phone call to the delivered files.'), [
      'Walk through how a shoot runs with them step by step',
      'from the first phone call to the delivered files',
    ]);
    const subjects = promptSubjects('Walk through how a shoot runs with them, step by step, from the first phone call to the delivered files.', studioWithClosingBand(true));
    assert.deepEqual(subjects.subjects.map((s) => s.section.id), ['steps']);
  });

  /** A law firm's page: the words its parts are named by are not the ones a prompt uses. */
  function lawFirm(): PageOutline {
    return {
      url: 'http://localhost/law/', title: 'Law fire', description: null, viewport: { width: 1440, height: 810 },
      documentHeight: 5600, stickyHeaderHeight: 0, navigation: [],
      sections: [
        block('hero', 'hero', 'Top legal consultancy in Vegas', 0, 'Watch videos. Get free consultation.'),
        block('lawyers', 'content', 'Providing top notch lawyers', 600, 'Our lawyers have decades of experience.'),
        block('guidance', 'content', 'Get the right guidance and support', 1200, 'Navigating legal challenges can be tough, but our law firm is here to help.'),
        block('practice', 'content', 'Diverse area of practice', 1800, 'Legal counsel. Real estate. Divorce. Accidents. Explore more.'),
        block('news', 'content', 'In the News', 2400, 'Discrimination suit wins $3 million. Another win for the public. All news.'),
        block('clients', 'testimonials', 'What some of our clients say', 3000, 'They took my case seriously. - Ferman'),
        block('booking', 'form', 'Request a consult', 3600, 'First name, last name, phone, email, inquiry. Request.'),
        block('map', 'content', 'On the map', 4200, '12111 Cypress, TX.'),
        block('footer', 'footer', 'Practice areas', 4800, 'Divorce, real estate, defamation. About us, FAQ.'),
      ],
      actions: [], forms: [], media: [], dismissedOverlays: [],
    };
  }

  it('reads an example the prompt gives ("like a divorce") in a part\'s own words as what the clause is about', () => {
    const subjects = promptSubjects('What kinds of legal trouble can they take on, like a divorce or a property dispute?', lawFirm());
    assert.deepEqual(subjects.subjects.map((s) => s.section.id), ['practice']);
    assert.match(subjects.subjects[0]!.why, /"divorce", an example the prompt gives/);
    // "I'd like" is the request, not an example.
    const asked = promptSubjects("I'd like a short clip about divorce and the other practice areas.", lawFirm()).subjects;
    assert.ok(asked.every((s) => !/an example the prompt gives/.test(s.why)));
  });

  it('knows what the press wrote, a first meeting as the contact form, and where a place is located as its map', () => {
    const ids = subjectIdsOn(lawFirm());
    assert.ok(ids('Show the cases that made headlines this year.').includes('news'));
    assert.equal(promptSubjects('Show what clients think, then end on the form to ask for a first meeting with a lawyer.', lawFirm()).endsOn?.section.id, 'booking');
    assert.equal(promptSubjects('Start with the areas of practice, then end on where the office is located.', lawFirm()).endsOn?.section.id, 'map');
  });
});

describe('words that meet by spelling or by sense, not by stem', () => {
  /** A grocery box's page: its rewards card misspells the word, and a prize draw is one letter from "prices". */
  function groceryOutline(): PageOutline {
    return {
      url: 'http://localhost/grocer/', title: 'Basket', description: null, viewport: { width: 1440, height: 810 },
      documentHeight: 3000, stickyHeaderHeight: 0, navigation: [],
      sections: [
        block('top', 'hero', 'Groceries at your door in an hour', 0, 'Fresh food from local farms, delivered.'),
        block('perks', 'content', 'Earn while you shop', 600, 'Members collect rewads on every order and swap them for free delivery.'),
        block('range', 'features', 'Everything for the week', 1200, 'Fruit, vegetables, bread and dairy from twelve farms.'),
        block('draw', 'content', 'Prizes to be won', 1800, 'Enter the draw for a cargo bike.'),
        block('plans', 'pricing', 'Membership', 2400, 'Choose monthly or annual billing; cancel any time.'),
      ],
      actions: [], forms: [], media: [], dismissedOverlays: [],
    };
  }

  it('finds a part whose body holds the asked word only misspelt, and says so', () => {
    const [subject] = promptSubjects('Show the rewards', groceryOutline()).subjects;
    assert.equal(subject?.section.id, 'perks');
    assert.match(subject!.why, /"rewards", misspelt "rewads"/);
  });

  it('does not take one dictionary word for a misspelling of another ("prices" is not "prizes")', () => {
    assert.deepEqual(subjectIdsOn(groceryOutline())('Show the prices'), ['plans']);
  });

  /** A family practice whose team is "Our doctors": no word of the lexicon, no stem in common with "physicians". */
  function practiceOutline(): PageOutline {
    return {
      url: 'http://localhost/practice/', title: 'Northgate Practice', description: null, viewport: { width: 1440, height: 810 },
      documentHeight: 2400, stickyHeaderHeight: 0, navigation: [],
      sections: [
        block('top', 'hero', 'Care close to home', 0, 'A family practice in Leeds.'),
        block('clinicians', 'content', 'Our doctors', 600, 'Dr Amal Reyes and Dr Tom Hale see patients six days a week.'),
        block('services', 'features', 'Vaccinations and check-ups', 1200, 'Travel jabs, blood tests, health checks.'),
        block('visit', 'form', 'Book an appointment', 1800, 'Pick a day and a time.'),
      ],
      actions: [], forms: [], media: [], dismissedOverlays: [],
    };
  }

  it('finds a part named by a word of the same meaning that the lexicon does not know', () => {
    const [subject] = promptSubjects('Introduce the physicians', practiceOutline()).subjects;
    assert.equal(subject?.section.id, 'clinicians');
    assert.match(subject!.why, /"physicians" ≈ "doctors"/);
  });

  it('does not send a word the page says to a part where only a near neighbour of it stands', () => {
    // "policy" is the code of conduct's word; that "agenda" is close to it in the news the vectors were learnt from is
    // no reason to end on the programme the menu calls "Agenda".
    const conference: PageOutline = {
      ...practiceOutline(),
      navigation: [navLink('Agenda', '#programme', 600)],
      sections: [
        block('top', 'hero', 'Two days by the harbour', 0, 'Talks, workshops and ferries.'),
        block('programme', 'content', 'Plot your course', 600, 'Keynotes at nine, workshops after lunch.'),
        block('conduct', 'content', 'Be kind', 1200, 'Our policy: no harassment of any kind; report it to any volunteer.'),
      ],
    };
    assert.equal(promptSubjects('Finish on the policy', conference).endsOn?.section.id, 'conduct');
  });
});
