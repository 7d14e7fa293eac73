import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { flowExit } from '../../../src/pipeline/plan/flow-exit.js';
import { appActions } from '../../../src/pipeline/plan/app-actions.js';
import type { PageOutline } from '../../../src/pipeline/types.js';
import { fillForm } from '../../../src/pipeline/plan/form-fill.js';
import { namedValues } from '../../../src/pipeline/plan/named-values.js';
import { goesOnAfter } from '../../../src/pipeline/plan/plan-leg.js';
import { saasOutline } from './outlines.js';

/**
 * Issue 56, the planning of a flow without a browser: which values a prompt names, when it leaves the page (and by
 * which link), and how a form is filled.
 */
const sameSite = (url: string) => new URL(url, 'http://localhost:4000/').host === 'localhost:4000';

describe('the values a prompt names', () => {
  it('finds an e-mail, a person, a message and a search', () => {
    assert.deepEqual(namedValues('Show how a customer signs in as dana@example.com'), { email: 'dana@example.com', texts: [], fields: [], entries: [] });
    assert.equal(namedValues('Go to the contact form and fill it in as Alex Kim').name, 'Alex Kim');
    assert.equal(namedValues('Send a note with the message "Can we book a demo?"').message, 'Can we book a demo?');
    assert.equal(namedValues("Search for 'trail shoes' and show the results").search, 'trail shoes');
    assert.equal(namedValues('Send a note as Liam Chen, liam.chen@example.com, about a brand refresh').message, 'A brand refresh');
  });

  it('finds a phone number said as a mobile (connect-plus-admin, flows blind 2026-12-09)', () => {
    const values = namedValues('On the forms page, fill in the form that asks for a mobile number: username treyes, email tomas.reyes@example.com, mobile 415 555 0199');
    assert.equal(values.phone, '415 555 0199');
    assert.deepEqual(values.texts, [], 'not a text typed into some other box');
  });

  it('finds the person a prompt adds, named just after them (kiaalap, flows blind 2026-12-10)', () => {
    assert.equal(namedValues('Enrol a new student, Tomas Reyes, with the mobile number 555 0142').name, 'Tomas Reyes');
    assert.equal(namedValues('Add a task, Buy Milk, for Friday').name, undefined, 'a task is no person');
  });

  it('finds a subject line', () => {
    assert.equal(namedValues('Ask the shop about a bulk order from the contact page: Sofia Marquez, sofia.marquez@example.com, subject Wholesale enquiry').subject, 'Wholesale enquiry');
    assert.equal(namedValues('Write a new email to lena.berg@example.com with the subject Q3 budget review').subject, 'Q3 budget review');
  });

  it('finds a user name or handle, and an organisation changed "to" a name', () => {
    assert.equal(namedValues('Register a new user called kenji_w with the email kenji.w@example.com').username, 'kenji_w');
    assert.equal(namedValues('Open a customer account for Amara Okafor, username amarao, email amara.okafor@example.com').username, 'amarao');
    assert.equal(namedValues('Sign in as dana@example.com').username, undefined, 'an e-mail is not a handle');
    assert.equal(namedValues('Change the organisation to Northwind Traders and the phone number to 202 555 0199').company, 'Northwind Traders');
  });

  it('finds a person who says who they are, and a message said in the first person', () => {
    const values = namedValues("Send the author a message: I'm Tomas Rivera, tomas.rivera@example.com, phone 555 0142, and I'd like to pitch a guest post");
    assert.equal(values.name, 'Tomas Rivera');
    assert.equal(values.message, "I'd like to pitch a guest post");
    assert.equal(namedValues('Email the studio about a brand refresh as Alex Kim').message, 'A brand refresh', 'the sender is not part of the subject');
    assert.equal(namedValues('Ask for a quote as Helena Costa, helena.costa@example.org, with the message: We need an online menu by March').message, 'We need an online menu by March');
  });

  it('says where a prompt goes once its form is sent, and nowhere when it ends on the form', () => {
    assert.equal(goesOnAfter('Log in with maria.gomez@example.com and land on the analytics dashboard'), 'land on the analytics dashboard');
    assert.equal(goesOnAfter('Sign in as dana@example.com, then open the reports'), 'open the reports');
    assert.equal(goesOnAfter('Sign in as dana@example.com'), null);
    assert.equal(goesOnAfter('Sign up for the newsletter as sam.lee@example.com and end on the filled form'), null);
  });

  it('finds a field named with its value, only where the sentence changes something', () => {
    assert.deepEqual(namedValues('In my profile settings, set the job title to Head of Customer Support').fields, [{ label: 'job title', value: 'Head of Customer Support' }]);
    assert.deepEqual(namedValues('Update the account: the name becomes Farah Haddad and the email farah.h@example.net').fields, [{ label: 'name', value: 'Farah Haddad' }]);
    assert.deepEqual(namedValues('End on where readers can drop their email to stay in the loop.').fields, []);
    assert.equal(namedValues('Save a note titled "Dentist" that says "bring the card"').title, 'Dentist');
  });

  it('takes the values listed after the colon of a prompt that adds or fills something in, a name first', () => {
    const added = namedValues('Add a new person to the staff table on the DataTables page: Maya Lindqvist, Data Analyst, Stockholm office');
    assert.equal(added.name, 'Maya Lindqvist');
    assert.deepEqual(added.texts, ['Data Analyst', 'Stockholm office']);
    const sent = namedValues('Send the studio a message from the contact form at the bottom: Noor Haddad, noor.haddad@example.com, "We need a new logo for our bakery"');
    assert.equal(sent.name, 'Noor Haddad');
    assert.deepEqual(sent.texts, ['We need a new logo for our bakery'], 'the address and the quotation are read as before, once');
    assert.deepEqual(namedValues('Show the new plans: Free, Pro and Team').texts, [], 'a list that adds nothing names no values');
    assert.equal(namedValues('Write a review as Hannah Cole, hannah@example.com: Fast, quiet and the battery lasts all day').message, 'Fast, quiet and the battery lasts all day');
  });

  it('messages the gym through its contact page: "message the gym", "send them a note"', () => {
    const outline = saasOutline();
    outline.forms = [];
    outline.navigation.push({ label: 'Contact', kind: 'nav-link', href: '/contact.html', selector: 'a[href="/contact.html"]', fallbackSelectors: [], rect: { x: 600, y: 20, width: 80, height: 30 } });
    assert.equal(flowExit('Message the gym as Marta Silva, marta.silva@example.com, asking "Do you offer a free trial week?"', outline, sameSite)?.purpose, 'contact');
    assert.equal(flowExit('Ask them about business accounts: send them a note as Lena Park, lena.park@example.com', outline, sameSite)?.purpose, 'contact');
    // pretty-patties (flows blind 2026-12-09): the shop's name between the verb and its note.
    assert.equal(flowExit('Send Pretty Patties a note from Jordan Lee (jordan.lee@example.com) asking "Do you cater weddings?"', outline, sameSite)?.purpose, 'contact');
  });

  it('reads no message in a question about where to write one', () => {
    assert.equal(namedValues('Where do I send him a message about a job?').message, undefined);
    assert.equal(namedValues('Send a note as Liam Chen, liam.chen@example.com, about a brand refresh').message, 'A brand refresh');
  });

  it('finds a phone number said as a mobile (connect-plus-admin, flows blind 2026-12-09)', () => {
    const values = namedValues('On the forms page, fill in the form that asks for a mobile number: username treyes, email tomas.reyes@example.com, mobile 415 555 0199');
    assert.equal(values.phone, '415 555 0199');
    assert.deepEqual(values.texts, [], 'not a text typed into some other box');
  });

  it('reads no user name in "the login screen", and a handle listed after the colon as the user name', () => {
    assert.deepEqual(namedValues('Take me to the login screen and log in as amara.okafor@example.com'), { email: 'amara.okafor@example.com', texts: [], fields: [], entries: [] });
    assert.equal(namedValues('Sign in with login kenji_w').username, 'kenji_w');
    const listed = namedValues('Register a new user: leo_martin, leo.martin@example.com, from Portugal');
    assert.equal(listed.username, 'leo_martin');
    assert.equal(listed.email, 'leo.martin@example.com');
  });

  it('finds fields named with their values after "with", and a person named just before their address', () => {
    const values = namedValues('Open the form elements and fill in the basic form with the name Sofia Bianchi and the city Turin');
    assert.deepEqual(values.fields, [{ label: 'name', value: 'Sofia Bianchi' }, { label: 'city', value: 'Turin' }]);
    assert.deepEqual(namedValues('Fill it in with the name of your company').fields, [], 'no value after "the name of"');
    assert.equal(namedValues('Go to the sample forms and subscribe Tomas Rivera, tomas.rivera@example.com, to the newsletter').name, 'Tomas Rivera');
  });

  it('searches a place for what is named, a pronoun for the name said before it', () => {
    assert.equal(namedValues('Which of our staff work in Edinburgh? Search the data table for it').search, 'Edinburgh');
    assert.equal(namedValues('Search the staff list for Garrett Winters').search, 'Garrett Winters');
    assert.equal(namedValues('Search the data table').search, undefined, 'the place searched is no query');
    const lookedUp = namedValues('Do we have any contacts in Offenburg? Look them up in the datatable');
    assert.deepEqual([lookedUp.search, lookedUp.searchIn], ['Offenburg', 'datatable'], '"look them up in …" is a search too');
    assert.equal(namedValues('Look up Offenburg in the contacts table').search, 'Offenburg');
    assert.equal(namedValues('Look at the pricing').search, undefined);
  });

  it('takes no ordinary word for a name, and no apostrophe for a quotation', () => {
    const values = namedValues("Show the customer's dashboard as it looks, then it's done");
    assert.equal(values.name, undefined);
    assert.deepEqual(values.texts, []);
  });
});

describe('where a prompt leaves the page', () => {
  it('follows the sign-in link when the page has no sign-in form of its own', () => {
    const exit = flowExit('Show how a returning customer signs in to their account', saasOutline(), sameSite);
    assert.equal(exit?.link.label, 'Sign in');
    assert.equal(exit?.purpose, 'sign-in');
    assert.equal(exit?.before, '');
  });

  it('hears "log me in" and "sign me up" with the person between the verb and its word (flows blind batch 2026-12-05)', () => {
    assert.equal(flowExit('I already have an account, log me in as sam.ortiz@college.edu', saasOutline(), sameSite)?.purpose, 'sign-in');
    const signUp = flowExit("I'm a student and want to join, sign me up with jordan.lee@school.edu", saasOutline(), sameSite);
    assert.notEqual(signUp?.purpose, 'sign-in', 'signing up is not signing in');
  });

  it('hears "log out and sign back in" as a sign-in (staradmin, flows blind batch 2026-12-10)', () => {
    assert.equal(flowExit('Log out and sign back in with the username dana.whitfield', saasOutline(), sameSite)?.purpose, 'sign-in');
    assert.equal(flowExit('Show how I log out and log back in as dana.kim@example.com', saasOutline(), sameSite)?.purpose, 'sign-in');
  });

  it("goes to the menu's page that makes the thing the prompt makes: \"enrol a new student\" is \"Add Student\" (kiaalap, flows blind batch 2026-12-10)", () => {
    const outline = saasOutline();
    outline.forms = [];
    outline.navigation.push(
      { ...outline.navigation[0]!, label: 'All Students', href: '/all-students.html', selector: 'nav a[href="/all-students.html"]' },
      { ...outline.navigation[0]!, label: 'Add Student', href: '/add-student.html', selector: 'nav a[href="/add-student.html"]' },
    );
    assert.equal(flowExit('Enrol a new student, Tomas Reyes, with the mobile number 555 0142', outline, sameSite)?.link.label, 'Add Student');
    assert.equal(flowExit('Show how many students enrolled this year', outline, sameSite)?.link.label ?? null, null, 'no making, no page that makes');
  });

  it('opens "the forms" by the sidebar\'s "Form elements", past a header search box (regal-admin, flows blind batch 2026-12-10)', () => {
    const outline = saasOutline();
    const search = outline.forms[0]!;
    outline.forms = [{ ...search, label: 'search', fields: [{ ...search.fields[0]!, label: 'search', name: null, type: 'text' }] }];
    outline.navigation.push(
      { ...outline.navigation[0]!, label: 'Form elements', href: '/pages/forms/basic_elements.html', selector: 'nav a[href="/pages/forms/basic_elements.html"]' },
      { ...outline.navigation[0]!, label: 'UI Elements', href: '/pages/ui/buttons.html', selector: 'nav a[href="/pages/ui/buttons.html"]' },
    );
    assert.equal(flowExit('Open the forms and put a new teammate into the first one: username jonah.kim', outline, sameSite)?.link.label, 'Form elements');
    assert.equal(flowExit('Search the dashboard in its search box for invoices', outline, sameSite)?.link.label ?? null, null, 'the search box is the one asked for');
  });

  it('reads the newest release as the docs\' "Release Notes" page (starlette, flows blind batch 2026-12-10)', () => {
    const outline = saasOutline();
    outline.navigation.push({ ...outline.navigation[0]!, label: 'Release Notes', href: '/release-notes/', selector: 'nav a[href="/release-notes/"]' });
    assert.equal(flowExit('What shipped in the most recent Starlette release?', outline, sameSite)?.link.label, 'Release Notes');
    assert.equal(flowExit('Show the pricing plans', outline, sameSite)?.link.label ?? null, null, 'a part of this page stays here');
  });

  it('knows a sign-in, a sign-up and a contact link labelled in another language ("Inicio Sesion", "Registrarse", "Contacto")', () => {
    const outline = saasOutline();
    outline.forms = [];
    outline.actions = outline.actions.filter((a) => !/signup|contact/.test(a.href ?? ''));
    outline.navigation = outline.navigation.map((link) => (link.label === 'Sign in' ? { ...link, label: 'Inicio Sesion', href: '/sesion' } : link));
    outline.navigation.push(
      { ...outline.navigation[0]!, label: 'Registrarse', href: '/registro', selector: 'header a[href="/registro"]' },
      { ...outline.navigation[0]!, label: 'Contacto', href: '/contacto', selector: 'header a[href="/contacto"]' },
    );
    assert.equal(flowExit('Log me in as dana@example.com', outline, sameSite)?.link.label, 'Inicio Sesion');
    assert.equal(flowExit('Register as Diego Rojas', outline, sameSite)?.link.label, 'Registrarse');
    assert.equal(flowExit('Write to the store: my name is Lucia Fernandez', outline, sameSite)?.link.label, 'Contacto');
  });

  it('shows the beats before it on this page first', () => {
    const exit = flowExit('Show the features, then sign in as dana@example.com', saasOutline(), sameSite);
    assert.equal(exit?.before, 'Show the features');
    assert.match(exit?.after ?? '', /^sign in as dana@example\.com/);
  });

  it('stays on a page that holds what is asked: its own sign-up form, a section reached by an anchor', () => {
    assert.equal(flowExit('Finish on the sign-up form', saasOutline(), sameSite), null);
    assert.equal(flowExit('Show the pricing', saasOutline(), sameSite), null);
    assert.equal(flowExit('Walk through the features and end on what customers say', saasOutline(), sameSite), null);
  });

  it('visits first a page an earlier beat names that this page does not answer', () => {
    const outline = saasOutline();
    outline.navigation.push({ label: 'Blog', kind: 'nav-link', href: '/blog', selector: 'header a[href="/blog"]', fallbackSelectors: [], rect: { x: 1100, y: 20, width: 50, height: 32 } });
    const exit = flowExit('Start at the blog, then sign in as dana@example.com', outline, sameSite);
    assert.equal(exit?.link.label, 'Blog');
    assert.equal(exit?.before, '');
    assert.match(exit?.after ?? '', /^Start at the blog, then sign in/);
    // "From X to Y" is two places, in that order.
    assert.equal(flowExit('Go from the blog to the sign-in page and sign in as dana@example.com', outline, sameSite)?.link.label, 'Blog');
    // A beat the page answers itself is shown here, not looked for elsewhere.
    assert.equal(flowExit('Show the pricing, then sign in as dana@example.com', outline, sameSite)?.link.label, 'Sign in');
  });

  it("opens a docs sidebar's page named in the plural by a question about one of its things", () => {
    const outline = saasOutline();
    const docsLink = (label: string, href: string) => ({ label, kind: 'nav-link' as const, href, selector: `aside a[href="${href}"]`, fallbackSelectors: [], rect: { x: 20, y: 300, width: 120, height: 28 } });
    outline.navigation.push(docsLink('Modals', '/docs/modals.html'), docsLink('Calendars', '/docs/calendars.html'));
    assert.equal(flowExit('How do I build a modal dialog with it? Open its docs', outline, sameSite)?.link.label, 'Modals');
    assert.equal(flowExit('Is there a date picker or a calendar? Show me', outline, sameSite)?.link.label, 'Calendars');
    // Said in passing, not asked for: the page stays.
    assert.equal(flowExit('Show the pricing for teams that book calendars', outline, sameSite)?.link.label ?? null, null);
  });

  it("opens a docs page for what the prompt wants to make with it, named with a dot inside (flows blind batch 2026-12-05)", () => {
    const outline = saasOutline();
    const docsLink = (label: string, href: string) => ({ label, kind: 'nav-link' as const, href, selector: `a[href="${href}"]`, fallbackSelectors: [], rect: { x: 20, y: 300, width: 120, height: 28 } });
    outline.navigation.push(docsLink('Components', '/components.html'), docsLink('Charts', '/charts.html'));
    assert.equal(flowExit('I want to draw my first Morris.js chart, where is that explained?', outline, sameSite)?.link.label, 'Charts');
    assert.equal(flowExit('Show the pricing for teams that draw charts', outline, sameSite)?.link.label ?? null, null, 'said in passing');
  });

  it('takes the site\'s name on its link home for the product, not a control: "sign in to Vali" follows the sign-in link', () => {
    const outline = saasOutline();
    outline.title = 'Vali Admin - Free Bootstrap 5 Admin Template';
    outline.url = 'http://localhost:4000/saas/dashboard.html';
    outline.navigation.unshift({ label: 'Vali', kind: 'nav-link', href: 'http://localhost:4000/saas/index.html', selector: 'header a.logo', fallbackSelectors: [], rect: { x: 20, y: 20, width: 90, height: 30 } });
    assert.equal(flowExit('Show how I sign in to Vali as dana@example.com', outline, sameSite)?.link.label, 'Sign in');
    outline.navigation.push({ label: 'Settings', kind: 'nav-link', href: '/settings.html', selector: 'a[href="/settings.html"]', fallbackSelectors: [], rect: { x: 1000, y: 20, width: 60, height: 30 } });
    assert.equal(flowExit('Change the password in Settings', outline, sameSite)?.link.label, 'Settings', 'a control called by its name still is');
  });

  it("opens a docs sidebar's page said in another form of its word, or named by what the component does", () => {
    const outline = saasOutline();
    const docsLink = (label: string, href: string) => ({ label, kind: 'nav-link' as const, href, selector: `aside a[href="${href}"]`, fallbackSelectors: [], rect: { x: 20, y: 300, width: 120, height: 28 } });
    outline.navigation.push(docsLink('Themes', '/docs/themes.html'), docsLink('Modal', '/docs/modal.html'), docsLink('Cards', '/docs/cards.html'));
    assert.equal(flowExit('Show me how theming works in it', outline, sameSite)?.link.label, 'Themes');
    assert.equal(flowExit('I want a popup that asks people to confirm before they delete something. How do I build one?', outline, sameSite)?.link.label, 'Modal');
    outline.navigation.push(docsLink('Text Inputs', '/docs/text-inputs.html'), docsLink('Radio Buttons', '/docs/radio.html'));
    assert.equal(flowExit('Find the inputs docs and try the first name box', outline, sameSite)?.link.label, 'Text Inputs', 'the one link with the word said');
    outline.navigation.push(docsLink('Datatable', '/table-datatable.html'));
    assert.equal(flowExit('Do we have any contacts in Offenburg? Look them up in the datatable', outline, sameSite)?.link.label, 'Datatable');
  });

  it('goes where the prompt calls a control by its name ("in Settings"), over what its other words suggest', () => {
    const outline = saasOutline();
    outline.navigation.push({ label: 'Settings', kind: 'nav-link', href: '/settings.html', selector: 'a[href="/settings.html"]', fallbackSelectors: [], rect: { x: 1000, y: 20, width: 60, height: 30 } });
    assert.equal(flowExit('Update the account details in Settings: the name becomes Farah Haddad', outline, sameSite)?.link.label, 'Settings', '"account" is no sign-up here');
    assert.notEqual(flowExit('Update the account details in the settings', outline, sameSite)?.link.label, 'Settings', 'a lower-case word is a subject, not a name');
  });

  it("takes an app's hash route for another screen, and a plain anchor for a place on this page", () => {
    const outline = saasOutline();
    outline.navigation.push({ label: 'Settings', kind: 'nav-link', href: 'http://localhost:4000/saas/#/settings', selector: 'a[href="#/settings"]', fallbackSelectors: [], rect: { x: 1000, y: 20, width: 60, height: 30 } });
    outline.navigation.push({ label: 'Roadmap', kind: 'nav-link', href: 'http://localhost:4000/saas/#roadmap', selector: 'a[href="#roadmap"]', fallbackSelectors: [], rect: { x: 1100, y: 20, width: 60, height: 30 } });
    assert.equal(flowExit('Open the settings screen', outline, sameSite)?.link.label, 'Settings');
    assert.equal(flowExit('Open the roadmap page', outline, sameSite), null);
  });

  it('follows a link whose words the prompt says, or that means what it asks for, when this page has nothing for it', () => {
    const outline = saasOutline();
    outline.navigation.push(
      { label: 'Forgot password?', kind: 'nav-link', href: '/password', selector: 'a[href="/password"]', fallbackSelectors: [], rect: { x: 900, y: 20, width: 90, height: 30 } },
      { label: 'Careers', kind: 'nav-link', href: '/careers', selector: 'a[href="/careers"]', fallbackSelectors: [], rect: { x: 1000, y: 20, width: 90, height: 30 } },
    );
    assert.equal(flowExit('Someone forgot their password: show them asking for a reset link for sam@example.com', outline, sameSite)?.link.label, 'Forgot password?');
    assert.equal(flowExit('Show the open jobs and how to hire into the team', outline, sameSite), null, 'the page has its own part for it (the team)');
  });

  it("takes the page's other links too: a link under a form, a tile that names the site's pages", () => {
    const outline = saasOutline();
    const link = (label: string, href: string) => ({ label, kind: 'nav-link' as const, href, selector: `a[href="${href}"]`, fallbackSelectors: [], rect: { x: 600, y: 900, width: 120, height: 24 } });
    outline.contentLinks = [link('Forgot password?', '/password'), link('Services', '/services'), link('Works', '/works'), link('Doctors', '/doctors')];
    assert.equal(flowExit('Someone forgot their password: show them asking for a reset link for sam@example.com', outline, sameSite)?.link.label, 'Forgot password?');
    assert.equal(flowExit('Show the designer’s recent projects', outline, sameSite)?.link.label, 'Works', 'a word that means it');
    assert.equal(flowExit('Which services does the studio offer?', outline, sameSite)?.link.label, 'Services', 'the word the prompt asks for');
    // Said in passing, not asked for: the page's own testimonials answer it.
    assert.equal(flowExit('Show what people think of the doctors', outline, sameSite), null);
  });

  it('stays on this page when one of its parts is headed by the word the link says', () => {
    const outline = saasOutline();
    outline.contentLinks = [{ label: 'Pricing', kind: 'nav-link', href: '/pricing', selector: 'a[href="/pricing"]', fallbackSelectors: [], rect: { x: 600, y: 900, width: 120, height: 24 } }];
    assert.equal(flowExit('Show the pricing', outline, sameSite), null);
  });

  it('stays on the page whose address says the link\'s word and more of the prompt\'s: "search the influencer finder" on influencer-finder.html', () => {
    // concept-admin (flows blind 2026-12-08): arrived at the finder, the flow went on by the sidebar's "Influencer" to
    // the influencer dashboard and typed "yoga" into the header's search box there.
    const outline = saasOutline();
    outline.navigation.push({ label: 'Influencer', kind: 'nav-link', href: '/dashboard-influencer.html', selector: 'a[href="/dashboard-influencer.html"]', fallbackSelectors: [], rect: { x: 10, y: 170, width: 200, height: 28 } });
    const prompt = "We're looking for yoga creators to partner with. Search the influencer finder for yoga";
    assert.equal(flowExit(prompt, outline, sameSite)?.link.label, 'Influencer', 'elsewhere, the link goes there');
    outline.url = 'http://localhost:4000/influencer-finder.html';
    assert.equal(flowExit(prompt, outline, sameSite), null);
  });

  it('stays on the page a prompt named once it is there: "go to the Register page and fill it in" fills its form', () => {
    const outline = saasOutline();
    outline.url = 'http://localhost:4000/saas/register.html';
    outline.title = 'Register | Reelio';
    const prompt = 'Our new hire needs a login: go to the Register page and fill it in with username mateo.r and email mateo.ruiz@example.com';
    const field = (label: string, y: number, type: string) => ({ label, type, name: null, selector: `#f${y}`, fallbackSelectors: [], rect: { x: 400, y, width: 500, height: 40 } });
    outline.forms = [{ label: 'Create your account', selector: 'form', fallbackSelectors: [], rect: { x: 400, y: 300, width: 500, height: 300 }, submit: null, fields: [field('Username', 300, 'text'), field('Email', 360, 'email'), field('Password', 420, 'password')] }];
    assert.equal(flowExit(prompt, outline, sameSite), null, 'the "login" said on the way does not send it on to the sign-in page');
    outline.url = 'http://localhost:4000/saas/';
    outline.title = 'Reelio';
    assert.notEqual(flowExit(prompt, outline, sameSite), null, 'from another page, the Register page is still where it goes');
  });

  it('stays on this page for "the part where …": a part of it, not where its button leads', () => {
    const outline = saasOutline();
    outline.contentLinks = [{ label: 'Tell us your story', kind: 'nav-link', href: '/contact', selector: 'a[href="/contact"]', fallbackSelectors: [], rect: { x: 600, y: 900, width: 160, height: 24 } }];
    assert.equal(flowExit('Show the part where they invite me to tell them my story', outline, sameSite), null);
    assert.equal(flowExit('Tell them my story', outline, sameSite)?.link.label, 'Tell us your story');
  });

  it('goes where "open my …" and "read the …" ask, by the link that says it', () => {
    const outline = saasOutline();
    const link = (label: string, href: string) => ({ label, kind: 'nav-link' as const, href, selector: `a[href="${href}"]`, fallbackSelectors: [], rect: { x: 600, y: 900, width: 120, height: 24 } });
    outline.contentLinks = [link('Account', '/settings/account'), link('Sample Post', '/post')];
    assert.equal(flowExit('Open my account settings and change the phone number to 202 555 0199', outline, sameSite)?.link.label, 'Account');
    assert.equal(flowExit('Read the sample post down to the part about the stars', outline, sameSite)?.link.label, 'Sample Post');
  });

  it('opens the item a prompt names by its card\'s heading, and one of a kind by its address', () => {
    const outline = saasOutline();
    const apply = (job: string, y: number) => ({ label: 'Apply Now', kind: 'cta' as const, href: '/career-details.html', context: job, selector: `#job${y} a`, fallbackSelectors: [], rect: { x: 1000, y, width: 120, height: 40 } });
    outline.actions = [apply('Revenue & Pricing Analyst', 700), apply('Site Reliability Engineer', 800), apply('Ruby Developer', 900)];
    const opened = flowExit('See the openings, then open the Site Reliability Engineer posting', outline, sameSite);
    assert.equal(opened?.link.context, 'Site Reliability Engineer', 'the card that says the name, not the first "Apply Now"');
    assert.equal(flowExit("Show the Ruby Developer job's details", outline, sameSite)?.link.context, 'Ruby Developer');
    assert.equal(flowExit('Show the Ruby Developer role', outline, sameSite), null, 'a name said in passing opens nothing');
    outline.actions = [{ label: 'View case', kind: 'cta', href: '/project-details.html', context: 'Dental booking app', selector: '#p a', fallbackSelectors: [], rect: { x: 600, y: 900, width: 120, height: 40 } }];
    assert.equal(flowExit('Open one of the finished projects and show who the client was', outline, sameSite)?.link.href, '/project-details.html');
  });

  it('takes what follows the colon of "write a review … :" for the words written, and types a note into its own box under the form', () => {
    assert.equal(namedValues('Write a review of this laptop as Hannah Cole, hannah.cole@example.com: Fast, quiet and the battery lasts all day').message, 'Fast, quiet and the battery lasts all day');
    assert.equal(namedValues('Sign up for the newsletter: use sam@example.com').message, undefined, 'no review asked for, and an address is no message');
    const outline = saasOutline();
    const field = (label: string, y: number, type: string) => ({ label, type, name: null, selector: `#f${y}`, fallbackSelectors: [], rect: { x: 400, y, width: 500, height: 40 } });
    outline.forms = [
      { label: 'Billing address', selector: '.billing', fallbackSelectors: [], rect: { x: 400, y: 300, width: 500, height: 200 }, submit: null, fields: [field('First Name', 300, 'text'), field('Last Name', 360, 'text'), field('Email', 420, 'email')] },
      { label: 'Order Notes', selector: '.notes', fallbackSelectors: [], rect: { x: 400, y: 560, width: 500, height: 120 }, submit: null, fields: [field('Order Notes', 560, 'textarea')] },
    ];
    const fill = fillForm(outline, namedValues('Fill in the billing details for Jonas Weber (jonas.weber@example.com) and leave the order note "Leave it with the neighbour"'), null, { allowSubmit: false });
    assert.deepEqual(fill?.shown, ['Jonas', 'Weber', 'jonas.weber@example.com', 'Leave it with the neighbour'], 'the person named before their address, and the note last, in its own box');
  });

  it('follows a link named by a short word in capitals ("FAQ\'s") when the prompt asks to open it', () => {
    const outline = saasOutline();
    outline.navigation.push({ label: "FAQ's", kind: 'nav-link', href: '/faqs.html', selector: 'a[href="/faqs.html"]', fallbackSelectors: [], rect: { x: 1000, y: 20, width: 60, height: 30 } });
    assert.equal(flowExit('Open their FAQ and expand the question about cookies', outline, sameSite), null, 'this page has an FAQ of its own');
    outline.sections = outline.sections.filter((section) => section.kind !== 'faq');
    assert.equal(flowExit('Open their FAQ and expand the question about cookies', outline, sameSite)?.link.label, "FAQ's");
  });

  it('stays for a short question about what the beat before showed: "…, and what do they cost?"', () => {
    const outline = saasOutline();
    outline.sections = [{ id: 'trendy', kind: 'content', heading: 'Trendy products', text: 'Linen shirt. Canvas tote. Straw hat.', label: 'Trendy products', selector: '#trendy', fallbackSelectors: [], rect: { x: 0, y: 700, width: 1440, height: 600 } }];
    outline.forms = [];
    outline.navigation.push({ label: 'Pricing', kind: 'nav-link', href: '/pricing', selector: 'a[href="/pricing"]', fallbackSelectors: [], rect: { x: 1000, y: 20, width: 60, height: 30 } });
    assert.equal(flowExit('Which pieces are popular right now, and what do they cost?', outline, sameSite), null);
    assert.equal(flowExit('Which pieces are popular right now? Then show the pricing', outline, sameSite)?.link.label, 'Pricing', 'a beat of its own still goes');
  });

  it('types the user name into a box labelled "Username", though the page marks it an e-mail box', () => {
    const outline = saasOutline();
    const field = (label: string, y: number, type: string) => ({ label, type, name: null, selector: `#f${y}`, fallbackSelectors: [], rect: { x: 400, y, width: 500, height: 40 } });
    outline.forms = [{ label: 'Sign in', selector: 'form', fallbackSelectors: [], rect: { x: 400, y: 300, width: 500, height: 200 }, submit: null, fields: [field('Username', 300, 'email'), field('Password', 360, 'password')] }];
    const typed = JSON.stringify(fillForm(outline, namedValues('Show how a teammate signs in as ops.manager'), 'sign-in', { allowSubmit: false }));
    assert.ok(typed.includes('ops.manager'), typed);
  });

  it('takes a box labelled "Password" for the password though the page marks it an e-mail box', () => {
    const outline = saasOutline();
    const field = (label: string, y: number) => ({ label, type: 'email', name: null, selector: `#f${y}`, fallbackSelectors: [], rect: { x: 400, y, width: 500, height: 40 } });
    outline.forms = [{ label: 'Email, Password, Remember me', selector: 'form', fallbackSelectors: [], rect: { x: 400, y: 300, width: 500, height: 200 }, submit: null, fields: [field('Email', 300), field('Password', 360)] }];
    const fill = fillForm(outline, namedValues('Show how a returning customer signs in as dana.kowalski@example.com'), 'sign-in', { allowSubmit: false });
    assert.deepEqual(fill?.steps.flatMap((step) => (step.action === 'type' ? [step.label] : [])), ['Type "dana.kowalski@example.com" into "Email"', 'Type a password into "Password"']);
    assert.deepEqual(fill?.shown, ['dana.kowalski@example.com']);
  });

  it("takes a row of an app's list that says \"Create invoice\" for no sign-up form", () => {
    const outline = saasOutline();
    outline.forms = [{ label: 'Create invoice', selector: '.todo li', fallbackSelectors: [], rect: { x: 400, y: 900, width: 500, height: 40 }, fields: [{ label: 'Create invoice', type: 'checkbox', name: null, selector: '.todo li input', fallbackSelectors: [], rect: { x: 400, y: 900, width: 20, height: 20 } }], submit: null }];
    assert.equal(flowExit('Register a new user called kenji_w with the email kenji.w@example.com', outline, sameSite)?.purpose, 'sign-up');
  });

  it('takes a lone e-mail box for a newsletter when the prompt wants an account, and "my account settings" for no sign-up', () => {
    const outline = saasOutline();
    outline.forms = [{ label: 'Subscribe to newsletter', selector: '.news', fallbackSelectors: [], rect: { x: 400, y: 900, width: 500, height: 40 }, fields: [{ label: 'Email', type: 'email', name: 'email', selector: '.news input', fallbackSelectors: [], rect: { x: 400, y: 900, width: 300, height: 40 } }], submit: null }];
    assert.equal(flowExit('Open a customer account for Amara Okafor, username amarao, email amara.okafor@example.com', outline, sameSite)?.purpose, 'sign-up');
    assert.equal(flowExit('Sign up for the newsletter as sam.lee@example.com', outline, sameSite), null, 'the newsletter box is what this sign-up asks for');
    assert.equal(flowExit('I want their news by email: subscribe jun.park@example.com', outline, sameSite), null, 'nor does subscribing leave for the sign-in page');
    assert.notEqual(flowExit('Open my account settings', outline, sameSite)?.purpose, 'sign-up');
  });

  it('takes "how do I get an account?" for a sign-up, not the sign-in the word "account" also means (azia-admin, flows blind 2026-12-04)', () => {
    const outline = saasOutline();
    const link = (label: string, href: string) => ({ label, kind: 'nav-link' as const, href, selector: `a[href="${href}"]`, fallbackSelectors: [], rect: { x: 500, y: 60, width: 80, height: 28 } });
    outline.forms = [];
    outline.menuLinks = [link('Sign In', '/page-signin.html'), link('Sign Up', '/page-signup.html')];
    const exit = flowExit('How do I get an account? Sign up as Tomas Reyes with tomas.reyes@example.com', outline, sameSite);
    assert.equal(exit?.link.label, 'Sign Up');
    assert.equal(exit?.purpose, 'sign-up');
    assert.notEqual(flowExit('Get my account details', outline, sameSite)?.purpose, 'sign-up');
  });

  it('goes to a docs index\'s "ES 2015 Classes" for "an ES2015 class": a version run into its name, a plural (jsdoc-docs, flows blind 2026-12-04)', () => {
    const outline = saasOutline();
    outline.forms = [];
    const link = (label: string, href: string) => ({ label, kind: 'nav-link' as const, href, selector: `a[href="${href}"]`, fallbackSelectors: [], rect: { x: 40, y: 600, width: 200, height: 20 } });
    outline.contentLinks = [link('ES 2015 Modules', '/howto-es2015-modules.html'), link('ES 2015 Classes', '/howto-es2015-classes.html'), link('@class', '/tags-class.html')];
    assert.equal(flowExit('Show how to document an ES2015 class that extends another class', outline, sameSite)?.link.label, 'ES 2015 Classes');
    assert.equal(flowExit('Show how to document an ES2015 module', outline, sameSite)?.link.label, 'ES 2015 Modules');
  });

  it('goes to a docs site\'s "Getting Started" page for "the beginner\'s guide", not to a call to action\'s "Get started" (jsdoc-docs, flows blind 2026-12-04)', () => {
    const outline = saasOutline();
    outline.forms = [];
    const link = (label: string, href: string) => ({ label, kind: 'nav-link' as const, href, selector: `a[href="${href}"]`, fallbackSelectors: [], rect: { x: 40, y: 600, width: 200, height: 20 } });
    outline.contentLinks = [link('Get started', '/signup.html'), link('Using namepaths', '/about-namepaths.html'), link('Getting Started with JSDoc 3', '/about-getting-started.html')];
    assert.equal(flowExit("I've never used JSDoc. Walk me to the beginner's guide on writing doc comments", outline, sameSite)?.link.label, 'Getting Started with JSDoc 3');
    assert.equal(flowExit('Is there a tutorial for beginners?', outline, sameSite)?.link.label, 'Getting Started with JSDoc 3');
    outline.contentLinks = [link('Get started', '/signup.html')];
    assert.notEqual(flowExit("Walk me to the beginner's guide", outline, sameSite)?.link.label, 'Get started');
  });

  it("goes to a mail app's Compose to write a new email", () => {
    const outline = saasOutline();
    outline.contentLinks = [{ label: 'Compose', kind: 'nav-link', href: '/email-compose.html', selector: 'a.compose', fallbackSelectors: [], rect: { x: 600, y: 900, width: 120, height: 24 } }];
    assert.equal(flowExit('Write a new email to lena.berg@example.com with the subject Q3 budget review', outline, sameSite)?.link.label, 'Compose');
  });

  it("goes to the mail app for \"email the team … from the mailbox\", and to the settings to change a password", () => {
    const outline = saasOutline();
    const link = (label: string, href: string) => ({ label, kind: 'nav-link' as const, href, selector: `a[href="${href}"]`, fallbackSelectors: [], rect: { x: 20, y: 300, width: 200, height: 30 } });
    outline.menuLinks = [link('Email', '/email.html'), link('Settings', '/settings.html'), link('Forgot Password', '/forgot-password.html'), link('Profile', '/profile.html')];
    assert.equal(flowExit('Email the design team at design@example.com from the mailbox, with the subject "New logo drafts"', outline, sameSite)?.link.label, 'Email');
    assert.equal(flowExit('Where do I go to change my password?', outline, sameSite)?.link.label, 'Settings');
    const mailbox = { ...outline, url: 'http://localhost:4000/email.html', title: 'Email - srtdash' };
    assert.equal(flowExit('Email the design team at design@example.com from the mailbox', mailbox, sameSite), null, 'arrived: the mail app is where it is done');
    assert.equal(flowExit("I've moved: update my profile so the city says Lisbon and the country Portugal", outline, sameSite)?.link.label, 'Profile');
    assert.deepEqual(namedValues("I've moved: update my profile so the city says Lisbon and the country Portugal").fields, [{ label: 'city', value: 'Lisbon' }, { label: 'country', value: 'Portugal' }]);
  });

  it('goes to the page whose one word means the question when this page answers it only by other words, and asks the question there', () => {
    const outline = saasOutline();
    outline.sections = outline.sections.filter((section) => section.kind !== 'pricing' && section.kind !== 'faq');
    const link = (label: string, href: string) => ({ label, kind: 'nav-link' as const, href, selector: `a[href="${href}"]`, fallbackSelectors: [], rect: { x: 600, y: 20, width: 80, height: 30 } });
    outline.navigation.push(link('MEMEBERSHIP', '/pricing.html'), link('F.A.Q', '/faq.html'));
    assert.equal(flowExit('How much does it cost to join per month? Show me the packages', outline, sameSite)?.link.href, '/pricing.html', 'a misspelt label, read by its address');
    const faq = flowExit('Can I send back or swap something I bought? Find the answer in their help questions', outline, sameSite);
    assert.equal(faq?.link.label, 'F.A.Q');
    assert.equal(faq?.before, '', 'the question is asked on the FAQ page, not shown here first');
    assert.equal(flowExit('How much does it cost per month?', saasOutline(), sameSite), null, 'a page with its own pricing stays');
    const home = saasOutline();
    home.url = 'http://localhost:4000/saas/';
    home.navigation.push(link('Logo', 'http://localhost:4000/saas/index.html'));
    assert.equal(flowExit('Show the Logo', home, sameSite), null, 'the folder\'s index.html is this page');
  });

  it('reads a bare "#!" as a dead link, not as a screen of the app', () => {
    const outline = saasOutline();
    outline.contentLinks = [{ label: 'Listing', kind: 'nav-link', href: 'http://localhost:4000/saas/#!', selector: 'a.listing', fallbackSelectors: [], rect: { x: 600, y: 900, width: 120, height: 24 } }];
    assert.equal(flowExit('Show every kind of listing people can browse', outline, sameSite), null);
  });

  it('goes to the page for a part when the prompt wants it on a page of its own', () => {
    const outline = saasOutline();
    outline.navigation.push({ label: 'Customers', kind: 'nav-link', href: '/customers', selector: 'a[href="/customers"]', fallbackSelectors: [], rect: { x: 1000, y: 20, width: 90, height: 30 } });
    assert.equal(flowExit('Show what customers say on their own page', outline, sameSite)?.link.label, 'Customers');
    assert.equal(flowExit('Show what customers say', outline, sameSite), null);
  });

  it('takes a lone e-mail box for a newsletter, not for the contact form a prompt asks for', () => {
    const outline = saasOutline();
    outline.forms = [{ ...outline.forms[0]!, fields: [outline.forms[0]!.fields[1]!] }];
    outline.navigation.push({ label: 'Contact', kind: 'nav-link', href: '/contact', selector: 'a[href="/contact"]', fallbackSelectors: [], rect: { x: 1000, y: 20, width: 90, height: 30 } });
    assert.equal(flowExit('Go to the contact form and fill it in as Alex Kim', outline, sameSite)?.link.label, 'Contact');
  });

  it('goes to a page the prompt names, and never to another site', () => {
    assert.equal(flowExit('Open the integrations page', saasOutline(), sameSite)?.link.label, 'Browse integrations');
    const elsewhere = (url: string) => new URL(url, 'http://localhost:4000/').host === 'elsewhere.example';
    assert.equal(flowExit('Show how a customer signs in', saasOutline(), elsewhere), null);
  });
});

describe('a form filled on camera', () => {
  it('types the named values into the fields that ask for them and ends on the submit button, not pressed', () => {
    const fill = fillForm(saasOutline(), namedValues('Sign up as Alex Kim, alex@example.com'), 'sign-up', { allowSubmit: false });
    assert.ok(fill);
    const typed = fill.steps.flatMap((step) => (step.action === 'type' ? [[step.target.label, step.text]] : []));
    assert.deepEqual(typed, [['Full name', 'Alex Kim'], ['Work email', 'alex@example.com']]);
    assert.deepEqual(fill.shown, ['Alex Kim', 'alex@example.com']);
    const last = fill.steps.filter((step) => step.action !== 'pause').at(-1);
    assert.equal(last?.action, 'hover', 'the submit control is pointed at, not pressed');
  });

  it('searches a table with the table\'s own search box, not the site search in the header bar', () => {
    const outline = saasOutline();
    const box = (label: string, selector: string, y: number) => ({ label, type: 'search', name: null, selector, fallbackSelectors: [], rect: { x: 760, y, width: 200, height: 30 } });
    outline.forms = [
      { label: 'Search', selector: 'header form', fallbackSelectors: [], rect: { x: 760, y: 10, width: 240, height: 40 }, submit: null, fields: [box('Search', 'header input', 14)] },
      { label: 'Show entries, Search:', selector: '#staff_filter', fallbackSelectors: [], rect: { x: 260, y: 420, width: 900, height: 60 }, submit: null, fields: [box('Search:', '#staff_filter input', 430)] },
    ];
    const typedInto = (prompt: string) => fillForm(outline, namedValues(prompt), 'page', { allowSubmit: false })?.steps.flatMap((step) => (step.action === 'type' ? [step.target.selector] : []));
    assert.deepEqual(typedInto('Which of our staff work in Edinburgh? Search the data table for it'), ['#staff_filter input']);
    assert.deepEqual(typedInto('Search for "Edinburgh"'), ['header input'], 'a search that names no place keeps the first box');
  });

  it('fills the form whose button does what the prompt asks, over the first form with the same boxes', () => {
    const outline = saasOutline();
    const box = (label: string, selector: string, y: number) => ({ label, type: 'text', name: null, selector, fallbackSelectors: [], rect: { x: 300, y, width: 400, height: 36 } });
    const button = (label: string, selector: string, y: number) => ({ label, kind: 'button' as const, href: null, selector, fallbackSelectors: [], rect: { x: 300, y, width: 120, height: 40 } });
    outline.forms = [
      { label: 'Name, Email, Address', selector: '#vertical', fallbackSelectors: [], rect: { x: 300, y: 200, width: 400, height: 300 }, submit: button('Register', '#vertical button', 460), fields: [box('Name', '#vertical .name', 220), box('Email', '#vertical .email', 280)] },
      { label: 'Name, Email', selector: '#subscribe', fallbackSelectors: [], rect: { x: 300, y: 900, width: 900, height: 80 }, submit: button('Subscribe', '#subscribe button', 930), fields: [box('Name', '#subscribe .name', 920), box('Email', '#subscribe .email', 920)] },
    ];
    const prompt = 'Go to the sample forms and subscribe Tomas Rivera, tomas.rivera@example.com, to the newsletter';
    const fill = fillForm(outline, namedValues(prompt), 'page', { allowSubmit: false, prompt });
    assert.equal(fill?.form.selector, '#subscribe');
    assert.deepEqual(fill?.shown, ['Tomas Rivera', 'tomas.rivera@example.com']);
  });

  it('presses it only when the project allows submitting', () => {
    const fill = fillForm(saasOutline(), namedValues('Sign up as alex@example.com'), 'sign-up', { allowSubmit: true });
    assert.equal(fill?.steps.at(-1)?.action, 'navigate');
  });

  it('opens a form hidden behind its button first, and types the listed values into its fields in order', () => {
    const outline = saasOutline();
    const at = { x: 1200, y: 1650, width: 120, height: 40 };
    const field = (label: string, id: string) => ({ label, type: 'text', name: null, selector: `#${id}`, fallbackSelectors: [], rect: at });
    const opener = { label: 'Add Row', selector: '#open-add-row', fallbackSelectors: [], rect: at };
    const submit = { label: 'Add', kind: 'button' as const, href: null, selector: '#addRowButton', fallbackSelectors: [], rect: at };
    outline.forms = [{ label: 'Name, Position, Office', selector: '#addRowModal', fallbackSelectors: [], rect: at, submit, opener, fields: [field('Name', 'addName'), field('Position', 'addPosition'), field('Office', 'addOffice')] }];
    const fill = fillForm(outline, namedValues('Add a new person to the staff table: Maya Lindqvist, Data Analyst, Stockholm office'), null, { allowSubmit: false });
    assert.ok(fill);
    const acts = fill.steps.filter((step) => step.action !== 'pause' && step.action !== 'focus');
    assert.equal(acts[0]?.action === 'click' && acts[0].target.selector, '#open-add-row', 'the button that shows the form is pressed first');
    assert.deepEqual(acts.flatMap((step) => (step.action === 'type' ? [[step.target.label, step.text]] : [])), [['Name', 'Maya Lindqvist'], ['Position', 'Data Analyst'], ['Office', 'Stockholm office']]);
    assert.equal(acts.at(-1)?.action, 'hover', '"Add" is pointed at, not pressed');
  });

  it("types the address into a mail's To box and the subject into its Subject box", () => {
    const outline = saasOutline();
    const field = (label: string, y: number, type = 'text') => ({ label, type, name: null, selector: `#f${y}`, fallbackSelectors: [], rect: { x: 400, y, width: 500, height: 40 } });
    outline.forms = [{ label: 'Compose', selector: '.compose', fallbackSelectors: [], rect: { x: 400, y: 300, width: 500, height: 400 }, fields: [field('To:', 300), field('Subject:', 360), field('Enter text ...', 420, 'textarea')], submit: null }];
    const fill = fillForm(outline, namedValues('Write a new email to lena.berg@example.com with the subject Q3 budget review'), 'page', { allowSubmit: false });
    const typed = fill?.steps.flatMap((step) => (step.action === 'type' ? [[step.target.label, step.text]] : []));
    assert.deepEqual(typed, [['To:', 'lena.berg@example.com'], ['Subject:', 'Q3 budget review']]);
  });

  it('types a value into the field the prompt names by its label, and does not go down to a button far below it', () => {
    const outline = saasOutline();
    const field = (label: string, y: number) => ({ label, type: 'text', name: null, selector: `#f${y}`, fallbackSelectors: [], rect: { x: 400, y, width: 500, height: 40 } });
    const submit = { label: 'Save changes', kind: 'button' as const, href: null, selector: '#save', fallbackSelectors: [], rect: { x: 400, y: 1400, width: 160, height: 40 } };
    outline.forms = [{ label: 'Profile', selector: '.profile', fallbackSelectors: [], rect: { x: 400, y: 300, width: 500, height: 1200 }, method: 'post', submit, fields: [field('First name', 300), field('Job title', 380), field('Bio', 460)] }];
    const fill = fillForm(outline, namedValues('Set the job title to Head of Customer Support'), 'page', { allowSubmit: false });
    assert.deepEqual(fill?.steps.flatMap((step) => (step.action === 'type' ? [[step.target.label, step.text]] : [])), [['Job title', 'Head of Customer Support']]);
    assert.ok(!fill?.steps.some((step) => step.action === 'hover'), 'the button a screen below stays unvisited: the typed value stays in view');
  });

  it("presses an app's GET form when the prompt makes something with it, and only a GET form", () => {
    const outline = saasOutline();
    const field = (label: string, y: number) => ({ label, type: 'text', name: null, selector: `#f${y}`, fallbackSelectors: [], rect: { x: 400, y, width: 500, height: 40 } });
    const submit = { label: 'Create new note', kind: 'button' as const, href: null, selector: '#create', fallbackSelectors: [], rect: { x: 400, y: 420, width: 160, height: 40 } };
    const form = { label: 'Enter a new note', selector: 'form', fallbackSelectors: [], rect: { x: 400, y: 300, width: 500, height: 200 }, submit, fields: [field('Note title', 300), field('Note text', 360)] };
    outline.forms = [{ ...form, method: 'get' }];
    const values = namedValues('Save a note titled "Dentist" that says "Tuesday 4:15, bring the insurance card"');
    const made = fillForm(outline, values, null, { allowSubmit: false, creates: true });
    assert.deepEqual(made?.steps.flatMap((step) => (step.action === 'type' ? [[step.target.label, step.text]] : step.action === 'click' ? [['press', step.target.label]] : [])), [
      ['Note title', 'Dentist'], ['Note text', 'Tuesday 4:15, bring the insurance card'], ['press', 'Create new note'],
    ]);
    outline.forms = [{ ...form, method: 'post' }];
    assert.ok(!fillForm(outline, values, null, { allowSubmit: false, creates: true })?.steps.some((step) => step.action === 'click'), 'a POST form is only pointed at');
  });

  it('leaves alone a field the prompt does not name', () => {
    const fill = fillForm(saasOutline(), namedValues('Sign up as alex@example.com'), 'sign-up', { allowSubmit: false });
    const typed = fill?.steps.flatMap((step) => (step.action === 'type' ? [step.target.label] : []));
    assert.deepEqual(typed, ['Work email']);
  });
});

describe("an app's own actions", () => {
  const todoApp = () => {
    const outline = saasOutline();
    const box = { label: 'What needs to be done?', type: 'text', name: null, selector: '.new-todo', fallbackSelectors: [], rect: { x: 400, y: 200, width: 560, height: 60 } };
    outline.forms = [{ label: 'What needs to be done?', selector: '.app', fallbackSelectors: [], rect: { x: 400, y: 200, width: 560, height: 60 }, fields: [box], submit: null }];
    return outline;
  };

  const todoBox = (label: string) => {
    const outline = saasOutline();
    const box = { label, type: 'text', name: null, selector: '#name', fallbackSelectors: [], rect: { x: 400, y: 200, width: 560, height: 60 } };
    outline.forms = [{ label, selector: 'form', fallbackSelectors: [], rect: box.rect, fields: [box], submit: null }];
    return outline;
  };

  it('adds the items, ticks the one named, clears the finished ones, in the order asked', () => {
    const app = appActions("Add two tasks: 'Book the venue' and 'Send invites', mark the second one as done, then clear the completed ones", todoApp());
    assert.ok(app);
    assert.deepEqual(app.shown, ['Book the venue', 'Send invites']);
    assert.deepEqual(
      app.steps.filter((step) => step.action !== 'pause').map((step) => (step.action === 'type' ? `type ${JSON.stringify(step.text)}` : step.action === 'click' ? `click ${step.target.selector}` : step.action)),
      ['type "Book the venue\\n"', 'type "Send invites\\n"', 'click check:Send invites', 'click text:clear'],
    );
  });

  it('presses the button of a box in no <form> (a dashboard to-do widget): Enter adds nothing there', () => {
    // Flows blind batch 2026-12-04, corona-admin 3: the item was typed and entered, and never added.
    const outline = saasOutline();
    const box = { label: 'enter task..', type: 'text', name: null, selector: '.todo-list-input', fallbackSelectors: [], rect: { x: 400, y: 200, width: 350, height: 40 } };
    const submit = { label: 'Add', kind: 'button' as const, href: null, selector: '.todo-list-add-btn', fallbackSelectors: [], rect: { x: 760, y: 200, width: 60, height: 40 } };
    outline.forms = [{ label: 'To do list', selector: '.add-items', fallbackSelectors: [], rect: box.rect, fields: [box], submit }];
    const app = appActions("Put 'Renew the SSL certificate' on the dashboard's to-do list", outline);
    assert.deepEqual(
      app?.steps.filter((step) => step.action === 'type' || step.action === 'click').map((step) => (step.action === 'type' ? `type ${step.text}` : `click ${step.target.selector}`)),
      ['type Renew the SSL certificate', 'click .todo-list-add-btn'],
    );
  });

  it('puts what a prompt names on a list, items said after the verb in an app that adds them, and "both" of the sentence before', () => {
    const shopping = () => {
      const outline = saasOutline();
      const box = { label: 'Enter item', type: 'text', name: null, selector: '.form-item', fallbackSelectors: [], rect: { x: 400, y: 200, width: 350, height: 40 } };
      const submit = { label: 'Add item', kind: 'button' as const, href: null, selector: '#add-btn', fallbackSelectors: [], rect: { x: 760, y: 200, width: 100, height: 40 } };
      outline.forms = [{ label: 'Enter item', selector: 'form', fallbackSelectors: [], rect: box.rect, fields: [box], submit, method: 'get' }];
      return outline;
    };
    const typedItems = (prompt: string, outline = shopping()) => appActions(prompt, outline)?.steps.flatMap((step) => (step.action === 'type' ? [step.text] : [])) ?? null;
    assert.deepEqual(typedItems('Put oat milk, sourdough bread and free-range eggs on my shopping list'), ['oat milk\n', 'sourdough bread\n', 'free-range eggs\n']);
    assert.deepEqual(typedItems('Add bananas, coffee beans and dish soap, then filter the list down to the coffee'), ['bananas\n', 'coffee beans\n', 'dish soap\n']);
    assert.deepEqual(typedItems("I'm out of AA batteries and light bulbs. Add both to the list"), ['AA batteries\n', 'light bulbs\n']);
    assert.deepEqual(typedItems('Write down "pick up dry cleaning" and "book a dentist appointment"'), ['pick up dry cleaning\n', 'book a dentist appointment\n']);
    assert.equal(typedItems('Show how to add a new integration'), null, 'a thing to show, not an item');
    assert.equal(typedItems('Add the blue sneakers to the cart'), null, "a shop's cart is filled by its button");
    assert.equal(typedItems('Add bananas and coffee beans', todoBox('Your name')), null, 'a box that does not invite adding takes no bare items');
  });

  it('ticks every item off when the prompt says everything', () => {
    const app = appActions('Add "water the plants" and "call grandma", then mark everything as done', todoApp());
    assert.deepEqual(app?.steps.flatMap((step) => (step.action === 'click' ? [step.target.selector] : [])), ['check:water the plants', 'check:call grandma']);
  });

  it('edits an item by its words, double-clicked and typed over, and shows the new words', () => {
    const app = appActions('Add a task "send the invoice", then edit it to read "send the March invoice"', todoApp());
    assert.ok(app);
    const acts = app.steps.filter((step) => step.action === 'type').map((step) => (step.action === 'type' ? [step.target.selector, step.text] : []));
    assert.deepEqual(acts, [['.new-todo', 'send the invoice\n'], ['edit:send the invoice', 'send the March invoice\n']]);
    assert.deepEqual(app.shown, ['send the March invoice']);
  });

  it("sets each item's own time and date in the app's form, then presses its button", () => {
    const outline = saasOutline();
    const field = (label: string, y: number, type: string) => ({ label, type, name: null, selector: `#${label.toLowerCase().replace(/\W+/g, '')}`, fallbackSelectors: [], rect: { x: 400, y, width: 500, height: 40 } });
    const submit = { label: 'Add Task', kind: 'button' as const, href: null, selector: '#submit', fallbackSelectors: [], rect: { x: 400, y: 500, width: 200, height: 40 } };
    outline.forms = [{
      label: 'Add new to-do item.', selector: '#task-form', fallbackSelectors: [], rect: { x: 400, y: 200, width: 560, height: 360 }, method: 'get', submit,
      fields: [field('Task title:', 200, 'text'), field('Hours (hh):', 260, 'number'), field('Mins (mm):', 260, 'number'), field('Day:', 320, 'select'), field('Month:', 320, 'select'), field('Year:', 320, 'select')],
    }];
    const app = appActions('Add two tasks: Book flights, due 18:00 on 3 March, and Pack bags, due 20:00 on 4 March 2027', outline);
    assert.ok(app);
    assert.deepEqual(app.shown, ['Book flights', 'Pack bags']);
    const acts = app.steps.flatMap((step) => (step.action === 'type' ? [`${step.target.label} ${step.text}`] : step.action === 'click' ? [`press ${step.target.label}`] : []));
    assert.deepEqual(acts, [
      'Task title: Book flights', 'Hours (hh): 18', 'Mins (mm): 00', 'Day: 03', 'Month: March', 'press Add Task',
      'Task title: Pack bags', 'Hours (hh): 20', 'Mins (mm): 00', 'Day: 04', 'Month: March', 'Year: 2027', 'press Add Task',
    ]);
  });

  it("adds a notes app's notes, each with its title and its text, pressing its button after each", () => {
    const outline = saasOutline();
    const field = (label: string, y: number) => ({ label, type: 'text', name: null, selector: `#f${y}`, fallbackSelectors: [], rect: { x: 400, y, width: 500, height: 40 } });
    const submit = { label: 'Create new note', kind: 'button' as const, href: null, selector: '#create', fallbackSelectors: [], rect: { x: 400, y: 420, width: 160, height: 40 } };
    outline.forms = [{ label: 'Enter a new note', selector: 'form', fallbackSelectors: [], rect: { x: 400, y: 300, width: 500, height: 200 }, method: 'get', submit, fields: [field('Note title', 300), field('Note text', 360)] }];
    const notes = (prompt: string) => appActions(prompt, outline)?.steps.flatMap((step) => (step.action === 'type' ? [step.text] : step.action === 'click' ? ['press'] : []));
    assert.deepEqual(notes('Jot down two notes: Passport, forms are in the blue folder; Gym, cancel the membership before June'), ['Passport', 'forms are in the blue folder', 'press', 'Gym', 'cancel the membership before June', 'press']);
    assert.deepEqual(notes('Add a note Plumber with the text leak under the kitchen sink, then a note Bins saying green bin goes out Thursday'), ['Plumber', 'leak under the kitchen sink', 'press', 'Bins', 'green bin goes out Thursday', 'press']);
    const deleted = appActions('Add a note Plumber with the text leak under the kitchen sink, then a note Bins saying green bin goes out Thursday, and delete the plumber one', outline);
    assert.equal(deleted?.steps.filter((step) => step.action === 'click').at(-1)?.target.selector, 'in:Plumber|text:delete', "the Plumber note's own Delete");
    assert.deepEqual(deleted?.shown, ['Bins', 'green bin goes out Thursday']);
    assert.deepEqual(notes('Save two notes: Dentist with "Tuesday 9:30" and Gym with "leg day"'), ['Dentist', 'Tuesday 9:30', 'press', 'Gym', 'leg day', 'press']);
  });

  it('reads nothing as an app action in a prompt that adds nothing', () => {
    assert.equal(appActions('Check the pricing, then end on the FAQ', todoApp()), null);
  });
});

describe("a board's cards and columns", () => {
  const typed = (steps: Array<{ action: string; text?: string; target?: { selector: string } }>) =>
    steps.filter((step) => step.action !== 'pause').map((step) => `${step.action}${step.text ? ` ${JSON.stringify(step.text)}` : ''} @${step.target?.selector ?? ''}`);
  const cardsApp = (): PageOutline => {
    const outline = saasOutline();
    const box = (label: string, id: string, y: number) => ({ label, type: 'text', name: null, selector: `#${id}`, fallbackSelectors: [], rect: { x: 400, y, width: 300, height: 36 } });
    outline.forms = [
      { label: 'Add Board...', selector: '.boards', fallbackSelectors: [], rect: { x: 20, y: 80, width: 300, height: 36 }, fields: [box('Add Board...', 'add-board-text', 80)], submit: null },
      { label: 'Add Card...', selector: '.cards', fallbackSelectors: [], rect: { x: 400, y: 80, width: 300, height: 36 }, fields: [box('Add Card...', 'add-card-text', 80)], submit: null },
    ];
    return outline;
  };

  it('makes a card with the box that makes cards, then types its items into the card\'s own box, found by its name', () => {
    const made = appActions('Make a Groceries card with oat milk, rye bread and lemons on it', cardsApp());
    assert.deepEqual(typed(made!.steps), ['type "Groceries\\n" @#add-card-text', 'type "oat milk\\n" @in:Groceries|field', 'type "rye bread\\n" @in:Groceries|field', 'type "lemons\\n" @in:Groceries|field']);
    assert.deepEqual(made!.shown, ['Groceries', 'oat milk', 'rye bread', 'lemons']);
    const two = appActions('Add two cards, This week and Next week, then put "call the landlord" under This week and "book flights" under Next week', cardsApp());
    assert.deepEqual(typed(two!.steps), ['type "This week\\n" @#add-card-text', 'type "Next week\\n" @#add-card-text', 'type "call the landlord\\n" @in:This week|field', 'type "book flights\\n" @in:Next week|field']);
    const ticked = appActions('Add a Chores card with vacuum the stairs and take out recycling, then tick off the recycling', cardsApp());
    assert.equal(typed(ticked!.steps).at(-1), 'click @check:take out recycling');
  });

  it("adds to a column by its own \"+ Add\" button, the box it opens and the form's button; removes a column by the button that names it", () => {
    const outline = saasOutline();
    outline.forms = [];
    const button = (label: string, selector: string, x: number) => ({ label, kind: 'button' as const, href: null, selector, fallbackSelectors: [], rect: { x, y: 600, width: 200, height: 36 } });
    outline.actions = [button('+ Add New Card', '#todo .add', 20), button('+ Add New Card', '#working .add', 480), button('+ Add New Card', '#done .add', 940), button('Remove "Done" Board', '#removeBoard', 20)];
    const put = appActions('Put two new cards in To Do: "Book the venue" and "Send invitations"', outline);
    assert.deepEqual(typed(put!.steps), [
      'click @in:To Do|text:+ Add New Card', 'type "Book the venue" @in:To Do|field', 'click @in:To Do|submit',
      'click @in:To Do|text:+ Add New Card', 'type "Send invitations" @in:To Do|field', 'click @in:To Do|submit',
    ]);
    const moved = appActions('We don\'t need the Done column any more: remove it, then add "Write release notes" to To Do', outline);
    assert.deepEqual(typed(moved!.steps).slice(0, 2), ['click @#removeBoard', 'click @in:To Do|text:+ Add New Card']);
    assert.equal(appActions('Add three tasks: buy milk, walk the dog and call mum', outline), null, 'plain items are no board\'s');
  });
});


describe('a beat placed in a part of the site ("in the docs")', () => {
  // coderdocs: a docs home whose cards (FAQs, Installation, …) each lead into its one docs page. "Take me to the
  // frequently asked questions in the docs" showed the home page's FAQs card and never opened the docs.
  const docsHome = (): PageOutline => ({
    ...saasOutline(),
    url: 'http://localhost:4000/coder/index.html',
    navigation: [],
    contentLinks: [
      { label: 'Introduction', kind: 'nav-link', href: 'http://localhost:4000/coder/docs-page.html#section-1', rect: { x: 80, y: 370, width: 350, height: 230 }, selector: '.card a', fallbackSelectors: [] },
      { label: 'FAQs', kind: 'nav-link', href: 'http://localhost:4000/coder/docs-page.html#section-9', rect: { x: 480, y: 970, width: 350, height: 230 }, selector: '.card a', fallbackSelectors: [] },
    ],
  });

  it('opens the page whose address says that place, though this page has a part on it', () => {
    for (const prompt of ['Take me to the frequently asked questions in the docs', 'How do I embed a code snippet in my documentation?']) {
      assert.match(flowExit(prompt, docsHome(), sameSite)?.link.href ?? '', /docs-page\.html/, prompt);
    }
  });

  it('stays where the page is that place already, or where no place is said', () => {
    assert.equal(flowExit('Take me to the frequently asked questions in the docs', { ...docsHome(), url: 'http://localhost:4000/coder/docs-page.html' }, sameSite), null);
    assert.equal(flowExit('Take me to the frequently asked questions', docsHome(), sameSite), null);
  });
});
