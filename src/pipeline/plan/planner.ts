import type { Config } from '../../platform/config.js';
import type { DemoPlan, PlanStep } from '../types.js';
import { nextStep, planNextStep, type AgentStep, type AgentStepInput } from './agent-planner.js';
import { planDemo, type PlanInput } from './heuristic-planner.js';
import { planWithOpenAI, type OpenAIPlannerOptions } from './openai-planner.js';

export type PlannerConfig = Pick<Config, 'SHOWREEL_PLANNER' | 'OPENAI_API_KEY' | 'OPENAI_BASE_URL' | 'OPENAI_MODEL'>;

export interface Planner {
  readonly kind: 'heuristic' | 'openai';
  /** The whole plan (stored as `ai_plan`); resolves `auto`. Never rejects: the model planner falls back. */
  plan(input: PlanInput): Promise<DemoPlan>;
  /**
   * Agent mode's next step against the page as observed now, or null when done. Heuristic with either planner:
   * a model round trip per step would stall the recording for seconds at a time.
   */
  nextStep(input: AgentStepInput): PlanStep | null;
  /** The same, timed so that the rest of the plan fills the time left (what a recorder wants). */
  planNextStep(input: AgentStepInput): AgentStep | null;
}

/** The planner SHOWREEL_PLANNER names: the offline heuristic (default) or an OpenAI-compatible chat API. */
export function createPlanner(config: PlannerConfig, options: Pick<OpenAIPlannerOptions, 'timeoutMs' | 'logger'> = {}): Planner {
  if (config.SHOWREEL_PLANNER === 'openai') {
    const openai: OpenAIPlannerOptions = {
      apiKey: config.OPENAI_API_KEY,
      baseUrl: config.OPENAI_BASE_URL,
      model: config.OPENAI_MODEL,
      ...options,
    };
    return { kind: 'openai', plan: (input) => planWithOpenAI(input, openai), nextStep, planNextStep };
  }
  return { kind: 'heuristic', plan: async (input) => planDemo(input), nextStep, planNextStep };
}

export type { AgentStep, AgentStepInput } from './agent-planner.js';
export type { PlanInput } from './heuristic-planner.js';
