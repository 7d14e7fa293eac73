import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { flowExit } from '../../../src/pipeline/plan/flow-exit.js';
import { fillForm, labelSays } from '../../../src/pipeline/plan/form-fill.js';
import { namedValues } from '../../../src/pipeline/plan/named-values.js';
import { stem } from '../../../src/pipeline/plan/prompt-words.js';
import { saasOutline } from './outlines.js';
import type { OutlineAction, OutlineField, OutlineForm, PageOutline, Rect } from '../../../src/pipeline/types.js';

/**
 * Issue 56, an admin dashboard's flows (the seventeenth flows batch, 2026-12-12: five admin templates and a docs
 * site): what a person asks of an app's sidebar and how its forms are filled, without a browser.
 */
const sameSite = (url: string) => new URL(url, 'http://localhost:4000/').host === 'localhost:4000';
const rect = (x: number, y: number, width: number, height: number): Rect => ({ x, y, width, height });
const link = (label: string, href: string, y: number): OutlineAction => ({ label, kind: 'nav-link', href, selector: `aside a[href="${href}"]`, fallbackSelectors: [], rect: rect(20, y, 200, 32) });
const box = (label: string, type: string, name: string, y: number): OutlineField => ({ label, type, name, selector: `[name="${name}"]`, fallbackSelectors: [], rect: rect(300, y, 400, 40) });

/** A dashboard whose sidebar links its app's pages (as datta-able, nalika and materio do). */
function dashboard(links: OutlineAction[], forms: OutlineForm[] = []): PageOutline {
  return {
    url: 'http://localhost:4000/admin/index.html',
    title: 'Dashboard | Admin',
    description: null,
    viewport: { width: 1440, height: 900 },
    documentHeight: 1800,
    stickyHeaderHeight: 64,
    navigation: links,
    sections: [
      { id: 'sales', kind: 'content', heading: 'Daily Sales', text: '$249.95 67%', label: 'Daily Sales', selector: '#sales', fallbackSelectors: [], rect: rect(300, 100, 1100, 300) },
      { id: 'users', kind: 'content', heading: 'Users From United States', text: 'A map', label: 'Users', selector: '#users', fallbackSelectors: [], rect: rect(300, 420, 1100, 500) },
    ],
    actions: [],
    forms,
    media: [],
    dismissedOverlays: [],
  };
}

const sidebar = [
  link('Dashboard', '/admin/index.html', 100),
  link('Compose Mail', '/admin/mailbox-compose.html', 140),
  link('Login', '/admin/login.html', 180),
  link('Register', '/admin/register.html', 220),
  link('Password Recovery', '/admin/password-recovery.html', 260),
  link('Account', '/admin/pages-account-settings-account.html', 300),
  link('Notifications', '/admin/pages-account-settings-notifications.html', 340),
];

describe("an admin dashboard's sidebar, read as a person asks", () => {
  it('signs a colleague up when the prompt says "login" and "sign her up" (materio-admin)', () => {
    const exit = flowExit('My colleague needs her own login: sign her up as lena_ortiz with lena.ortiz@example.com', dashboard(sidebar), sameSite);
    assert.equal(exit?.purpose, 'sign-up');
    assert.equal(exit?.link.label, 'Register');
    assert.equal(flowExit('Get Maya Chen set up with her own account, her email is maya.chen@example.com', dashboard(sidebar), sameSite)?.link.label, 'Register');
    assert.equal(flowExit('Log me in with thom.yorke@example.com', dashboard(sidebar), sameSite)?.link.label, 'Login', 'a sign-in is still a sign-in');
    // celestial-admin (flows blind 2026-12-13)
    assert.equal(flowExit("I'm new here. Set me up with an account, username priya_n and email priya.n@example.com", dashboard(sidebar), sameSite)?.link.label, 'Register');
  });

  it('sends one who cannot remember their password to its recovery page, not to the settings (nalika-admin)', () => {
    assert.equal(flowExit("I can't remember my password. Send a reset to advanda.cro@example.com", dashboard(sidebar), sameSite)?.link.label, 'Password Recovery');
  });

  it('writes a note to an address in the mail app (nalika-admin)', () => {
    assert.equal(flowExit('Send a note to finance@example.com about the Q3 budget review', dashboard(sidebar), sameSite)?.link.label, 'Compose Mail');
  });

  it('finds "my profile" behind the menu\'s Account or Profile link (materio-admin, materialx-admin)', () => {
    assert.equal(flowExit('We moved offices: put 18 Harbour Street, Leeds as my address and LS1 4DY as the postcode on my profile', dashboard(sidebar), sameSite)?.link.label, 'Account');
    const materialx = [link('Dashboard', '/admin/index.html', 100), link('Profile Settings', '/admin/settings.html', 140), link('Buttons', '/admin/button.html', 180)];
    assert.equal(flowExit('Change my handle to rivera.design and add my site, riverastudio, to my profile', dashboard(materialx), sameSite)?.link.label, 'Profile Settings');
  });
});

describe('the values an admin prompt names, and the fields they go into', () => {
  it('keeps an address whole with its comma, and the postcode said after it without a verb', () => {
    const values = namedValues('We moved offices: put 18 Harbour Street, Leeds as my address and LS1 4DY as the postcode on my profile');
    assert.deepEqual(values.fields, [{ label: 'address', value: '18 Harbour Street, Leeds' }, { label: 'postcode', value: 'LS1 4DY' }]);
  });

  it('reads a handle changed "to" a value and a site named between commas', () => {
    const values = namedValues('Change my handle to rivera.design and add my site, riverastudio, to my profile');
    assert.deepEqual(values.fields, [{ label: 'handle', value: 'rivera.design' }, { label: 'site', value: 'riverastudio' }]);
    assert.equal(values.username, 'rivera.design');
    assert.equal(namedValues('login to the dashboard').username, undefined, '"login to" names no one');
  });

  it('types a name into "one of the name boxes" (material-admin-bd, flows blind 2026-12-13)', () => {
    assert.deepEqual(namedValues('Type Marcus Lee into one of the name boxes on the forms page').fields, [{ label: 'name', value: 'Marcus Lee' }]);
  });

  it('matches a field a form calls by another name: the postcode is the Zip Code, the site the Website', () => {
    assert.ok(labelSays('Zip Code', 'postcode'));
    assert.ok(labelSays('Website', 'site'));
    assert.ok(labelSays('Username', 'handle'));
    assert.ok(!labelSays('Address', 'postcode'));
  });

  it('types a note\'s "about" into the subject line of a compose form whose body is a rich editor', () => {
    const compose: OutlineForm = {
      label: 'New message', selector: 'form', fallbackSelectors: [], rect: rect(300, 100, 800, 300), method: 'get', submit: null,
      fields: [box('To', 'text', 'to', 120), box('Cc', 'text', 'cc', 180), box('Enter Email subject', 'text', 'subject', 240)],
    };
    const fill = fillForm(dashboard([], [compose]), namedValues('Send a note to finance@example.com about the Q3 budget review'), null, { allowSubmit: false, prompt: 'Send a note to finance@example.com about the Q3 budget review' });
    const typed = fill?.steps.filter((step) => step.action === 'type').map((step) => step.action === 'type' ? step.text : '');
    assert.ok(typed?.includes('The Q3 budget review'), `typed: ${JSON.stringify(typed)}`);
  });

  it('searches for what a prompt wants to know everything about, and sends a buttonless search box by Enter', () => {
    assert.equal(namedValues('Look up everything the docs say about sideloading').search, 'sideloading');
    assert.equal(namedValues('Show everything about the team').search, undefined, 'showing is not searching');
    assert.equal(namedValues('Find every place the docs mention create_chart').search, 'create_chart', 'xl-link-docs (flows blind 2026-12-13)');
    const search: OutlineForm = {
      label: 'Search docs', selector: '#rtd-search-form', fallbackSelectors: [], rect: rect(20, 80, 240, 40), method: 'get', submit: null,
      fields: [box('Search docs', 'text', 'q', 90)],
    };
    const prompt = 'Look up everything the docs say about sideloading';
    const fill = fillForm(dashboard([], [search]), namedValues(prompt), null, { allowSubmit: false, prompt });
    assert.ok(fill?.submits && fill.searches, 'the search is sent: a GET changes nothing, and its results are the answer');
    const last = fill.steps.at(-1)!;
    assert.equal(last.action, 'navigate');
    assert.equal(last.action === 'navigate' ? last.target.selector : '', '[name="q"]', 'sent from the box itself');
  });
});

describe('values the nineteenth flows batch named (flows blind 2026-12-14)', () => {
  const typedInto = (form: OutlineForm, prompt: string) => {
    const fill = fillForm(dashboard([], [form]), namedValues(prompt), null, { allowSubmit: false, prompt });
    return Object.fromEntries((fill?.steps ?? []).filter((step) => step.action === 'type').map((step) => [step.action === 'type' ? step.target.selector : '', step.action === 'type' ? step.text : '']));
  };

  it('types a city one has moved to and a postal code said after its label', () => {
    const profile: OutlineForm = {
      label: 'Edit Profile', selector: 'form', fallbackSelectors: [], rect: rect(300, 100, 800, 500), method: 'get', submit: null,
      fields: [box('Address', 'text', 'address', 120), box('City', 'text', 'city', 180), box('Country', 'text', 'country', 240), box('Postal Code', 'text', 'postal', 300)],
    };
    const typed = typedInto(profile, "Update my profile: I've moved to Cluj-Napoca, postal code 400001");
    assert.equal(typed['[name="city"]'], 'Cluj-Napoca');
    assert.equal(typed['[name="postal"]'], '400001');
    assert.equal(typed['[name="address"]'], undefined, 'the street is not named');
  });

  it('types a street address said after its label, beside a billing name', () => {
    const values = namedValues("I'm ready to pay for my cart: fill in the billing name Lena Fischer and the street address 12 Elm Street");
    assert.equal(values.name, 'Lena Fischer');
    assert.deepEqual(values.fields, [{ label: 'street address', value: '12 Elm Street' }]);
  });

  it("names a new habit after a colon for the form's name box", () => {
    assert.deepEqual(namedValues('Start tracking a new habit: Drink Water, every day, under Health').fields, [{ label: 'habit', value: 'Drink Water' }]);
    const add: OutlineForm = {
      label: 'Add New Habit', selector: 'form', fallbackSelectors: [], rect: rect(300, 100, 800, 300), method: 'get', submit: null,
      fields: [box('Habit Name', 'text', 'habit', 120), box('Category', 'text', 'category', 180)],
    };
    assert.equal(typedInto(add, 'Start tracking a new habit: Drink Water, every day, under Health')['[name="habit"]'], 'Drink Water');
  });

  it("goes to a shop's cart (an icon link, named by its picture) for a code to use on what is in it", () => {
    const shop = dashboard([link('Shop', '/admin/shop.html', 100), link('About us', '/admin/about.html', 140), link('cart', '/admin/cart.html', 180)]);
    const prompt = "I have a discount code SOFA10. How do I use it on what's in my cart?";
    assert.equal(flowExit(prompt, shop, sameSite)?.link.label, 'cart');
    assert.deepEqual(namedValues(prompt).fields, [{ label: 'discount code', value: 'SOFA10' }]);
    assert.equal(namedValues('Is there a discount for students?').fields.length, 0, 'a discount asked about is no code');
    assert.ok(labelSays('Coupon code', 'discount code'));
    assert.ok(labelSays('Address', 'street address'), 'a qualifier the label leaves unsaid');
    assert.ok(!labelSays('Email', 'street address'));
  });

  it("goes to the checkout one who is ready to pay asks for: from the cart by its button, from the home page by the cart first", () => {
    const prompt = "I'm ready to pay for my cart: fill in the billing name Lena Fischer and the street address 12 Elm Street";
    const proceed: OutlineAction = { ...link('Proceed To Checkout', '/admin/checkout.html', 600), kind: 'cta', selector: 'main button' };
    const menu = [link('Shop', '/admin/shop.html', 100), link('Contact us', '/admin/contact.html', 140), link('cart', '/admin/cart.html', 180)];
    const cart: PageOutline = { ...dashboard([...menu, proceed]), url: 'http://localhost:4000/admin/cart.html', title: 'Cart | Furni' };
    assert.equal(flowExit(prompt, cart, sameSite)?.link.label, 'Proceed To Checkout', 'not "Contact us", which only means an address');
    assert.equal(flowExit(prompt, dashboard(menu), sameSite)?.link.label, 'cart', 'no checkout in sight: the cart leads there');
    const checkout: PageOutline = { ...dashboard(menu), url: 'http://localhost:4000/admin/checkout.html', title: 'Checkout | Furni' };
    assert.equal(flowExit(prompt, checkout, sameSite), null, 'arrived');
    assert.equal(flowExit('Go through checkout for what is in my cart', dashboard(menu), sameSite)?.link.label, 'cart');
  });

  it('types a whole name into a box labelled "Name Surname", not its last half, and leaves a filled-in required box', () => {
    const settings: OutlineForm = {
      label: 'Profile Settings', selector: 'form', fallbackSelectors: [], rect: rect(300, 100, 800, 300), method: 'get', submit: null,
      fields: [box('Name Surname', 'text', 'NameSurname', 120), { ...box('Email', 'email', 'Email', 180), required: true, filled: true }, { ...box('Skills', 'text', 'Skills', 240), required: true }],
    };
    const prompt = 'Open the user profile page and, in its settings, change the name to Marc Hammond-Reyes';
    const fill = fillForm(dashboard([], [settings]), namedValues(prompt), null, { allowSubmit: false, prompt });
    const typed = fill?.steps.filter((step) => step.action === 'type').map((step) => (step.action === 'type' ? step.text : ''));
    assert.deepEqual(typed, ['Marc Hammond-Reyes'], 'the saved e-mail, required, is left as the page filled it');
    const empty: OutlineForm = { ...settings, fields: [settings.fields[0]!, { ...settings.fields[1]!, filled: undefined }] };
    const refill = fillForm(dashboard([], [empty]), namedValues(prompt), null, { allowSubmit: false, prompt });
    assert.ok(refill?.steps.some((step) => step.action === 'type' && step.text === 'alex@example.com'), 'an empty required e-mail gets a made-up one');
  });

  it("types no billing details into a newsletter's name and e-mail boxes", () => {
    const newsletter: OutlineForm = {
      label: 'Subscribe to Newsletter', selector: 'form', fallbackSelectors: [], rect: rect(300, 900, 800, 100), method: 'get', submit: null,
      fields: [box('Enter your name', 'text', 'name', 920), box('Enter your email', 'email', 'email', 920)],
    };
    const prompt = "I'm ready to pay for my cart: fill in the billing name Lena Fischer and the street address 12 Elm Street";
    assert.equal(fillForm(dashboard([], [newsletter]), namedValues(prompt), null, { allowSubmit: false, prompt }), null);
    const subscribe = 'Subscribe me to the newsletter as Lena Fischer, lena@example.com';
    assert.ok(fillForm(dashboard([], [newsletter]), namedValues(subscribe), null, { allowSubmit: false, prompt: subscribe }), 'the newsletter asked for is still filled');
  });

  it('searches an icon set for the one the prompt described before ("a calendar icon … search for one")', () => {
    const values = namedValues('I need a calendar icon for a button. Search the icon set for one');
    assert.equal(values.search, 'calendar');
  });
});

describe('words spelt the British way', () => {
  it('meet the American spelling of a page, and leave other words alone', () => {
    assert.equal(stem('colours'), stem('Color'));
    assert.equal(stem('customise'), stem('customize'));
    assert.equal(stem('centre'), stem('center'));
    assert.equal(stem('catalogue'), stem('catalog'));
    assert.notEqual(stem('your'), stem('yor'));
    assert.equal(stem('promise'), 'promis');
  });
});

describe('values the twentieth flows batch named (flows blind 2026-12-15)', () => {
  it('reads the person billing details are for as the name to type, and no weekday as one', () => {
    assert.equal(namedValues("I'm ready to pay for my basket - fill in the billing details for Leo Brandt").name, 'Leo Brandt');
    assert.equal(namedValues('Show the order form for Monday').name, undefined);
  });
});

describe('what the twenty-first flows batch asked (flows blind 2026-12-16)', () => {
  it('reads the town named with its label as the value for the Town box', () => {
    assert.deepEqual(namedValues('Enter my delivery details - Tomás Rivera, tomas.rivera@example.com, town Lisbon - and show me what the order comes to').fields, [{ label: 'town', value: 'Lisbon' }]);
  });

  it('writes to the shop through its contact page when asked to ask it something', () => {
    const outline = saasOutline();
    outline.forms = [];
    outline.navigation.push({ label: 'Contact', kind: 'nav-link', href: '/contact.html', selector: 'a[href="/contact.html"]', fallbackSelectors: [], rect: { x: 600, y: 20, width: 80, height: 30 } });
    const prompt = 'Ask the shop whether they have organic avocados in stock. Send it as Lena Ortiz, lena.ortiz@example.com: "Do you have organic avocados this week?"';
    assert.equal(flowExit(prompt, outline, (url) => new URL(url, 'http://localhost:4000/').host === 'localhost:4000')?.purpose, 'contact');
  });

  it('stays for a way to reach them with nothing to write, when a later beat is on this page (reumun-2023, twentieth real batch)', () => {
    const outline = saasOutline();
    outline.forms = [];
    outline.navigation.push({ label: 'Contact us', kind: 'nav-link', href: '/contact-us.html', selector: 'a[href="/contact-us.html"]', fallbackSelectors: [], rect: { x: 600, y: 20, width: 80, height: 30 } });
    const sameSite = (url: string) => new URL(url, 'http://localhost:4000/').host === 'localhost:4000';
    const pricing = outline.sections.find((section) => section.kind === 'pricing')!.heading;
    assert.equal(flowExit(`Start with how to get in touch with the team, then show the ${pricing}`, outline, sameSite), null);
    assert.equal(flowExit(`Write to the team as Lena Park, lena.park@example.com, then show the ${pricing}`, outline, sameSite)?.purpose, 'contact', 'something to write still goes to the contact page');
  });
});
