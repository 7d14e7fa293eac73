/**
 * The story evaluation's cases: a fixture page, a prompt as a marketer would write it, and the section (its element
 * id) the video must show. Most prompts are paraphrases that share no word with the section's heading; each names
 * the heading it avoids, so the rule can be checked (see eval-story.test.ts).
 */
export interface StoryCase {
  site: string;
  prompt: string;
  /** the expected section's element id */
  expect: string;
  /** the heading of that section, as on the page */
  heading: string;
  /** true when the prompt may share words with the heading (a direct request) */
  direct?: boolean;
  /** true for the real set (public pages, see real-set.ts); `expect` is then the heading's text key */
  real?: true;
  /** the heading's tag as the manifest gives it: among headings with the same words, the one to find */
  tag?: string;
  /** a prompt with several beats ("show X, then end on Y"); `heading` is its last beat's */
  twoPart?: boolean;
  /** a two-part case's first beat: its heading and that heading's text key (see beats.ts) */
  firstHeading?: string;
  firstExpect?: string;
  /** the blind batch the real page came in ("blind-2026-11-26"); reported apart from the pages before it */
  batch?: string;
}

export const storyCases: StoryCase[] = [
  // nightfall: a dark developer-tool page
  { site: 'nightfall', prompt: 'Show how much it costs for a team', expect: 'pricing', heading: 'Simple, honest pricing' },
  { site: 'nightfall', prompt: 'What do developers say after switching to us?', expect: 'love', heading: 'Loved by builders' },
  { site: 'nightfall', prompt: 'Answer the usual doubts people have before trying it', expect: 'faq', heading: 'Questions, answered' },
  { site: 'nightfall', prompt: 'Show that it works with GitHub, Slack and the tools teams already use', expect: 'stack', heading: 'Plugs into your stack' },
  { site: 'nightfall', prompt: 'Walk viewers to where they can create an account and finish there', expect: 'start', heading: 'Start building tonight' },
  { site: 'nightfall', prompt: 'Give a look at the main capabilities: previews, rollback, logs', expect: 'features', heading: 'Built for night owls' },
  { site: 'nightfall', prompt: 'Focus on the pricing tiers', expect: 'pricing', heading: 'Simple, honest pricing', direct: true },
  { site: 'nightfall', prompt: 'Show the product, then end on the signup', expect: 'start', heading: 'Start building tonight' },
  // summit-photo: a photo hero (CSS gradients and inline SVG)
  { site: 'summit-photo', prompt: 'Introduce the people who lead the climbs', expect: 'guides', heading: 'Meet the guides' },
  { site: 'summit-photo', prompt: 'Tell the company history from its founding', expect: 'story', heading: 'Since 1998' },
  { site: 'summit-photo', prompt: 'What did past clients think of their trip?', expect: 'reviews', heading: 'Trail reports' },
  { site: 'summit-photo', prompt: 'Show where someone can get in touch to book', expect: 'plan', heading: 'Plan your climb' },
  { site: 'summit-photo', prompt: 'Which mountains can I go up next year, and at what price?', expect: 'trips', heading: 'Expeditions for 2027' },
  { site: 'summit-photo', prompt: 'Highlight the timeline of milestones', expect: 'story', heading: 'Since 1998' },
  { site: 'summit-photo', prompt: 'Show the team and how to get in touch', expect: 'plan', heading: 'Plan your climb' },
  { site: 'summit-photo', prompt: 'Show the reviews and close with the enquiry form', expect: 'plan', heading: 'Plan your climb' },
  // navrepeat: the nav repeats section names (Team, Pricing, Customers, Contact) that the headings do not use
  { site: 'navrepeat', prompt: 'Show who works at the studio', expect: 'team', heading: 'The studio', direct: true },
  { site: 'navrepeat', prompt: 'Introduce the people behind the agency', expect: 'team', heading: 'The studio' },
  { site: 'navrepeat', prompt: 'How much would a project cost me?', expect: 'pricing', heading: 'Rates' },
  { site: 'navrepeat', prompt: 'What clients say about working with them', expect: 'customers', heading: 'Kind words' },
  { site: 'navrepeat', prompt: 'How can a prospect reach out?', expect: 'contact', heading: 'Say hello' },
  { site: 'navrepeat', prompt: 'Show off the portfolio', expect: 'work', heading: 'Recent projects' },
  { site: 'navrepeat', prompt: 'List the services on offer', expect: 'services', heading: 'What we make' },
  { site: 'navrepeat', prompt: 'Show the team and how to get in touch', expect: 'contact', heading: 'Say hello' },
  { site: 'navrepeat', prompt: 'Testimonials first, then finish on the fees', expect: 'pricing', heading: 'Rates' },
  // metrics-faq: a stats band and a FAQ
  { site: 'metrics-faq', prompt: 'Show the traction figures: users, events, uptime', expect: 'impact', heading: 'By the numbers' },
  { site: 'metrics-faq', prompt: 'Show the stats band', expect: 'impact', heading: 'By the numbers' },
  { site: 'metrics-faq', prompt: 'Cover the common questions about cookies and data storage', expect: 'faq', heading: 'Things people ask us' },
  { site: 'metrics-faq', prompt: 'Explain the onboarding process step by step', expect: 'how', heading: 'Three steps to your first insight', direct: true },
  { site: 'metrics-faq', prompt: 'End on the waitlist signup', expect: 'waitlist', heading: 'Be first in line' },
  { site: 'metrics-faq', prompt: 'Show the journeys, cohorts and alerts features', expect: 'product', heading: 'Everything in one place' },
  { site: 'metrics-faq', prompt: 'Show the FAQ', expect: 'faq', heading: 'Things people ask us' },
  // grinder: a shop's product page (gallery, variants, specs and comparison tables, accordions, a cookie notice)
  { site: 'grinder', prompt: 'What do buyers say about it after a few months?', expect: 'reviews', heading: 'From the people who own one' },
  { site: 'grinder', prompt: 'How does it stack up against the cheaper model and the café model?', expect: 'compare', heading: 'Which one fits your kitchen?' },
  { site: 'grinder', prompt: 'What if I change my mind after it arrives?', expect: 'delivery', heading: 'Shipping, returns and warranty' },
  { site: 'grinder', prompt: 'Show the technical details: motor power, size and weight', expect: 'specs', heading: 'Specifications' },
  { site: 'grinder', prompt: 'End on the accessories buyers usually add to their order', expect: 'bundle', heading: 'Complete the setup' },
  { site: 'grinder', prompt: 'Explain why it suits both espresso and pour-over', expect: 'why', heading: 'Made for the second cup' },
  // fieldnotes: a conference page (fixed header, a speaker grid, a two-column programme, a map, passes, FAQ)
  { site: 'fieldnotes', prompt: "Who's on stage this year?", expect: 'speakers', heading: 'Forty voices, one room' },
  { site: 'fieldnotes', prompt: 'Walk through the agenda, talk by talk', expect: 'programme', heading: 'Two days, one track' },
  { site: 'fieldnotes', prompt: 'Where is it held, and which hotels are nearby?', expect: 'venue', heading: 'Getting to the Cinema São Jorge' },
  { site: 'fieldnotes', prompt: 'How much does attending cost for a whole team?', expect: 'tickets', heading: 'Pick your pass' },
  { site: 'fieldnotes', prompt: 'Which companies back the event?', expect: 'sponsors', heading: 'Made possible by' },
  { site: 'fieldnotes', prompt: 'Clear up the usual worries about refunds and visas', expect: 'faq', heading: 'Before you fly in' },
  { site: 'fieldnotes', prompt: 'End by inviting viewers to stay in the loop', expect: 'newsletter', heading: 'Hear it first' },
  // osteria: a restaurant (full-bleed hero under a transparent header, a menu in three columns, hours, a booking form)
  { site: 'osteria', prompt: 'What dishes are on offer?', expect: 'food', heading: 'From the kitchen' },
  { site: 'osteria', prompt: 'What are the opening hours and the address?', expect: 'visit', heading: 'Find us' },
  { site: 'osteria', prompt: 'How do I book for Friday night?', expect: 'reserve', heading: 'Save yourself a seat' },
  { site: 'osteria', prompt: 'Can we hire the place for a birthday party?', expect: 'events', heading: 'Long tables for big nights' },
  { site: 'osteria', prompt: 'What do critics think of it?', expect: 'press', heading: 'Kind words' },
  { site: 'osteria', prompt: 'Tell the story of the family behind it', expect: 'family', heading: 'Three generations at the stove' },
  { site: 'osteria', prompt: 'End on gift ideas for a friend', expect: 'vouchers', heading: 'Dinner, wrapped' },
  // riverkeep: a charity (a sticky header under an announcement bar, a stats band, a volunteer form, a spending
  // breakdown, donation amounts)
  { site: 'riverkeep', prompt: 'Show the difference the charity has made so far', expect: 'impact', heading: 'Since 2011, in numbers' },
  { site: 'riverkeep', prompt: 'Which activities does the organisation run?', expect: 'programs', heading: 'What we do on the water' },
  { site: 'riverkeep', prompt: 'Let people who took part tell it in their own words', expect: 'stories', heading: 'Voices from the banks' },
  { site: 'riverkeep', prompt: 'How can someone give up a Saturday to help out?', expect: 'volunteer', heading: 'Grab a pair of waders' },
  { site: 'riverkeep', prompt: 'How is the money people give actually spent?', expect: 'money', heading: 'Where each euro goes' },
  { site: 'riverkeep', prompt: 'Which businesses sponsor the cause?', expect: 'partners', heading: 'Standing with us' },
  { site: 'riverkeep', prompt: 'Finish where viewers can chip in', expect: 'donate', heading: 'Keep the rivers running clean' },
  // harbourline: a two-day conference (a fixed bottom ticket bar, day tabs, a speakers grid, an SVG map); written by a
  // helper who did not know the planner, prompts theirs
  { site: 'harbourline', prompt: 'Make a quick promo clip that ends on the talk timetable', expect: 'agenda', heading: 'Plot your course from first coffee to last ferry' },
  { site: 'harbourline', prompt: 'I need a teaser that lands on the lineup of presenters with their headshots', expect: 'speakers', heading: 'The voices taking the main deck this year' },
  { site: 'harbourline', prompt: 'Show people how to get to the conference building, and finish on the map and hotel recommendations', expect: 'venue', heading: 'Finding your way to the waterfront' },
  { site: 'harbourline', prompt: 'Create a video that scrolls down to the ticket pricing and highlights the three options', expect: 'passes', heading: 'Pick your berth before the tide turns' },
  { site: 'harbourline', prompt: 'Finish the walkthrough on the sponsor logos so our partners see themselves', expect: 'partners', heading: 'The crews who keep this ship afloat' },
  { site: 'harbourline', prompt: 'Give me a clip that ends with the common questions, like refunds and recordings', expect: 'faq', heading: 'Things people ask us before boarding' },
  { site: 'harbourline', prompt: 'Record a short reel ending on our harassment policy and accessibility commitments', expect: 'conduct', heading: 'Everyone belongs on this pier' },
  { site: 'harbourline', prompt: 'Can you do a demo that closes on the email signup so people join our mailing list?', expect: 'newsletter', heading: 'Letters from the lighthouse' },
  // pennywise: a banking app (content that fades in on scroll, a scroll-snap carousel, a plans toggle); written by a
  // helper who did not know the planner, prompts theirs
  { site: 'pennywise', prompt: 'Make a clip of the site that finishes on the pricing tiers, ideally flipping to annual billing', expect: 'plans', heading: 'Choose how much extra you want' },
  { site: 'pennywise', prompt: 'I need a short promo that lands on the interest slider so viewers can see what weekly deposits add up to', expect: 'calculator', heading: 'Small habits, surprisingly big numbers' },
  { site: 'pennywise', prompt: 'Can you record a walkthrough that ends on the bit about FSCS cover, encryption and the fraud team?', expect: 'security', heading: 'Sleep easy — your money is in safe hands' },
  { site: 'pennywise', prompt: 'Show off the customer testimonials and app store ratings at the end of the video', expect: 'reviews', heading: 'Half a million people stopped dreading payday' },
  { site: 'pennywise', prompt: 'Put together a demo that finishes on the three-step onboarding: download, verify ID, add funds', expect: 'how-it-works', heading: 'Up and running before your coffee cools' },
  { site: 'pennywise', prompt: 'Give me a reel that closes on the FAQ accordion, with one of the answers opened', expect: 'help', heading: "Got a question? We've probably heard it" },
  { site: 'pennywise', prompt: 'Do a quick tour of the homepage that wraps up on the download banner with the App Store and Google Play buttons', expect: 'get-started', heading: 'Your future self says thanks in advance' },
  { site: 'pennywise', prompt: "Let's do a teaser that pans across the product carousel (budgeting, round-ups, bill alerts) and holds on it", expect: 'features', heading: 'Everything your money needs, one swipe away' },
  // codeharbor: a coding bootcamp (an accordion syllabus, a comparison table, cohorts with seats left, an application
  // form); written by a helper who did not know the planner, prompts theirs
  { site: 'codeharbor', prompt: 'Make a 20-second clip that scrolls down to the hiring stats: placement rate, median salary and days to a job offer', expect: 'outcomes', heading: "Numbers we'd rather show than tell" },
  { site: 'codeharbor', prompt: 'I need a video that opens the curriculum and expands a couple of the modules in the accordion', expect: 'syllabus', heading: 'Fourteen weeks, one shipped product at a time' },
  { site: 'codeharbor', prompt: 'Record a walkthrough that lands on the instructor bios and mentor cards', expect: 'mentors', heading: 'Taught by people who still write code on Mondays' },
  { site: 'codeharbor', prompt: 'Show the side-by-side comparison of the part-time and full-time schedules', expect: 'format', heading: 'Nights and weekends, or all in?' },
  { site: 'codeharbor', prompt: 'Demo video ending on the payment plans (upfront, monthly instalments and the deferred option), plus the scholarship info', expect: 'tuition', heading: "Invest now, later, or once you're earning" },
  { site: 'codeharbor', prompt: 'Can we get a clip that ends on the upcoming class start dates with the seats-left badges?', expect: 'cohorts', heading: 'Pick your launch window' },
  { site: 'codeharbor', prompt: 'Walk through the page and finish on the alumni testimonials, the quotes from former nurses and teachers', expect: 'stories', heading: 'Career switches, in their own words' },
  { site: 'codeharbor', prompt: 'Scroll to the enrollment form, fill in name, email and experience, and hit submit', expect: 'apply', heading: 'Your seat starts with a short note' },
  // saltmarsh: a boutique hotel (a transparent header over a full-screen hero, a booking bar, a cookie bar at the
  // bottom, a lightbox gallery); written by a helper who did not know the planner, prompts theirs
  { site: 'saltmarsh', prompt: "Make a short video that scrolls down to the hotel's history and its award win", expect: 'story', heading: 'A quiet house where the land runs out' },
  { site: 'saltmarsh', prompt: 'Show off our suites and nightly rates in a quick demo clip', expect: 'rooms', heading: 'Twenty-two places to wake slowly' },
  { site: 'saltmarsh', prompt: 'Record a walkthrough that lands on the tasting menu and dinner hours', expect: 'restaurant', heading: 'From the creek to the candlelit table' },
  { site: 'saltmarsh', prompt: 'I want a video that finishes on the spa treatments and their prices', expect: 'spa', heading: 'Warm stone, salt air and nowhere to be' },
  { site: 'saltmarsh', prompt: 'Create a demo ending on the package deals, like the winter break and midweek escape', expect: 'offers', heading: 'Reasons to return in every season' },
  { site: 'saltmarsh', prompt: 'Scroll to the photo grid and pop open one of the pictures in the lightbox', expect: 'gallery', heading: 'Seen from the sea wall' },
  { site: 'saltmarsh', prompt: 'Make a clip that ends on what past guests say about us, with the star rating', expect: 'reviews', heading: 'Kind words, left on the way home' },
  { site: 'saltmarsh', prompt: 'Can you do a video showing how to reach the hotel by train or car, map included?', expect: 'getting-here', heading: 'The lane that ends at the water' },
  // From a new-user walk (session 33): "a feel for" read as an opinion sent it to the reviews.
  { site: 'saltmarsh', prompt: 'Give guests a feel for the rooms and end on how to book a stay', expect: 'rooms', heading: 'Twenty-two places to wake slowly' },
  // the existing SaaS page
  { site: 'saas', prompt: 'Which companies already rely on it?', expect: 'customers', heading: 'Trusted by 4,000+ product teams' },
  { site: 'saas', prompt: 'Answer the common doubts', expect: 'faq', heading: 'Frequently asked questions' },
  // brightwater-dental: a local dental clinic (a sticky header under a top strip, treatment cards, people cards, a
  // price table beside a sticky column, membership plans, numbered steps, an SVG map, a booking form)
  { site: 'brightwater-dental', prompt: 'Reassure folks who are scared stiff of the dentist', expect: 'anxious', heading: "If just reading this makes your palms sweat, you're in good company" },
  { site: 'brightwater-dental', prompt: 'Introduce the clinicians patients will meet', expect: 'team', heading: 'The people behind the masks' },
  { site: 'brightwater-dental', prompt: 'How much will a scale and polish or a crown set me back?', expect: 'fees', heading: 'What things cost, in plain numbers' },
  { site: 'brightwater-dental', prompt: 'Pitch the subscription that covers routine visits', expect: 'membership', heading: 'One small monthly payment, no nasty bills' },
  { site: 'brightwater-dental', prompt: "Show the list of treatments, then walk through what a newcomer's initial appointment looks like", expect: 'first-visit', heading: 'Your first hour with us, from door to diary' },
  { site: 'brightwater-dental', prompt: 'Promote our same-day help for people in agony', expect: 'urgent', heading: "Toothache can't wait, so neither do we" },
  { site: 'brightwater-dental', prompt: 'Tour the practice and finish on the request form so viewers can grab a slot', expect: 'book', heading: "Tell us when suits you, and we'll do the rest" },
];

/** A fast subset for the test: one site of each kind, prompts that share no word with the heading. */
export const fastSubset = (cases: StoryCase[]) => cases.filter((c) => c.site === 'navrepeat' || c.site === 'metrics-faq');
