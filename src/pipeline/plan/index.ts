/** The planning stage: outline + prompt → DemoPlan (templates, heuristic or model) → ActionScript. No browser. */
export { nextStep, planNextStep, type AgentStep, type AgentStepInput } from './agent-planner.js';
export { compileScript, compileStep, type CompileOptions, type CompiledStep } from './compile.js';
export { durationMsFor, planDemo, type PlanInput } from './heuristic-planner.js';
export { planWithOpenAI, type OpenAIPlannerOptions } from './openai-planner.js';
export { createPlanner, type Planner, type PlannerConfig } from './planner.js';
export { selectTemplate, type SelectTemplateInput } from './select-template.js';
export { runTemplate, templates } from './templates/index.js';
export type { ScriptState } from './timing.js';
