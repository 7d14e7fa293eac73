import type { TemplateId } from '../../../demos/presentation.js';
import type { PlanStep } from '../../types.js';
import type { Template, TemplateContext } from './choreography.js';
import { cinematic } from './cinematic.js';
import { conversionFlow } from './conversion-flow.js';
import { featureSweep } from './feature-sweep.js';
import { guidedTour } from './guided-tour.js';
import { heroSpotlight } from './hero-spotlight.js';
import { plainScroll } from './plain-scroll.js';
import { pricingFocus } from './pricing-focus.js';
import { proofScroll } from './proof-scroll.js';
import { sectionFocus } from './section-focus.js';

export type { Template, TemplateContext } from './choreography.js';

/** The spec's nine recording templates (Presentation → recordingTemplate.id), each a choreography over the outline. */
export const templates: Record<TemplateId, Template> = {
  cinematic,
  'guided-tour': guidedTour,
  'plain-scroll': plainScroll,
  'section-focus': sectionFocus,
  'hero-spotlight': heroSpotlight,
  'feature-sweep': featureSweep,
  'conversion-flow': conversionFlow,
  'pricing-focus': pricingFocus,
  'proof-scroll': proofScroll,
};

export function runTemplate(id: TemplateId, context: TemplateContext): PlanStep[] {
  return templates[id](context);
}
