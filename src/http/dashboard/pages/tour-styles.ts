import type { TemplateId } from '../../../demos/presentation.js';

/**
 * The tour styles as the new-demo form names them (issue 35: it listed the raw ids, `proof-scroll`): a label and
 * what the recording does, in the words of the templates' own descriptions (pipeline/plan/templates).
 */
export const TOUR_STYLES: ReadonlyArray<{ id: TemplateId | 'auto'; label: string }> = [
  { id: 'auto', label: 'Automatic: chosen from your prompt and the page' },
  { id: 'cinematic', label: 'Cinematic: the best sections, ending on the main button' },
  { id: 'guided-tour', label: 'Guided tour: the menu’s sections, in order' },
  { id: 'plain-scroll', label: 'Plain scroll: top to bottom, steadily' },
  { id: 'section-focus', label: 'One section: the one your prompt names' },
  { id: 'hero-spotlight', label: 'First screen only: the headline and main button' },
  { id: 'feature-sweep', label: 'Features: each feature card in turn' },
  { id: 'conversion-flow', label: 'Sign-up form: filled with sample text, never sent' },
  { id: 'pricing-focus', label: 'Pricing: the plans, left to right' },
  { id: 'proof-scroll', label: 'Social proof: testimonials and customer logos' },
];

/** What "Planning" means, in one line under the choice. */
export const PLANNING_HINT =
  'Scripted: the whole tour is planned from the page before recording starts, so it is the same each time. Agent: the page is looked at again after each step and the next step chosen from what is on screen (for pages that change as you use them).';
