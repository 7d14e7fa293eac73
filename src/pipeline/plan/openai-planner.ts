import { z } from 'zod';
import { templateIds, type TemplateId } from '../../demos/presentation.js';
import type { AutoSelection, DemoPlan, OutlineAction, PageOutline, PlanStep, Target } from '../types.js';
import type { CaptionDrafts } from '../story-text/types.js';
import { durationMsFor, fitPlanSteps, planDemo, type PlanInput } from './heuristic-planner.js';
import { clip, findSection, scrollYForSection, sectionName, toTarget } from './outline-query.js';
import { notFoundIn } from './not-found.js';
import { menuLabelsFor } from './section-fields.js';
import { promptSubjects } from './section-meaning.js';
import { runTemplate } from './templates/index.js';

/**
 * The planner over any OpenAI-compatible chat completions API (OpenAI, a local Ollama or vLLM). The model sees the
 * templates, a trimmed outline and the prompt, and answers JSON; the answer is validated with zod and every id and
 * label in it must exist on the page. Any failure (HTTP error, timeout, invalid JSON, a schema or id problem) falls
 * back to the heuristic planner with `source: "fallback"` and the reason recorded.
 */

export interface OpenAIPlannerOptions {
  apiKey?: string;
  /** e.g. https://api.openai.com/v1 or http://localhost:11434/v1 */
  baseUrl: string;
  model: string;
  /** Whole request, answer included. */
  timeoutMs?: number;
  /** Told why a fallback happened (a pino logger fits). */
  logger?: { warn: (details: object, message: string) => void };
}

export const DEFAULT_TIMEOUT_MS = 20_000;

const templateGuide: Record<TemplateId, string> = {
  cinematic: 'slow eased scroll through the key sections, pauses on the hero and the strongest section, ends hovering the primary call to action',
  'guided-tour': 'driven by the navigation: hover each nav item, then scroll to its section, in menu order',
  'plain-scroll': 'one steady scroll from top to bottom',
  'section-focus': 'scroll to one named section (sectionHint), dwell, hover its buttons',
  'hero-spotlight': 'stay on the first screen: headline, then the primary call to action; no scrolling',
  'feature-sweep': 'scroll through the features sections, hovering the feature cards',
  'conversion-flow': 'scroll to the form, type plausible demo text into its fields (Ada Lovelace, ada@example.com), hover submit but never submit',
  'pricing-focus': 'scroll to pricing, hover the tiers left to right, dwell on the highlighted tier',
  'proof-scroll': 'scroll through testimonials and customer logos',
};

function systemPrompt(): string {
  return [
    'You plan short screen-recorded product demos of a web page. Choose a recording template and optionally the steps.',
    'Templates:',
    ...templateIds.map((id) => `- ${id}: ${templateGuide[id]}`),
    'Answer with one JSON object only:',
    '{"templateId": one of the template ids, "sectionHint": optional section name for section-focus, "reason": why (one sentence),',
    ' "confidence": 0..1, "steps": optional array of {"action": "scroll"|"hover"|"click"|"type"|"focus"|"pause",',
    ' "sectionId": a section id from the outline (scroll, focus), "targetLabel": an action, nav or form field label from the outline',
    ' (hover, click, type), "text": text to type (type only), "label": a short caption},',
    ' "captions": array of {"sectionId": a section id from the outline, "text": the caption}}.',
    'Rules: use only ids and labels from the outline. Never click links or buttons that leave the page or submit a form;',
    'hover them instead. Each step takes about 1 to 1.5 seconds: fit the steps to durationMs. Omit steps to let the template plan them.',
    '"askedFor" lists the sections the prompt seems to ask for, in order, with a confidence: show each whole (scroll, then focus)',
    'and hold the last one; a section\'s "menu" lists the navigation labels that point at it.',
    '"captions": one for the first section and one for each section the demo frames, saying what the viewer is looking at:',
    'its heading plus its key fact where it has one (a price range, a figure), in the page\'s language ("language", an <html lang>',
    'code; English when null), at most 84 characters. Copy every number and name from that section\'s text; never compute or invent one.',
  ].join('\n');
}

/** What the model sees of the page: names, kinds and short text, not selectors or geometry (keeps the prompt small). */
export function trimOutline(outline: PageOutline): object {
  return {
    title: clip(outline.title, 120),
    description: outline.description ? clip(outline.description, 200) : null,
    sections: outline.sections.slice(0, 24).map((section) => ({
      id: section.id,
      kind: section.kind,
      heading: section.heading ? clip(section.heading, 80) : null,
      // Long enough to hold a section's key facts (its prices, its figures), which the captions quote.
      text: clip(section.text, 200),
      menu: menuLabelsFor(outline, section).slice(0, 3).map((label) => clip(label, 40)),
    })),
    navigation: outline.navigation.slice(0, 12).map((link) => clip(link.label, 60)),
    actions: outline.actions
      .filter((action) => action.kind !== 'nav-link')
      .slice(0, 20)
      .map((action) => ({ label: clip(action.label, 60), kind: action.kind })),
    forms: outline.forms.slice(0, 3).map((form) => ({
      fields: form.fields.slice(0, 8).map((field) => ({ label: clip(field.label, 60), type: field.type })),
      submit: form.submit ? clip(form.submit.label, 60) : null,
    })),
  };
}

const chatResponseSchema = z.object({
  choices: z.array(z.object({ message: z.object({ content: z.string().nullable() }) })).min(1),
});

const answerSchema = z.object({
  templateId: z.enum(templateIds),
  sectionHint: z.string().trim().min(1).max(120).nullish(),
  reason: z.string().trim().min(1),
  confidence: z.number().min(0).max(1),
  steps: z
    .array(
      z.object({
        action: z.enum(['scroll', 'hover', 'click', 'type', 'focus', 'pause']),
        sectionId: z.string().min(1).nullish(),
        targetLabel: z.string().min(1).nullish(),
        text: z.string().min(1).max(200).nullish(),
        label: z.string().trim().min(1).max(200),
      }),
    )
    .max(40)
    .nullish(),
  // Captions are an extra: a malformed list loses the captions (the offline ones stand in), never the plan.
  captions: z
    .array(z.object({ sectionId: z.string().min(1), text: z.string() }))
    .max(40)
    .nullish()
    .catch(null),
});
export type PlannerAnswer = z.infer<typeof answerSchema>;

/** Why the model's answer was not used; becomes the fallback reason. */
class Rejected extends Error {}

function normalise(text: string): string {
  return text.toLowerCase().replace(/\s+/g, ' ').trim();
}

/** A target by its label: exact (ignoring case and spacing), else the one label that contains it. */
function findTarget(outline: PageOutline, label: string, kinds: 'any' | 'field'): { target: Target; isField: boolean; action?: OutlineAction } {
  const fields = outline.forms.flatMap((form) => form.fields.map((field) => ({ target: field as Target, isField: true })));
  const actions = [...outline.actions, ...outline.navigation, ...outline.forms.flatMap((form) => (form.submit ? [form.submit] : []))].map(
    (action) => ({ target: action as Target, isField: false, action }),
  );
  const pool = kinds === 'field' ? fields : [...actions, ...fields];
  const wanted = normalise(label);
  const exact = pool.find((entry) => normalise(entry.target.label) === wanted);
  if (exact) return exact;
  const partial = pool.filter((entry) => normalise(entry.target.label).includes(wanted) || wanted.includes(normalise(entry.target.label)));
  if (partial.length === 1) return partial[0]!;
  throw new Rejected(`the answer names ${kinds === 'field' ? 'a form field' : 'a target'} "${clip(label, 60)}" that is not on the page`);
}

/** A click stays on the page: form fields, and buttons or links to a #fragment of it. Anything else is hovered. */
function staysOnPage(entry: { isField: boolean; action?: OutlineAction }, outline: PageOutline): boolean {
  if (entry.isField) return true;
  if (!entry.action || outline.forms.some((form) => form.submit === entry.action)) return false;
  const href = entry.action.href;
  return href === null ? entry.action.kind === 'button' : href.startsWith('#');
}

export function answerToSteps(answer: PlannerAnswer, outline: PageOutline): PlanStep[] {
  return (answer.steps ?? []).map((step): PlanStep => {
    const label = clip(step.label, 120);
    const section = () => {
      if (!step.sectionId) throw new Rejected(`a ${step.action} step has no sectionId`);
      const found = findSection(outline, step.sectionId);
      if (!found) throw new Rejected(`the answer names a section "${clip(step.sectionId, 60)}" that is not on the page`);
      return found;
    };
    switch (step.action) {
      case 'scroll': {
        const target = section();
        return { action: 'scroll', sectionId: target.id, toY: scrollYForSection(outline, target), label };
      }
      case 'focus':
        return { action: 'focus', sectionId: section().id, label };
      case 'pause':
        return { action: 'pause', label };
      case 'type': {
        if (!step.targetLabel || !step.text) throw new Rejected('a type step needs a targetLabel and a text');
        return { action: 'type', target: toTarget(findTarget(outline, step.targetLabel, 'field').target), text: step.text, label };
      }
      case 'hover':
      case 'click': {
        if (!step.targetLabel && step.sectionId) {
          const target = section();
          return { action: 'hover', target: toTarget(target, sectionName(target)), label };
        }
        if (!step.targetLabel) throw new Rejected(`a ${step.action} step has no targetLabel`);
        const entry = findTarget(outline, step.targetLabel, 'any');
        const action = step.action === 'click' && staysOnPage(entry, outline) ? 'click' : 'hover';
        return { action, target: toTarget(entry.target), label };
      }
    }
  });
}

function parseContent(content: string): unknown {
  // Some local models wrap JSON in a Markdown fence despite response_format.
  const unfenced = content.trim().replace(/^```(?:json)?\s*([\s\S]*?)\s*```$/i, '$1');
  try {
    return JSON.parse(unfenced);
  } catch {
    throw new Rejected('the answer is not valid JSON');
  }
}

async function askModel(input: PlanInput, options: OpenAIPlannerOptions, durationMs: number): Promise<PlannerAnswer> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const fixed = input.template.id === 'auto' ? null : input.template.id;
  const user = {
    prompt: input.prompt,
    durationMs,
    template: fixed ? `fixed: ${fixed} (answer with this templateId; plan its steps)` : 'auto: choose one',
    sectionHint: input.template.sectionHint ?? null,
    language: input.language ?? null,
    // An embed: what the page the video will sit on is about, so the demo shows that.
    ...(input.pageContext ? { embeddingPage: input.pageContext } : {}),
    outline: trimOutline(input.outline),
    // What the offline planner understood the prompt to ask for: the model may disagree, but starts from the same reading.
    askedFor: promptSubjects(input.prompt, input.outline).subjects.map((subject) => ({
      sectionId: subject.section.id,
      confidence: subject.confidence,
      why: clip(subject.why, 120),
    })),
  };
  let response: Response;
  try {
    response = await fetch(`${options.baseUrl.replace(/\/+$/, '')}/chat/completions`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json',
        ...(options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {}),
      },
      body: JSON.stringify({
        model: options.model,
        messages: [
          { role: 'system', content: systemPrompt() },
          { role: 'user', content: JSON.stringify(user) },
        ],
        response_format: { type: 'json_object' },
        temperature: 0.2,
      }),
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch (error) {
    throw new Rejected(describeFetchError(error, timeoutMs));
  }
  if (!response.ok) {
    await response.body?.cancel().catch(() => undefined);
    throw new Rejected(`the API answered HTTP ${response.status}`);
  }
  let body: unknown;
  try {
    body = await response.json();
  } catch (error) {
    if (isTimeout(error)) throw new Rejected(describeFetchError(error, timeoutMs));
    throw new Rejected('the API response is not JSON');
  }
  const chat = chatResponseSchema.safeParse(body);
  if (!chat.success) throw new Rejected('the API response is not a chat completion');
  const content = chat.data.choices[0]!.message.content;
  if (!content) throw new Rejected('the answer is empty');
  const answer = answerSchema.safeParse(parseContent(content));
  if (!answer.success) {
    const issue = answer.error.issues[0];
    throw new Rejected(`the answer does not match the expected shape (${issue ? `${issue.path.join('.') || 'answer'}: ${issue.message}` : 'invalid'})`);
  }
  return answer.data;
}

function isTimeout(error: unknown): boolean {
  return error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError');
}

function describeFetchError(error: unknown, timeoutMs: number): string {
  if (isTimeout(error)) return `the request timed out after ${Math.round(timeoutMs / 100) / 10} s`;
  const cause = error instanceof Error && error.cause instanceof Error ? error.cause.message : error instanceof Error ? error.message : String(error);
  return `the request failed (${clip(cause, 120)})`;
}

export async function planWithOpenAI(input: PlanInput, options: OpenAIPlannerOptions): Promise<DemoPlan> {
  const durationMs = durationMsFor(input.durationTarget);
  try {
    const answer = await askModel(input, options, durationMs);
    return answerToPlan(answer, input, options.model, durationMs);
  } catch (error) {
    const why = error instanceof Rejected ? error.message : `the planner failed (${error instanceof Error ? error.message : String(error)})`;
    options.logger?.warn({ err: why, model: options.model }, 'AI planner failed; using the heuristic planner');
    return fallbackPlan(input, why, options.model);
  }
}

function answerToPlan(answer: PlannerAnswer, input: PlanInput, model: string, durationMs: number): DemoPlan {
  const fixed = input.template.id === 'auto' ? null : input.template.id;
  const templateId = fixed ?? answer.templateId;
  const sectionHint = input.template.sectionHint?.trim() || answer.sectionHint || null;
  const mapped = answerToSteps(answer, input.outline);
  // No steps from the model: it chose the template, the template plans the steps.
  const steps =
    mapped.length > 0 ? mapped : runTemplate(templateId, { outline: input.outline, budgetMs: durationMs, prompt: input.prompt, sectionHint });
  const autoSelection: AutoSelection | null = fixed
    ? null
    : {
        selectedId: templateId,
        ...(sectionHint ? { sectionHint: sectionHint.slice(0, 120) } : {}),
        confidence: answer.confidence,
        reason: clip(answer.reason, 500),
        source: 'ai',
        signals: [
          clip(`model ${model}`, 240),
          mapped.length > 0 ? `the model planned ${mapped.length} steps` : 'the template planned the steps',
        ],
      };
  const fitted = fitPlanSteps(steps, input.outline, durationMs, templateId);
  return {
    templateId,
    autoSelection,
    sectionHint,
    durationMs,
    source: 'ai',
    steps: fitted,
    captionDrafts: captionDrafts(answer, input.outline),
    // Issue 55: what the prompt asks for that the page lacks is said whoever planned: the model may frame something
    // else in its place, and the owner should know, as with the offline planner.
    notFound: notFoundIn(input.prompt, promptSubjects(input.prompt, input.outline), { steps: fitted, sectionHint }, input.outline),
  };
}

/** The model's captions by section id: the first for each section on the page, as written (checked later, story-text/). */
function captionDrafts(answer: PlannerAnswer, outline: PageOutline): CaptionDrafts {
  const bySection: Record<string, string> = {};
  for (const caption of answer.captions ?? []) {
    const section = findSection(outline, caption.sectionId);
    if (section && !Object.hasOwn(bySection, section.id)) bySection[section.id] = clip(caption.text, 200);
  }
  return { bySection };
}

function fallbackPlan(input: PlanInput, why: string, model: string): DemoPlan {
  const plan = planDemo(input);
  const autoSelection: AutoSelection | null = plan.autoSelection
    ? {
        ...plan.autoSelection,
        source: 'fallback',
        reason: clip(`AI planner unavailable: ${why}. Heuristic choice: ${plan.autoSelection.reason}`, 500),
        signals: [clip(`AI planner (${model}) failed: ${why}`, 240), ...(plan.autoSelection.signals ?? [])].slice(0, 8),
      }
    : null;
  return { ...plan, autoSelection, source: 'fallback', captionDrafts: { unavailable: clip(why, 160) } };
}
