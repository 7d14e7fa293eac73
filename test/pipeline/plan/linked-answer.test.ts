import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { answerElsewhere } from '../../../src/pipeline/plan/linked-answer.js';
import type { LinkedPage, PageOutline } from '../../../src/pipeline/types.js';
import { saasOutline } from './outlines.js';

/**
 * Issue 56: where a prompt goes when no link says what it asks for, but the page behind one holds it. The linked
 * pages' parts, as the reader brings them back (analyse/linked-pages.ts), compete with this page's own by meaning.
 */
const sameSite = (url: string) => new URL(url, 'http://localhost:4000/').host === 'localhost:4000';

const link = (label: string, href: string) => ({ label, kind: 'nav-link' as const, href, selector: `a[href="${href}"]`, fallbackSelectors: [], rect: { x: 600, y: 20, width: 80, height: 30 } });

/** A café's home page: its menu links to three pages, none of which says "hours" or "story". */
function cafe(): { outline: PageOutline; linked: LinkedPage[] } {
  const outline = saasOutline();
  outline.title = 'Copper Kettle, a neighbourhood coffee house';
  outline.navigation = [link('Our story', '/story.html'), link('Menu', '/menu.html'), link('Visit', '/visit.html')];
  outline.sections = outline.sections.filter((section) => section.kind === 'hero' || section.kind === 'footer');
  outline.sections[0] = { ...outline.sections[0]!, heading: 'Coffee roasted down the street', text: 'Small batches roasted every Tuesday.', body: 'Small batches roasted every Tuesday.' };
  outline.forms = [];
  outline.actions = [];
  const linked: LinkedPage[] = [
    { href: '/story.html', label: 'Our story', title: 'Our story', parts: [{ heading: 'Two sisters and a borrowed roaster', text: 'Founded in 2009 by Ana and Lucia, who started roasting in their garage.', footer: false }] },
    { href: '/menu.html', label: 'Menu', title: 'Menu', parts: [{ heading: 'Espresso and filter', text: 'Espresso, flat white, cortado.', footer: false }, { heading: 'From the oven', text: 'Cardamom buns, sourdough toast and pastries, still warm.', footer: false }] },
    { href: '/visit.html', label: 'Visit', title: 'Visit', parts: [{ heading: "Come on in, we're open", text: 'Monday 7:00 to 18:00 Tuesday 7:00 to 18:00 Wednesday 7:00 to 18:00 Thursday 7:00 to 18:00 Friday 7:00 to 20:00 Saturday 8:00 to 16:00 Sunday Closed', footer: false }] },
  ];
  return { outline, linked };
}

describe('a prompt answered on a page a menu link leads to', () => {
  it('goes to the page that holds the answer when no link names it', () => {
    const { outline, linked } = cafe();
    const hours = answerElsewhere('What time does the cafe open on Saturdays?', outline, sameSite, linked);
    assert.equal(hours?.link.label, 'Visit');
    assert.equal(hours?.purpose, 'page');
    assert.equal(hours?.after, 'What time does the cafe open on Saturdays?', 'the question is asked there');
    assert.equal(answerElsewhere('Who started this place? Tell me the story', outline, sameSite, linked)?.link.label, 'Our story');
    assert.equal(answerElsewhere('Is there anything to eat, like pastries?', outline, sameSite, linked)?.link.label, 'Menu');
  });

  it('shows first what this page answers, then leaves for the rest', () => {
    const { outline, linked } = cafe();
    const exit = answerElsewhere('Show the coffee roasted down the street, then when they are open on Saturday', outline, sameSite, linked);
    assert.equal(exit?.link.label, 'Visit');
    assert.equal(exit?.before, 'Show the coffee roasted down the street');
  });

  it('stays when this page answers, or when nothing anywhere does', () => {
    const { outline, linked } = cafe();
    assert.equal(answerElsewhere('Show the coffee roasted down the street', outline, sameSite, linked), null);
    assert.equal(answerElsewhere('Show the gift cards', outline, sameSite, linked), null);
    assert.equal(answerElsewhere('What time does the cafe open on Saturdays?', outline, sameSite, []), null, 'nothing read, nothing to go to');
    assert.equal(answerElsewhere('What time does the cafe open on Saturdays? Then show the coffee roasted down the street', outline, sameSite, linked), null, 'a later beat this page answers keeps the flow here');
  });

  it('leaves no part of a beat that speaks of the one before ("the striped ones too", "…, the roast and the striped")', () => {
    const { outline, linked } = cafe();
    linked.push({ href: '/gallery.html', label: 'Gallery', title: 'Gallery', parts: [{ heading: 'Striped', text: 'Striped mugs in every colour.', footer: false }] });
    assert.equal(answerElsewhere('Show the coffee roasted down the street, the striped ones too', outline, sameSite, linked), null);
    assert.equal(answerElsewhere('Begin with the coffee roasted down the street, the roast and the striped', outline, sameSite, linked), null, 'an item of a list');
  });

  it('stays for a contact form this page holds, though a contact page says more', () => {
    const { outline, linked } = cafe();
    outline.forms = saasOutline().forms.map((form) => ({ ...form, fields: [...form.fields, { label: 'Message', type: 'textarea', name: 'message', selector: 'textarea', fallbackSelectors: [], rect: form.rect }] }));
    linked.push({ href: '/contact.html', label: 'Contact', title: 'Contact', parts: [{ heading: 'Contact form', text: 'Send us a message and we will write back.', footer: false }] });
    assert.equal(answerElsewhere('End on the form for sending them a message', outline, sameSite, linked), null);
  });

  it('never goes to another site', () => {
    const { outline, linked } = cafe();
    const elsewhere = (url: string) => new URL(url, 'http://localhost:4000/').host === 'elsewhere.example';
    assert.equal(answerElsewhere('What time does the cafe open on Saturdays?', outline, elsewhere, linked), null);
  });
});
