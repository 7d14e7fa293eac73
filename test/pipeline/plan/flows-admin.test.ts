import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { flowExit } from '../../../src/pipeline/plan/flow-exit.js';
import { fillForm, labelSays } from '../../../src/pipeline/plan/form-fill.js';
import { namedValues } from '../../../src/pipeline/plan/named-values.js';
import { stem } from '../../../src/pipeline/plan/section-meaning.js';
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
