import type { Rect } from '../types.js';
import type { OutlineKit } from './outline-kit.js';

/** A form the page hides until a control shows it, as the outline's form reading takes it (outline-actions.ts). */
export interface HiddenForm {
  /** what a visitor clicks to show it: a tab, the button that opens a modal or a collapsed panel */
  control: Element;
  /** where it will show, as far as the page tells before it opens: the tabs' panel, or the control itself */
  rect: Rect;
  fields: Array<HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement>;
  /** the button that sends or saves it, never one that only closes it */
  submit: Element | null;
}

/**
 * In the page (issue 56): the forms hidden behind a control, which a flow opens before it types: a product's review
 * form in its "Reviews (3)" tab, a table's "Add Row" modal, a collapsed "Write a reply". Found by the toolkits' and
 * ARIA's wiring (a tab, modal or collapse toggle naming its target by `data-(bs-)target`, `href="#id"` or
 * `aria-controls`), never by a page's own class names. A target already shown, or holding a form read in sight
 * (`known`), is not one. Runs in the page: see in-page.ts.
 */
export function hiddenForms(kit: OutlineKit, known: Element[]): Map<Element, HiddenForm> {
  const { visible, docRect, vh } = kit;
  const FIELD_SKIP = /^(hidden|submit|button|reset|image)$/i;
  const found = new Map<Element, HiddenForm>();
  const toggles = Array.from(
    document.querySelectorAll(
      '[data-toggle="modal"], [data-bs-toggle="modal"], [data-toggle="tab"], [data-bs-toggle="tab"], [data-toggle="pill"], [data-bs-toggle="pill"], [role="tab"], [data-toggle="collapse"], [data-bs-toggle="collapse"], [aria-controls][aria-expanded="false"]',
    ),
  );
  for (const control of toggles) {
    if (!visible(control)) continue;
    // Each way the control names its target, as the toolkits read them (a target, then a link's own "#id"), ARIA's
    // last: a template's tab may say `aria-controls="settings"` (another panel's id) of the panel its
    // `href="#profile_settings"` shows.
    const target =
      ['data-bs-target', 'data-target', 'href', 'aria-controls']
        .map((name) => control.getAttribute(name) ?? '')
        .filter((said) => said.startsWith('#') || !/[/.:?]/.test(said))
        .map((said) => said.replace(/^#/, ''))
        .filter((id) => /^[\w-]+$/.test(id))
        .map((id) => document.getElementById(id))
        .find((element) => element !== null) ?? null;
    // A form read in sight inside the target, or a <form> the target is part of (its collapsed "more options"), is
    // that form. A box of loose fields around it (a profile card's comment boxes around its tabs) is not.
    if (!target || visible(target) || known.some((k) => target.contains(k) || (k.contains(target) && k.tagName === 'FORM'))) continue;
    // The <form> inside, or the target itself when its fields are not in one (a modal whose button sits in its footer,
    // outside the <form> of its body: the modal is the form then).
    const inner = Array.from(target.querySelectorAll('form'));
    const container: Element = inner.length === 1 && inner[0]!.querySelector('button, input[type="submit"]') ? inner[0]! : target;
    const fields = Array.from(container.querySelectorAll('input, select, textarea')).filter(
      (f) => !FIELD_SKIP.test((f as HTMLInputElement).type || '') && (f as HTMLElement).style.display !== 'none',
    ) as HiddenForm['fields'];
    if (fields.length === 0 || found.has(container)) continue;
    const dismisses = (b: Element) =>
      b.hasAttribute('data-dismiss') || b.hasAttribute('data-bs-dismiss') || /^(close|cancel|dismiss|×|✕|x)$/i.test((b.textContent ?? '').trim() || b.getAttribute('aria-label') || '');
    const buttons = Array.from(container.querySelectorAll('button, input[type="submit"], [role="button"]')).filter((b) => !dismisses(b));
    const submit = buttons.find((b) => b.matches('[type="submit"], button:not([type])')) ?? buttons[0] ?? null;
    // A tab's panel shows where the tabs' content is; a modal over wherever the page is: at the control then.
    let shownAt: Element | null = target.parentElement;
    while (shownAt && shownAt !== document.body && !visible(shownAt)) shownAt = shownAt.parentElement;
    const modal = control.matches('[data-toggle="modal"], [data-bs-toggle="modal"]');
    const rect = !modal && shownAt && shownAt !== document.body && docRect(shownAt).height < vh * 1.5 ? docRect(shownAt) : docRect(control);
    found.set(container, { control, rect, fields, submit });
  }
  // A closed native <dialog> holding a form ("New Habit", "Add task"), opened by the page's script: its control is
  // named by HTML's own wiring (`commandfor`, `popovertarget`) or, failing that, is the one visible button whose
  // words (its text, title or ARIA label) share a word with the dialog's title ("+ Habit", titled "Add Habit", for
  // the dialog headed "New Habit"). Words every such title has ("new", "add", "edit") do not count.
  const GENERIC = /^(?:new|add|adding|create|edit|open|the|and|for|your|our|this|item|form|dialog|modal|details?)$/;
  const wordsOf = (text: string) =>
    new Set(
      text
        .toLowerCase()
        .split(/[^\p{L}\d]+/u)
        .filter((w) => w.length >= 3 && !GENERIC.test(w))
        .map((w) => w.replace(/(?<=\w{3})s$/, '')),
    );
  for (const dialog of Array.from(document.querySelectorAll('dialog:not([open])'))) {
    if (found.has(dialog) || known.some((k) => dialog.contains(k) || k.contains(dialog))) continue;
    const inner = Array.from(dialog.querySelectorAll('form'));
    const container: Element = inner.length === 1 ? inner[0]! : dialog;
    if (found.has(container)) continue;
    const fields = Array.from(container.querySelectorAll('input, select, textarea')).filter(
      (f) => !FIELD_SKIP.test((f as HTMLInputElement).type || '') && (f as HTMLElement).style.display !== 'none',
    ) as HiddenForm['fields'];
    if (fields.length === 0) continue;
    let control: Element | null = dialog.id ? document.querySelector(`[commandfor="${dialog.id}"], [popovertarget="${dialog.id}"]`) : null;
    if (control && !visible(control)) control = null;
    if (!control) {
      const labelledBy = (dialog.getAttribute('aria-labelledby') ?? '').split(/\s+/).map((id) => (id ? document.getElementById(id)?.textContent : '') ?? '').join(' ');
      const title = wordsOf(`${dialog.getAttribute('aria-label') ?? ''} ${labelledBy} ${dialog.querySelector('h1, h2, h3, h4, h5, h6, legend')?.textContent ?? ''}`);
      if (title.size === 0) continue;
      const matching = Array.from(document.querySelectorAll('button, [role="button"]')).filter((b) => {
        if (b.closest('dialog') || !visible(b)) return false;
        const said = wordsOf(`${(b as HTMLElement).innerText ?? ''} ${b.getAttribute('title') ?? ''} ${b.getAttribute('aria-label') ?? ''}`);
        return [...said].some((w) => title.has(w));
      });
      if (matching.length !== 1) continue;
      control = matching[0]!;
    }
    const dismisses = (b: Element) => /^(close|cancel|dismiss|×|✕|x)$/i.test((b.textContent ?? '').trim() || b.getAttribute('aria-label') || '');
    const buttons = Array.from(container.querySelectorAll('button, input[type="submit"], [role="button"]')).filter((b) => !dismisses(b));
    const submit = buttons.find((b) => b.matches('[type="submit"], button:not([type])')) ?? buttons[0] ?? null;
    // A modal shows over wherever the page is: at its control, as far as the page tells.
    found.set(container, { control, rect: docRect(control), fields, submit });
  }
  return found;
}
