import type { OutlineField } from '../../types.js';
import { demoValueFor } from '../demo-text.js';
import { actionsIn, bestForm, fillableFields, isVisible, primaryCta, revealY, sectionAt, sectionName, sectionsOfKind } from '../outline-query.js';
import { matchSection } from '../text-match.js';
import { cinematic } from './cinematic.js';
import { Choreography, chooseFitting, type Template } from './choreography.js';

/**
 * Conversion flow: take the viewer to the form and fill it in with plausible demo text (Ada Lovelace,
 * ada@example.com), as many fields as there is time for, then rest the cursor on the submit button without pressing
 * it: a demo must not sign anybody up or send anything. A form in the section the prompt named comes first, and one
 * elsewhere is not filled for a section without one (a hero or a banner excepted). Without a form it leads to that section's first link (else the main call to action) and hovers it; without either it is
 * cinematic.
 */
export const conversionFlow: Template = (context) => {
  const { outline, budgetMs, sectionHint } = context;
  const hinted = sectionHint ? (matchSection(outline, sectionHint)?.section ?? null) : null;
  // A form elsewhere is not what a part of the page the prompt named shows ("the three-step sign-up form demo" of a CSS
  // kit, whose steps are no <form>): that part is framed instead. A hero or a banner only leads to the form below.
  const elsewhere = (found: NonNullable<ReturnType<typeof bestForm>>) => hinted !== null && hinted.kind !== 'hero' && hinted.kind !== 'cta' && sectionAt(outline, found.rect) !== hinted;
  const anyForm = bestForm(outline, hinted);
  const form = anyForm && !elsewhere(anyForm) ? anyForm : null;
  const fields = form
    ? fillableFields(form).flatMap((field) => {
        const value = demoValueFor(field);
        return value === null ? [] : [{ field, value }];
      })
    : [];
  if (form && fields.length > 0) {
    const lead = primaryCta(outline);
    // The way in (the hero's call to action, with the form further down) is shown only with time to spare.
    const showLead = lead !== null && lead.rect.y < outline.viewport.height && form.rect.y > outline.viewport.height;
    const home = sectionAt(outline, form.rect);
    // The form with its section's heading above it when both fit below the sticky header ("Contact Me" over its fields
    // sat under a portfolio's fixed menu), else the form alone.
    const formScrollY = () => {
      const heading = home?.headingRect;
      if (!heading || heading.y >= form.rect.y) return revealY(outline, form.rect);
      const both = { x: form.rect.x, y: heading.y, width: form.rect.width, height: form.rect.y + form.rect.height - heading.y };
      const y = revealY(outline, both);
      return isVisible(outline, both, y) ? y : revealY(outline, form.rect);
    };
    type Extra = { field: OutlineField; value: string } | 'lead';
    const compose = (extras: Extra[]) => {
      const c = new Choreography(outline, budgetMs);
      if (lead && extras.includes('lead')) {
        c.pause('Open on the page');
        c.hover(lead, `Point at "${lead.label}"`);
      }
      c.scrollToY(formScrollY(), 'Scroll to the form');
      // The form's section framed first, so the zooms on its fields keep its heading in view.
      if (home) c.focus(home, `Frame "${sectionName(home)}"`);
      for (const entry of fields) {
        if (extras.includes(entry)) c.type(entry.field, entry.value, `Type "${entry.value}" into "${entry.field.label}"`);
      }
      if (form.submit) c.hover(form.submit, `Hover "${form.submit.label}" (not submitted)`);
      c.pause('Hold on the filled-in form');
      return c;
    };
    const candidates: Extra[] = [...fields.slice(0, 6), ...(showLead ? ['lead' as const] : [])];
    return compose(chooseFitting(candidates, compose)).done();
  }
  // The section the prompt named ("how can I reach them": a contact block of links, no form) before the first banner.
  const banner = hinted ?? sectionsOfKind(outline, 'cta')[0];
  const cta = (banner ? actionsIn(outline, banner)[0] : undefined) ?? (hinted ? undefined : primaryCta(outline));
  const c = new Choreography(outline, budgetMs);
  if (hinted && !cta) {
    c.pause('Open on the page');
    c.scrollTo(hinted);
    c.focus(hinted, `Frame "${sectionName(hinted)}"`);
    c.pause(`Hold on "${sectionName(hinted)}"`);
    return c.done();
  }
  if (!cta) return cinematic(context);
  c.pause('Open on the page');
  if (banner && cta.rect.y >= banner.rect.y) c.scrollTo(banner);
  // The part the prompt named is framed (a slow push-in on it) while the cursor rests on its link: no still hold.
  if (hinted) c.focus(hinted, `Frame "${sectionName(hinted)}"`);
  c.hover(cta, `Hover the call to action "${cta.label}"`);
  c.pause('Hold on the call to action');
  return c.done();
};
