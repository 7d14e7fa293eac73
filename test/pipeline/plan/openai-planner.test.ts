import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, beforeEach, describe, it } from 'node:test';
import { autoSelectionSchema } from '../../../src/demos/presentation.js';
import { compileScript } from '../../../src/pipeline/plan/compile.js';
import { planWithOpenAI, type OpenAIPlannerOptions } from '../../../src/pipeline/plan/openai-planner.js';
import { createPlanner } from '../../../src/pipeline/plan/planner.js';
import { loadConfig } from '../../../src/platform/config.js';
import type { PlanStep } from '../../../src/pipeline/types.js';
import { assertPlan, assertScript } from './checks.js';
import { docsOutline, saasOutline } from './outlines.js';

/**
 * A local server speaking the chat completions protocol. Each test sets how it answers; every request is kept so
 * tests can check what the planner sent.
 */
type Handler = (request: http.IncomingMessage, body: string, response: http.ServerResponse) => void;

interface Received {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: { model: string; messages: Array<{ role: string; content: string }>; response_format: { type: string } };
}

const completion = (content: string) => JSON.stringify({
  id: 'chatcmpl-test',
  object: 'chat.completion',
  created: 0,
  model: 'test-model',
  choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
});

const answerWith = (content: string): Handler => (_request, _body, response) => {
  response.writeHead(200, { 'content-type': 'application/json' });
  response.end(completion(content));
};

describe('the OpenAI-compatible planner', () => {
  let server: http.Server;
  let baseUrl: string;
  let handler: Handler;
  let received: Received[];

  before(async () => {
    server = http.createServer((request, response) => {
      let body = '';
      request.setEncoding('utf8');
      request.on('data', (chunk: string) => (body += chunk));
      request.on('end', () => {
        received.push({ method: request.method ?? '', url: request.url ?? '', headers: request.headers, body: JSON.parse(body) as Received['body'] });
        handler(request, body, response);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  });
  after(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });
  beforeEach(() => {
    received = [];
    handler = answerWith('{}');
  });

  const options = (): OpenAIPlannerOptions => ({ apiKey: 'sk-test-key', baseUrl, model: 'test-model', timeoutMs: 2000 });
  const input = (prompt = 'show our pricing plans', outline = saasOutline()) => ({
    prompt,
    outline,
    durationTarget: '10s' as const,
    template: { id: 'auto' as const },
    mode: 'script' as const,
  });

  it('uses a valid answer: source ai, the model’s template, and the request carries the key, the model and the page', async () => {
    handler = answerWith(JSON.stringify({ templateId: 'pricing-focus', reason: 'The prompt asks about pricing.', confidence: 0.86 }));
    const plan = await planWithOpenAI(input(), options());
    assert.equal(plan.source, 'ai');
    assert.equal(plan.templateId, 'pricing-focus');
    assert.equal(plan.durationMs, 10_000);
    assert.equal(plan.autoSelection?.source, 'ai');
    assert.equal(plan.autoSelection?.selectedId, 'pricing-focus');
    assert.equal(plan.autoSelection?.confidence, 0.86);
    assert.equal(plan.autoSelection?.reason, 'The prompt asks about pricing.');
    autoSelectionSchema.parse(plan.autoSelection);
    // No steps in the answer: the template planned them.
    assert.ok(plan.steps.some((step) => step.action === 'scroll' && step.sectionId === 'pricing'));
    assertPlan(plan, saasOutline());

    assert.equal(received.length, 1);
    const [request] = received;
    assert.equal(request!.method, 'POST');
    assert.equal(request!.url, '/v1/chat/completions');
    assert.equal(request!.headers.authorization, 'Bearer sk-test-key');
    assert.equal(request!.body.model, 'test-model');
    assert.deepEqual(request!.body.response_format, { type: 'json_object' });
    assert.equal(request!.body.messages[0]!.role, 'system');
    assert.match(request!.body.messages[0]!.content, /pricing-focus/);
    const user = JSON.parse(request!.body.messages[1]!.content) as { prompt: string; outline: { sections: Array<{ id: string }> } };
    assert.equal(user.prompt, 'show our pricing plans');
    assert.ok(user.outline.sections.some((section) => section.id === 'integrations'), 'the model sees the sections');
    assert.ok(request!.body.messages[1]!.content.length < 6000, 'the outline is trimmed (no selectors or rects)');
    assert.doesNotMatch(request!.body.messages[1]!.content, /fallbackSelectors|"rect"/);
  });

  it('says which beats the page does not have, as the offline planner does', async () => {
    handler = answerWith(JSON.stringify({ templateId: 'pricing-focus', reason: 'The prompt asks about pricing.', confidence: 0.8 }));
    const plan = await planWithOpenAI(input('Show the product roadmap, then end on the pricing'), options());
    assert.equal(plan.source, 'ai');
    assert.deepEqual(plan.notFound?.map((missing) => missing.clause), ['the product roadmap']);
  });

  it('maps the model’s own steps onto the page; a click that would leave the page becomes a hover', async () => {
    handler = answerWith(
      '```json\n' +
        JSON.stringify({
          templateId: 'section-focus',
          sectionHint: 'Integrations',
          reason: 'The prompt names the Integrations section.',
          confidence: 0.9,
          steps: [
            { action: 'scroll', sectionId: 'integrations', label: 'Go to Integrations' },
            { action: 'focus', sectionId: 'integrations', label: 'Look at the integrations' },
            { action: 'hover', targetLabel: 'browse integrations', label: 'Hover the button' },
            { action: 'click', targetLabel: 'Get started', label: 'Click get started' },
            { action: 'type', targetLabel: 'Work email', text: 'ada@example.com', label: 'Type an email' },
            { action: 'pause', label: 'Hold' },
          ],
        }) +
        '\n```',
    );
    const outline = saasOutline();
    const plan = await planWithOpenAI(input('focus on the Integrations section', outline), options());
    assert.equal(plan.source, 'ai');
    assert.equal(plan.templateId, 'section-focus');
    assert.equal(plan.sectionHint, 'Integrations');
    assert.deepEqual(plan.steps.map((step) => step.action), ['scroll', 'focus', 'hover', 'hover', 'type', 'pause']);
    const scroll = plan.steps[0] as Extract<PlanStep, { action: 'scroll' }>;
    assert.equal(scroll.toY, 1920 - 72 - 16, 'the position comes from the outline, not the model');
    assert.equal((plan.steps[3] as Extract<PlanStep, { action: 'hover' }>).target.selector, '#hero a.cta-primary');
    assertPlan(plan, outline);
    assertScript(compileScript(plan, outline, { url: outline.url, viewport: 'desktop' }), outline, 10_000, 'ai steps');
  });

  it('keeps a template the user chose, whatever the model answers', async () => {
    handler = answerWith(JSON.stringify({ templateId: 'cinematic', reason: 'Looks nice.', confidence: 0.5 }));
    const plan = await planWithOpenAI({ ...input(), template: { id: 'proof-scroll' } }, options());
    assert.equal(plan.source, 'ai');
    assert.equal(plan.templateId, 'proof-scroll');
    assert.equal(plan.autoSelection, null);
    assert.match(JSON.parse(received[0]!.body.messages[1]!.content).template as string, /fixed: proof-scroll/);
  });

  async function expectFallback(why: RegExp, options_: OpenAIPlannerOptions = options()) {
    const warnings: string[] = [];
    const plan = await planWithOpenAI(input(), { ...options_, logger: { warn: (details) => warnings.push(JSON.stringify(details)) } });
    assert.equal(plan.source, 'fallback');
    assert.equal(plan.templateId, 'pricing-focus', 'the heuristic still reads the prompt');
    assert.equal(plan.autoSelection?.source, 'fallback');
    assert.equal(plan.autoSelection?.selectedId, 'pricing-focus');
    assert.match(plan.autoSelection!.reason, why);
    autoSelectionSchema.parse(plan.autoSelection);
    assertPlan(plan, saasOutline());
    assert.equal(warnings.length, 1, 'the fallback is logged');
    return plan;
  }

  it('falls back to the heuristic on an HTTP error', async () => {
    handler = (_request, _body, response) => {
      response.writeHead(500, { 'content-type': 'application/json' });
      response.end('{"error":{"message":"overloaded"}}');
    };
    await expectFallback(/HTTP 500/);
  });

  it('falls back on an answer that is not JSON', async () => {
    handler = answerWith('Sure! I would pick the pricing template because…');
    await expectFallback(/not valid JSON/);
  });

  it('falls back on a response that is not a chat completion', async () => {
    handler = (_request, _body, response) => {
      response.writeHead(200, { 'content-type': 'text/html' });
      response.end('<html>proxy login</html>');
    };
    await expectFallback(/not JSON/);
  });

  it('falls back on JSON of the wrong shape, an unknown template or an unknown section', async () => {
    handler = answerWith(JSON.stringify({ templateId: 'pricing-focus', reason: 'x', confidence: 7 }));
    await expectFallback(/expected shape \(confidence/);
    handler = answerWith(JSON.stringify({ templateId: 'slideshow', reason: 'x', confidence: 0.5 }));
    await expectFallback(/expected shape \(templateId/);
    handler = answerWith(
      JSON.stringify({ templateId: 'pricing-focus', reason: 'x', confidence: 0.5, steps: [{ action: 'scroll', sectionId: 'plans-2', label: 'go' }] }),
    );
    await expectFallback(/section "plans-2" that is not on the page/);
    handler = answerWith(
      JSON.stringify({ templateId: 'pricing-focus', reason: 'x', confidence: 0.5, steps: [{ action: 'hover', targetLabel: 'Buy now', label: 'hover' }] }),
    );
    await expectFallback(/target "Buy now" that is not on the page/);
  });

  it('falls back when the API never answers, after the timeout', async () => {
    handler = () => {
      // Never answers; the connection is closed when the suite ends.
    };
    const started = Date.now();
    await expectFallback(/timed out after 0.3 s/, { ...options(), timeoutMs: 300 });
    const elapsed = Date.now() - started;
    assert.ok(elapsed >= 250 && elapsed < 3000, `gave up after ${elapsed} ms`);
  });

  it('falls back when nothing listens', async () => {
    await expectFallback(/request failed/, { ...options(), baseUrl: 'http://127.0.0.1:9/v1' });
  });

  it('is what createPlanner builds from SHOWREEL_PLANNER=openai; the default is the heuristic', async () => {
    handler = answerWith(JSON.stringify({ templateId: 'guided-tour', reason: 'A tour.', confidence: 0.7 }));
    const config = loadConfig({ SHOWREEL_PLANNER: 'openai', OPENAI_API_KEY: 'sk-from-env', OPENAI_BASE_URL: baseUrl, OPENAI_MODEL: 'llama3.1' });
    const planner = createPlanner(config);
    assert.equal(planner.kind, 'openai');
    const plan = await planner.plan(input('a tour of the docs', docsOutline()));
    assert.equal(plan.source, 'ai');
    assert.equal(plan.templateId, 'guided-tour');
    assert.equal(received[0]!.headers.authorization, 'Bearer sk-from-env');
    assert.equal(received[0]!.body.model, 'llama3.1');

    const defaults = loadConfig({});
    assert.equal(defaults.SHOWREEL_PLANNER, 'heuristic');
    assert.equal(defaults.OPENAI_BASE_URL, 'https://api.openai.com/v1');
    assert.equal(defaults.OPENAI_MODEL, 'gpt-4o-mini');
    const heuristic = createPlanner(defaults);
    assert.equal(heuristic.kind, 'heuristic');
    assert.equal((await heuristic.plan(input())).source, 'heuristic');
  });
});
