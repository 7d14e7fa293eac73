import type { TemplateId } from '../../demos/presentation.js';
import type { AutoSelection, PageOutline } from '../types.js';
import { bestForm, clip, maxScrollY, primaryCta, sectionName, sectionsAbout } from './outline-query.js';
import { describeSubject, promptSubjects } from './section-meaning.js';
import { headingsMentioned, matchSection, phraseSection, sectionPhrase } from './text-match.js';

/**
 * `auto` as a rule table: what the prompt asks for (keywords), checked against what the page has (a pricing-focus
 * needs a pricing section). The most specific intent that the page can show wins; a section the prompt names wins
 * over generic words; nothing recognisable gives the cinematic template (a hero spotlight on a page that does not
 * scroll).
 */

interface Intent {
  id: TemplateId;
  /** Specificity: a named thing (pricing, a form) beats a manner of showing (tour, scroll). */
  weight: number;
  pattern: RegExp;
  /** What the page must have for this template to show what was asked, or null when it does. */
  missing: (outline: PageOutline) => string | null;
}

const pricingHeading = /pric|plans?\b|tiers?\b/i;
const proofHeading = /testimonial|customer|loved by|trusted|review|what (people|our users|teams) say|wall of love|case stud/i;
const featureHeading = /feature|capabilit|why\b|how it works|benefit|what you get|built for|everything you need/i;

const intents: Intent[] = [
  {
    id: 'conversion-flow',
    weight: 3.2,
    pattern:
      /\b(sign(?:ing|s)?[\s-]?up|signups?|register|registration|trial|get(?:ting)? started|onboard(?:ing)?|forms?|checkout|check out|book(?:ing)? a (?:demo|call)|request(?:ing)? a demo|contact us|subscrib(?:e|ing)|wait[\s-]?list|create an account|fill(?:ing)? (?:in|out)|lead capture|conversion|convert)\b/gi,
    missing: (outline) => (bestForm(outline) || primaryCta(outline) ? null : 'the page has no form and no call to action'),
  },
  {
    id: 'pricing-focus',
    weight: 3,
    pattern: /\b(pric(?:e|es|ing)|plans?|costs?|tiers?|subscriptions?|billing|how much)\b/gi,
    missing: (outline) => (sectionsAbout(outline, ['pricing'], pricingHeading).length > 0 ? null : 'the page has no pricing section'),
  },
  {
    id: 'proof-scroll',
    weight: 3,
    pattern: /\b(testimonials?|customers?|clients?|social proof|reviews?|case stud(?:y|ies)|logos?|trusted by|quotes?|ratings?|what people say)\b/gi,
    missing: (outline) =>
      sectionsAbout(outline, ['testimonials', 'logos'], proofHeading).length > 0 ? null : 'the page has no testimonials or logos',
  },
  {
    id: 'hero-spotlight',
    weight: 3,
    // Not "the closing banner", "the banner at the bottom": a band near the end is the last call to action.
    pattern: /\b(hero|headlines?|above the fold|first impression|tagline|value prop(?:osition)?|(?<!\b(?:closing|last|final|bottom|footer|end(?:ing)?) )banner(?! (?:at|near) the (?:bottom|end))|first screen)\b/gi,
    missing: (outline) => (outline.sections.length > 0 || outline.actions.length > 0 ? null : 'the page outline is empty'),
  },
  {
    id: 'feature-sweep',
    weight: 2.8,
    pattern: /\b(features?|capabilit(?:y|ies)|what it (?:does|can do)|functionality|benefits?)\b/gi,
    missing: (outline) => (sectionsAbout(outline, ['features'], featureHeading).length > 0 ? null : 'the page has no features section'),
  },
  {
    id: 'guided-tour',
    weight: 1.6,
    pattern:
      /\b(tour|overview|walk[\s-]?through|walk(?:ing)? (?:me |us |them |people )?through|navigat(?:e|ion|ing)|menu|explore|every section|all (?:the )?sections|site map)\b/gi,
    missing: (outline) =>
      outline.navigation.length >= 2 || outline.sections.filter((section) => section.heading).length >= 3
        ? null
        : 'the page has too little navigation for a tour',
  },
  {
    id: 'plain-scroll',
    weight: 1.5,
    pattern: /\b(scroll(?:ing|s)?(?: down| through)?|top to bottom|whole page|entire page|full page|long page)\b/gi,
    missing: (outline) => (maxScrollY(outline) > 0 ? null : 'the page does not scroll'),
  },
  {
    id: 'cinematic',
    weight: 1.2,
    pattern: /\b(cinematic|showcase|trailer|teaser|highlight reel|polished|beautiful|hype)\b/gi,
    missing: () => null,
  },
];

/** A button named by its label beside what the prompt asks for: "with the Get Started button", "next to the 'Sign up' button". */
const landmarkButton = /\b(?:with|next to|beside|by|near|above|below|under|over) (?:the |a |its |their )?(?:[a-z]+ ){0,2}?(?:['"‘“][^'"’”]{2,40}['"’”]|(?:[A-Z][\w'’-]*)(?:\s+[A-Z][\w'’-]*){0,3}) buttons?\b/g;

/** Intents whose words also name a section kind: a "pricing section" is better served by pricing-focus. */
const dedicated: Array<{ id: TemplateId; pattern: RegExp }> = intents
  .filter((intent) => ['pricing-focus', 'proof-scroll', 'feature-sweep', 'hero-spotlight', 'conversion-flow'].includes(intent.id))
  .map((intent) => ({ id: intent.id, pattern: new RegExp(`^(?:${intent.pattern.source})$`, 'i') }));

export interface SelectTemplateInput {
  prompt: string;
  outline: PageOutline;
  sectionHint?: string | null;
}

interface Candidate {
  id: TemplateId;
  score: number;
  sectionHint?: string;
  reason: string;
  /** When the candidate's own evidence says how sure it is (the matched sections' confidence). */
  confidence?: number;
}

/** The template that already shows a section of this kind best, when the prompt's keywords chose it. */
const templateForKind: Partial<Record<string, TemplateId>> = {
  pricing: 'pricing-focus', testimonials: 'proof-scroll', logos: 'proof-scroll', features: 'feature-sweep', hero: 'hero-spotlight',
  form: 'conversion-flow', cta: 'conversion-flow',
};

const signal = (text: string) => clip(text, 240);

export function selectTemplate({ prompt, outline, sectionHint }: SelectTemplateInput): AutoSelection {
  const signals: string[] = [];
  const candidates: Candidate[] = [];

  // A section named outright: the explicit hint, or "focus on the X section" in the prompt.
  const hint = sectionHint?.trim() ? { phrase: sectionHint.trim().slice(0, 120), explicit: true, given: true } : null;
  const phrase = hint ?? (() => {
    const found = sectionPhrase(prompt);
    return found ? { ...found, given: false } : null;
  })();
  if (phrase) {
    const dedicatedId = dedicated.find((entry) => entry.pattern.test(phrase.phrase.trim()))?.id;
    const match = phrase.given ? matchSection(outline, phrase.phrase) : phraseSection(outline, phrase);
    if (dedicatedId && !phrase.given) {
      signals.push(signal(`the named section "${phrase.phrase}" has its own template, ${dedicatedId}`));
    } else if (match) {
      signals.push(signal(`"${phrase.phrase}" matches the section "${sectionName(match.section)}" (${match.why})`));
      candidates.push({
        id: 'section-focus',
        score: phrase.explicit ? 4 + match.score : 2.5 + match.score,
        sectionHint: phrase.phrase,
        reason: `The ${phrase.given ? 'section hint' : 'prompt'} names "${phrase.phrase}", which matches the section "${sectionName(match.section)}".`,
      });
    } else if (phrase.explicit) {
      signals.push(signal(`no section heading matches "${phrase.phrase}"`));
      candidates.push({
        id: 'section-focus',
        score: phrase.given ? 3.5 : 2.4,
        sectionHint: phrase.phrase,
        reason: `The ${phrase.given ? 'section hint' : 'prompt'} names the section "${phrase.phrase}", but no heading on the page matches it; the template will focus on the closest section.`,
      });
    }
  }

  // Keywords of each intent, when the page can show them. A button named as a landmark ("the paragraph with the Get
  // Started button", "next to the Sign Up button") says where the part is, not what to do: its label is no keyword.
  const keywordText = prompt.replace(landmarkButton, ' ');
  for (const intent of intents) {
    const words = [...new Set([...keywordText.matchAll(intent.pattern)].map((m) => m[0].toLowerCase()))];
    if (words.length === 0) continue;
    const quoted = words.slice(0, 3).map((word) => `"${word}"`).join(', ');
    const missing = intent.missing(outline);
    if (missing) {
      signals.push(signal(`keyword ${quoted} suggests ${intent.id}, but ${missing}`));
      continue;
    }
    signals.push(signal(`keyword ${quoted} → ${intent.id}`));
    candidates.push({
      id: intent.id,
      score: intent.weight + 0.3 * (words.length - 1),
      reason: `The prompt mentions ${quoted}, and the page has what ${intent.id} shows.`,
    });
  }

  // The sections the prompt asks for by meaning ("the people behind it", "how to reach us"), in its order.
  const meaning = promptSubjects(prompt, outline);
  for (const subject of meaning.subjects.slice(0, 3)) signals.push(signal(describeSubject(subject)));
  const first = meaning.subjects[0];
  if (first && !candidates.some((candidate) => candidate.id === 'section-focus' && candidate.score >= 4)) {
    const single = meaning.subjects.length === 1 && !meaning.endsOn;
    const dedicatedCandidate = single ? candidates.find((candidate) => candidate.id === templateForKind[first.section.kind]) : undefined;
    // The dedicated template shows the section asked for, not merely the first of its kind.
    if (dedicatedCandidate && !dedicatedCandidate.sectionHint) dedicatedCandidate.sectionHint = sectionName(first.section);
    // A form asked for in a part of the page ("the three-step sign-up form demo" of a CSS kit) is that part's, if any.
    const conversion = single && first.section.kind !== 'hero' ? candidates.find((candidate) => candidate.id === 'conversion-flow') : undefined;
    if (conversion && !conversion.sectionHint) conversion.sectionHint = sectionName(first.section);
    if (!dedicatedCandidate) {
      const confidence = Math.min(...meaning.subjects.map((subject) => subject.confidence));
      const names = meaning.subjects.map((subject) => `"${sectionName(subject.section)}"`).join(', then ');
      candidates.push({
        id: 'section-focus',
        score: 2.7 + 0.8 * confidence + 0.4 * (meaning.subjects.length - 1) + (meaning.endsOn ? 0.6 : 0),
        sectionHint: sectionName(first.section),
        confidence,
        reason: `The prompt asks for ${names}${meaning.endsOn ? `, ending on "${sectionName(meaning.endsOn.section)}"` : ''}.`,
      });
    }
  }

  // A heading the prompt mentions in passing ("show how Integrations work"), unless a dedicated template covers it.
  if (!candidates.some((candidate) => candidate.id === 'section-focus')) {
    const mentioned = headingsMentioned(outline, prompt).find((section) => section.kind !== 'hero');
    const coveredByIntent = mentioned && dedicated.some((entry) => entry.pattern.test((mentioned.heading ?? '').trim()));
    if (mentioned && !coveredByIntent) {
      const name = sectionName(mentioned);
      signals.push(signal(`the prompt mentions the heading "${name}"`));
      candidates.push({ id: 'section-focus', score: 2.9, sectionHint: name, reason: `The prompt mentions "${name}", a section of the page.` });
    }
  }

  candidates.sort((a, b) => b.score - a.score);
  const [best, runnerUp] = candidates;
  if (!best) {
    const fits = maxScrollY(outline) <= 0;
    const id: TemplateId = fits ? 'hero-spotlight' : 'cinematic';
    signals.push(fits ? 'the page fits on one screen' : 'no template keyword in the prompt');
    return finish({
      selectedId: id,
      confidence: signals.some((s) => s.includes('suggests')) ? 0.4 : 0.5,
      reason: fits
        ? 'Nothing in the prompt points at a particular template, and the page fits on one screen: a spotlight on the hero.'
        : 'Nothing in the prompt points at a particular template the page can show: a cinematic pass over its strongest sections.',
      signals,
    });
  }
  let confidence = best.confidence ?? Math.min(0.95, 0.45 + 0.12 * best.score);
  if (runnerUp && runnerUp.id !== best.id && best.score - runnerUp.score < 0.5) {
    confidence -= 0.1;
    signals.push(signal(`close call with ${runnerUp.id}`));
  }
  return finish({
    selectedId: best.id,
    sectionHint: best.sectionHint,
    confidence,
    reason: best.reason,
    signals,
  });
}

/** Keeps the spec's bounds (autoSelectionSchema): confidence 0–1, reason 1–500, at most 8 signals of 1–240. */
function finish(selection: Omit<AutoSelection, 'source'>): AutoSelection {
  const signals = (selection.signals ?? []).filter((s) => s.length > 0).slice(0, 8);
  return {
    selectedId: selection.selectedId,
    ...(selection.sectionHint ? { sectionHint: selection.sectionHint.slice(0, 120) } : {}),
    confidence: Math.round(Math.min(1, Math.max(0, selection.confidence)) * 100) / 100,
    reason: clip(selection.reason, 500) || selection.selectedId,
    source: 'heuristic',
    signals,
  };
}
