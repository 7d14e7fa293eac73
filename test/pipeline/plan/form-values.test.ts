import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { appForms } from '../../../src/pipeline/plan/app-forms.js';
import { fillForm } from '../../../src/pipeline/plan/form-fill.js';
import { namedValues } from '../../../src/pipeline/plan/named-values.js';
import type { OutlineField, OutlineForm, PageOutline, PlanStep } from '../../../src/pipeline/types.js';
import { saasOutline } from './outlines.js';

/**
 * Issue 56: the values a prompt names with the field they go into ("first name Amara", "order 58213", "the first
 * name box with Jordan"), amounts and the entries they are for ("log groceries for 150"), and an app's forms sent
 * one after another.
 */
const field = (label: string, y: number, type = 'text', name: string | null = null): OutlineField => ({ label, type, name, selector: `#f${y}`, fallbackSelectors: [], rect: { x: 400, y, width: 400, height: 36 } });
const button = (label: string, y: number) => ({ label, kind: 'button' as const, href: null, selector: `#b${y}`, fallbackSelectors: [], rect: { x: 400, y, width: 140, height: 40 } });
const form = (label: string, y: number, fields: OutlineField[], submit: string, extra: Partial<OutlineForm> = {}): OutlineForm => ({
  label, selector: `#form${y}`, fallbackSelectors: [], rect: { x: 380, y, width: 460, height: 60 + fields.length * 60 }, fields, submit: button(submit, y + 20 + fields.length * 60), method: 'get', ...extra,
});
const acts = (steps: PlanStep[] | undefined) =>
  (steps ?? []).flatMap((step) => (step.action === 'type' ? [[step.target.label, step.text]] : step.action === 'click' ? [['press', step.target.label]] : step.action === 'hover' ? [['point', step.target.label]] : []));

/** A budget app as the analyser reads it: two forms sent by its script, their boxes known by the headings above them. */
function budgetApp(): PageOutline {
  const outline = saasOutline();
  outline.forms = [
    form('please enter your budget', 100, [field('Please Enter Your Budget', 140, 'number')], 'Calculate'),
    form('please enter your expense', 300, [field('Please Enter Your Expense', 330), field('Please Enter Expense Amount', 420, 'number')], 'Add Expense'),
  ];
  outline.sections = [{ ...outline.sections[0]!, id: 'app', rect: { x: 0, y: 0, width: 1280, height: 600 } }];
  return outline;
}

describe('the amounts and entries a prompt names', () => {
  it('reads an amount set for a field and the entries logged with their amounts, in the order said', () => {
    const first = namedValues('Set my budget to 3000 and then log groceries for 150');
    assert.deepEqual(first.fields, [{ label: 'budget', value: '3000' }]);
    assert.deepEqual(first.entries, [{ text: 'groceries', amount: '150' }]);
    assert.deepEqual(namedValues('Add a 45 dollar phone bill to my expenses').entries, [{ text: 'phone bill', amount: '45' }]);
    const third = namedValues('My budget this month is 1200. How much is left after paying 300 of rent?');
    assert.deepEqual(third.fields, [{ label: 'budget', value: '1200' }]);
    assert.deepEqual(third.entries, [{ text: 'rent', amount: '300' }]);
    assert.deepEqual(namedValues('I spent 20 on lunch and paid $50 for gas').entries, [{ text: 'lunch', amount: '20' }, { text: 'gas', amount: '50' }]);
  });

  it('reads no amount in a count or a number said in passing', () => {
    for (const prompt of ['Show the pricing for 2 users', 'Sign up for the 30 day trial', 'Show how my team of 5 can save 20 hours a week', 'Take my team to 5 seats']) {
      const values = namedValues(prompt);
      assert.deepEqual([values.fields, values.entries], [[], []], prompt);
    }
  });

  it('reads a field said by its label then its value, a reference by its code, and a box named with what goes in it', () => {
    assert.deepEqual(namedValues('Open the general form and start a new record for Amara Okafor: first name Amara, last name Okafor').fields, [
      { label: 'first name', value: 'Amara' }, { label: 'last name', value: 'Okafor' },
    ]);
    assert.equal(namedValues('Start a new record for Amara Okafor').name, 'Amara Okafor');
    assert.deepEqual(namedValues('Where is my parcel? Look up order 58213 for lee.wong@example.com').fields, [{ label: 'order', value: '58213' }]);
    assert.deepEqual(namedValues('Find booking ABC123, then ticket #4411 and order number 77812').fields, [
      { label: 'booking', value: 'ABC123' }, { label: 'ticket', value: '4411' }, { label: 'order', value: '77812' },
    ]);
    assert.deepEqual(namedValues('How do I build a text field with Materialize? Find the inputs docs and try the first name box with Jordan').fields, [{ label: 'first name', value: 'Jordan' }], 'a kind of box built with a framework is no value');
    assert.deepEqual(namedValues('Put Jordan in the first name field').fields, [{ label: 'first name', value: 'Jordan' }]);
    assert.deepEqual(namedValues('Type "Lisbon" into the city field').fields, [{ label: 'city', value: 'Lisbon' }]);
  });

  it('reads a field changed where it is, "on my profile" or "in settings", by its own label (flows blind batch 2026-12-05)', () => {
    assert.deepEqual(namedValues('I moved — change the city on my profile to Lisbon').fields, [{ label: 'city', value: 'Lisbon' }]);
    assert.deepEqual(namedValues('Set the contact name in settings to Marisol Vega').fields, [{ label: 'contact name', value: 'Marisol Vega' }]);
    assert.deepEqual(namedValues('Update the phone number on the account page to 555 0100').fields, [{ label: 'phone number', value: '555 0100' }]);
    assert.deepEqual(namedValues('Our contact person has changed: put Marisol Vega as the contact name in the business settings').fields, [{ label: 'contact name', value: 'Marisol Vega' }]);
    assert.deepEqual(namedValues('Sign me up as Dana, then use the yearly plan as the default').fields, [], 'no field words: a plan is no field');
  });
});

describe("an app's own forms", () => {
  it('fills each form in the order said and presses its button, then shows the part of the page that holds them', () => {
    const prompt = 'Set my budget to 3000 and then log groceries for 150';
    const app = appForms(prompt, budgetApp(), namedValues(prompt));
    assert.deepEqual(acts(app?.steps), [
      ['Please Enter Your Budget', '3000'], ['press', 'Calculate'],
      ['Please Enter Your Expense', 'groceries'], ['Please Enter Expense Amount', '150'], ['press', 'Add Expense'],
    ]);
    assert.deepEqual(app?.shown, ['3000', 'groceries', '150']);
    const end = app!.steps.slice(-2);
    assert.equal(end[0]?.action === 'focus' && end[0].sectionId, 'app', 'the budget and the balance beside the forms are read at the end');
    assert.ok(end[1]?.action === 'pause' && (end[1].holdMs ?? 0) >= 3_000);
  });

  it('logs an entry said before the amount set, in that order', () => {
    const prompt = 'Add a 45 dollar phone bill, then set my budget to 900';
    assert.deepEqual(acts(appForms(prompt, budgetApp(), namedValues(prompt))?.steps).filter(([what]) => what === 'press'), [['press', 'Add Expense'], ['press', 'Calculate']]);
  });

  it("never presses a customer's real form: one that sends to an address, by POST, or with named fields", () => {
    const prompt = 'Set my budget to 3000 and then log groceries for 150';
    for (const change of [{ action: 'https://example.com/expenses' }, { method: 'post' }]) {
      const outline = budgetApp();
      outline.forms = outline.forms.map((candidate) => ({ ...candidate, ...change }));
      assert.equal(appForms(prompt, outline, namedValues(prompt)), null, JSON.stringify(change));
    }
    const named = budgetApp();
    named.forms = named.forms.map((candidate) => ({ ...candidate, fields: candidate.fields.map((box, i) => ({ ...box, name: `f${i}` })) }));
    assert.equal(appForms(prompt, named, namedValues(prompt)), null);
  });
});

describe('a form filled by label–value pairs', () => {
  it('types the first and the last name into their boxes, and leaves the middle name empty', () => {
    const outline = saasOutline();
    outline.forms = [form('Form Design', 200, [field('First Name *', 220), field('Last Name *', 280, 'text', 'last-name'), field('Middle Name / Initial', 340, 'text', 'middle-name')], 'Submit')];
    const prompt = 'Open the general form and start a new record for Amara Okafor: first name Amara, last name Okafor';
    const fill = fillForm(outline, namedValues(prompt), 'page', { allowSubmit: false, prompt });
    assert.deepEqual(acts(fill?.steps), [['First Name *', 'Amara'], ['Last Name *', 'Okafor'], ['point', 'Submit']]);
  });

  it('types an order number into the order box of the form that has one', () => {
    const outline = saasOutline();
    outline.forms = [
      form('Newsletter', 100, [field('Your email', 120, 'email', 'email')], 'Subscribe'),
      form('Order ID, Billing Email Address', 400, [field('Order ID', 420, 'text', 'order'), field('Billing Email Address', 480, 'email', 'email')], 'Track Order', { method: 'post' }),
    ];
    const prompt = 'Where is my parcel? Look up order 58213 for lee.wong@example.com';
    const fill = fillForm(outline, namedValues(prompt), 'page', { allowSubmit: false, prompt });
    assert.deepEqual(acts(fill?.steps), [['Order ID', '58213'], ['Billing Email Address', 'lee.wong@example.com'], ['point', 'Track Order']]);
  });

  it('types the value into the box named, and no password into a sample form beside it', () => {
    const outline = saasOutline();
    outline.forms = [{ ...form('First Name, Last Name, Password', 500, [field('First Name', 520), field('Last Name', 520), field('Password', 600, 'password')], 'x'), submit: null }];
    const prompt = 'Find the inputs docs and try the first name box with Jordan';
    assert.deepEqual(acts(fillForm(outline, namedValues(prompt), 'page', { allowSubmit: false, prompt })?.steps), [['First Name', 'Jordan']]);
  });

  it("types the name and the e-mail into a form that names its boxes in Spanish (flows blind batch 2026-12-05)", () => {
    const outline = saasOutline();
    outline.forms = [form('Formulario Contacto', 300, [field('Nombre Completo', 320), field('Correo', 380, 'email'), field('Comentario', 440, 'textarea')], 'Enviar')];
    const prompt = 'Write to the store: my name is Lucia Fernandez, my email is lucia.f@example.cl';
    const fill = fillForm(outline, namedValues(prompt), 'page', { allowSubmit: false, prompt });
    assert.deepEqual(acts(fill?.steps).slice(0, 2), [['Nombre Completo', 'Lucia Fernandez'], ['Correo', 'lucia.f@example.cl']]);
  });
});

describe("a form in the page's own <dialog>", () => {
  // Flows blind batch 2026-12-04, openhabits: "New Habit" is a closed <dialog> opened by "+ Habit" (method "dialog").
  const habitApp = (): PageOutline => {
    const outline = saasOutline();
    const opener = { label: '+ Habit', selector: '#btn-add-habit', fallbackSelectors: [], rect: { x: 40, y: 200, width: 120, height: 36 } };
    outline.forms = [form('Name, Description, Sun, Mon', 200, [field('Name', 200, 'text', 'name'), field('Description', 200, 'textarea', 'description'), field('Sun', 200, 'checkbox', 'days')], 'Save', { method: 'dialog', opener })];
    return outline;
  };

  it('opens it, types the name and the description the prompt gives, and presses its button when the prompt makes what it opens', () => {
    const prompt = 'Start tracking a new habit called Stretching, described as ten minutes after waking up';
    const fill = fillForm(habitApp(), namedValues(prompt), null, { allowSubmit: false, prompt });
    assert.deepEqual(acts(fill?.steps), [['press', '+ Habit'], ['Name', 'Stretching'], ['Description', 'ten minutes after waking up'], ['press', 'Save']]);
  });

  it('names what is made by the capitalised words before it, and ticks only the days the prompt says', () => {
    const outline = habitApp();
    const days = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'].map((day, index) => ({ ...field(day, 200 + index, 'checkbox', 'days'), checked: true }));
    outline.forms[0]!.fields = [outline.forms[0]!.fields[0]!, outline.forms[0]!.fields[1]!, ...days];
    const prompt = 'Add an Evening walk habit that I only do on Saturdays and Sundays';
    const fill = fillForm(outline, namedValues(prompt), null, { allowSubmit: false, prompt });
    assert.deepEqual(acts(fill?.steps), [['press', '+ Habit'], ['Name', 'Evening walk'], ['press', 'Mon'], ['press', 'Tue'], ['press', 'Wed'], ['press', 'Thu'], ['press', 'Fri'], ['press', 'Save']]);
    assert.deepEqual(fill?.steps.filter((step) => step.action === 'click').map((step) => step.label).slice(1, 3), ['Untick "Mon"', 'Untick "Tue"']);
    const weekdays = fillForm(outline, namedValues('Add a Standup habit for weekdays'), null, { allowSubmit: false, prompt: 'Add a Standup habit for weekdays' });
    assert.deepEqual(acts(weekdays?.steps).filter(([what]) => what === 'press').map(([, label]) => label), ['+ Habit', 'Sun', 'Sat', 'Save']);
  });

  it('reads no made thing from a section to show, nor from a sentence without an article', () => {
    assert.equal(namedValues('Add a Pricing section').name, undefined);
    assert.equal(namedValues('Show me the Evening walk habit').name, undefined);
    assert.equal(namedValues('Make a Groceries card with oat milk, rye bread and lemons on it').name, undefined, 'a board card is named by container-actions.ts');
  });

  it('only points at its button when the prompt makes nothing', () => {
    const prompt = 'Show the form with the name Stretching';
    const fill = fillForm(habitApp(), namedValues(prompt), null, { allowSubmit: false, prompt });
    assert.equal(acts(fill?.steps).at(-1)?.[0], 'point');
  });
});

describe("a footer's newsletter box", () => {
  // Flows blind batch 2026-12-04, cl-vegefoods 1 and 2: a checkout's and a question's name and e-mail went into "Subscribe".
  const home = (): PageOutline => {
    const outline = saasOutline();
    outline.forms = [form('Newsletter', 900, [field('Enter email address', 920)], 'Subscribe')];
    return outline;
  };

  it('takes no name, subject or first and last name the prompt gives with its e-mail', () => {
    for (const prompt of [
      'Check out as Isabella Moreau: first name Isabella, last name Moreau, email isabella.moreau@example.com',
      "Ask the shop if they deliver on Sundays. I'm Arjun Patel, arjun.patel@example.com, subject Sunday delivery",
    ]) assert.equal(fillForm(home(), namedValues(prompt), null, { allowSubmit: false, prompt }), null, prompt);
  });

  it('still takes the e-mail of a prompt that asks for the newsletter, or names nothing else', () => {
    for (const prompt of ['Subscribe Tomas Rivera, tomas.rivera@example.com, to the newsletter', 'Sign up for updates with ana@example.com']) {
      assert.deepEqual(acts(fillForm(home(), namedValues(prompt), null, { allowSubmit: false, prompt })?.steps)[0], ['Enter email address', prompt.match(/\S+@\S+?(?=,|$)/)![0]], prompt);
    }
  });
});

describe('a book and its author, said with "by"', () => {
  // Flows blind batch 2026-12-09, readr: "Put The Left Hand of Darkness by Ursula K. Le Guin on my reading list" typed
  // no author: the form asks for "Title" and "Author", the prompt named neither field.
  const readingLog = (): PageOutline => {
    const outline = saasOutline();
    const status = { ...field('Status', 197, 'select'), options: ['Planned', 'Reading', 'Finished', 'Abandoned'] };
    outline.forms = [form('Title, Author, Series, Status', 150, [field('Title', 150), field('Author', 150), field('Series', 150), status], 'Add book', { method: 'dialog' })];
    return outline;
  };

  it('types the title into the title field and the author into the author field', () => {
    const prompt = 'Put The Left Hand of Darkness by Ursula K. Le Guin on my reading list';
    const fill = fillForm(readingLog(), namedValues(prompt), null, { allowSubmit: false, prompt });
    assert.deepEqual(acts(fill?.steps).filter(([what]) => what !== 'press' && what !== 'point'), [['Title', 'The Left Hand of Darkness'], ['Author', 'Ursula K. Le Guin']]);
    assert.deepEqual(namedValues('Log Dune by Frank Herbert.').fields, [{ label: 'author', value: 'Frank Herbert' }], "a sentence's full stop is not the author's");
  });

  it("sets the book's status to the option the prompt marks it with, and leaves it alone on a reading list", () => {
    const started = "Add Piranesi by Susanna Clarke and mark that I've started reading it";
    assert.deepEqual(acts(fillForm(readingLog(), namedValues(started), null, { allowSubmit: false, prompt: started })?.steps).filter(([what]) => what !== 'press' && what !== 'point'),
      [['Title', 'Piranesi'], ['Author', 'Susanna Clarke'], ['Status', 'Reading']]);
    const listed = 'Put The Left Hand of Darkness by Ursula K. Le Guin on my reading list';
    assert.ok(!acts(fillForm(readingLog(), namedValues(listed), null, { allowSubmit: false, prompt: listed })?.steps).some(([what]) => what === 'Status'));
  });

  it('reads no work from a task due by a day, nor from a sentence that files nothing', () => {
    assert.equal(namedValues('Add a task called Buy milk by Friday').fields.length, 0);
    assert.equal(namedValues('Show the books by Ursula K. Le Guin').title, undefined);
  });
});

describe('a box labelled "Full Name" whose name attribute says "firstname"', () => {
  it('takes the whole name (kiaalap, flows blind batch 2026-12-10)', () => {
    const outline = saasOutline();
    outline.forms = [form('Full Name, Address, Mobile no.', 275, [field('Full Name', 275, 'text', 'firstname'), field('Address', 325, 'text', 'address'), field('Mobile no.', 375, 'number', 'mobileno')], 'Submit')];
    const prompt = 'Enrol a new student, Tomas Reyes, with the mobile number 555 0142';
    const fill = fillForm(outline, namedValues(prompt), null, { allowSubmit: false, prompt });
    assert.deepEqual(acts(fill?.steps).filter(([what]) => what !== 'press' && what !== 'point'), [['Full Name', 'Tomas Reyes'], ['Mobile no.', '555 0142']]);
  });
});

describe('what the twenty-second flows batch named (flows blind 2026-12-17)', () => {
  it('reads an entry made by what it is called, with its amount in a currency said in words', () => {
    assert.deepEqual(namedValues('Log a new expense called Matatu fare for 150 shillings').entries, [{ text: 'Matatu fare', amount: '150' }]);
    assert.deepEqual(namedValues('Add a 500 rupee taxi ride').entries, [{ text: 'taxi ride', amount: '500' }]);
    assert.deepEqual(namedValues('Add a 5 person team').entries, [], 'a bare count before a noun is no price');
    assert.deepEqual(namedValues('Log lunch for 20 euros').entries, [{ text: 'lunch', amount: '20' }]);
  });

  it('gives what an app form cannot be sent without a plausible value: a real choice of its list, today for its date', () => {
    const category = { ...field('Category', 240, 'select'), required: true, options: ['Select Category', 'Food', 'Transport', 'Other'] };
    const date = { ...field('Date', 300, 'date'), required: true };
    const outline = saasOutline();
    outline.forms = [form('add new expense', 100, [field('Expense Title', 120), field('Amount', 180, 'number'), category, date, field('Note', 360)], 'Add Expense')];
    const prompt = 'Log a new expense called Matatu fare for 150 shillings';
    const steps = acts(appForms(prompt, outline, namedValues(prompt))?.steps);
    assert.deepEqual(steps.slice(0, 3), [['Expense Title', 'Matatu fare'], ['Amount', '150'], ['Category', 'Food']]);
    assert.equal(steps[3]![0], 'Date');
    assert.match(String(steps[3]![1]), /^\d{4}-\d{2}-\d{2}$/);
    assert.deepEqual(steps[4], ['press', 'Add Expense'], 'the note, not required, stays empty');
    const said = 'Log a new expense called Matatu fare for 150 shillings and set it as Transport';
    assert.deepEqual(acts(appForms(said, outline, namedValues(said))?.steps)[2], ['Category', 'Transport'], 'the choice the prompt says');
  });

  it('reads a search said with "look it up" by what the sentence before described, and one made "with the docs\' search"', () => {
    assert.equal(namedValues('I need an anchor symbol for my page - look it up in the icon collection').search, 'anchor');
    assert.equal(namedValues("Look up DatetimeField with the documentation's search").search, 'DatetimeField');
  });
});
