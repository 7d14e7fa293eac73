import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../helpers/app.js';

describe('GET /api/v1/openapi.json', () => {
  let app: TestApp;
  let document: any;

  before(async () => {
    app = await startTestApp();
    const response = await app.api('/api/v1/openapi.json');
    assert.equal(response.status, 200);
    document = response.body;
  });
  after(() => app.stop());

  it('is OpenAPI 3.1.0, interface version 1.0.0, one server (the site) and every API path under /api/v1', () => {
    assert.equal(document.openapi, '3.1.0');
    assert.equal(document.info.version, '1.0.0');
    assert.deepEqual(document.servers.map((s: any) => s.url), [app.url.replace('127.0.0.1', 'localhost')]);
    assert.ok(document.paths['/api/v1/projects'].get);
    assert.equal(document.paths['/projects'], undefined);
    for (const item of Object.values<any>(document.paths)) assert.equal(item.servers, undefined);
  });

  it('describes every endpoint implemented so far with its real success status', () => {
    const expected: Array<[string, string, string]> = [
      ['get', '/api/v1/projects', '200'],
      ['post', '/api/v1/projects', '201'],
      ['get', '/api/v1/projects/{id}', '200'],
      ['patch', '/api/v1/projects/{id}', '200'],
      ['post', '/api/v1/projects/{id}/refresh', '200'],
      ['get', '/api/v1/projects/{id}/signing-secret', '200'],
      ['post', '/api/v1/projects/{id}/signing-secret/rotate', '200'],
      ['post', '/api/v1/api-keys', '201'],
      ['get', '/api/v1/api-keys', '200'],
      ['post', '/api/v1/auth/sign-up', '201'],
      ['post', '/api/v1/auth/sign-in', '200'],
      ['post', '/api/v1/auth/sign-out', '200'],
      ['post', '/api/v1/demos', '202'],
      ['get', '/api/v1/demos', '200'],
      ['get', '/api/v1/demos/{id}', '200'],
      ['patch', '/api/v1/demos/{id}', '200'],
      ['delete', '/api/v1/demos/{id}', '200'],
      ['post', '/api/v1/demos/{id}/refresh', '202'],
      ['post', '/api/v1/demos/{id}/restyle', '202'],
      ['get', '/api/v1/demos/{id}/progress', '200'],
      ['post', '/api/v1/demos/local-upload', '201'],
      ['post', '/api/v1/demos/{id}/local-assets', '201'],
      ['post', '/api/v1/webhooks/projects/{projectId}/refresh', '200'],
      ['get', '/api/v1/credits', '200'],
      ['get', '/api/v1/credits/auto-topoff', '200'],
      ['get', '/api/v1/backgrounds', '200'],
      ['post', '/api/v1/backgrounds/upload', '201'],
    ];
    for (const [method, path, status] of expected) {
      const operation = document.paths[path]?.[method];
      assert.ok(operation, `${method.toUpperCase()} ${path} is documented`);
      assert.ok(operation.responses[status]?.content?.['application/json']?.schema, `${method} ${path} documents ${status} with a schema`);
      assert.ok(operation.responses['400'] || operation.responses['401'] || operation.responses['404'], `${method} ${path} documents its errors`);
      if (status !== '200') assert.equal(operation.responses['200'], undefined);
    }
  });

  it('documents request bodies with their bounds', () => {
    const schema = document.paths['/api/v1/projects'].post.requestBody.content['application/json'].schema;
    assert.deepEqual(schema.required, ['name', 'url']);
    assert.equal(schema.properties.name.maxLength, 100);
    assert.deepEqual(schema.properties.viewport.enum, ['desktop', 'mobile', 'tablet']);
  });

  it('documents every error response as {"error": string}', () => {
    assert.deepEqual(document.components.schemas.Error.required, ['error']);
    let errors = 0;
    for (const item of Object.values<any>(document.paths)) {
      for (const [method, operation] of Object.entries<any>(item)) {
        if (method === 'servers') continue;
        for (const [status, response] of Object.entries<any>(operation.responses)) {
          if (Number(status) < 400) continue;
          errors++;
          assert.equal(response.content['application/json'].schema.$ref, '#/components/schemas/Error');
        }
      }
    }
    assert.ok(errors > 10);
    assert.ok(document.paths['/api/v1/projects'].post.responses['400']);
    assert.ok(document.paths['/api/v1/projects/{id}'].patch.responses['404']);
  });

  it('adds the endpoints served outside tRPC: uploads, media, pages, oEmbed', () => {
    const upload = document.paths['/api/v1/demos/local-upload'].post;
    assert.ok(upload.requestBody.content['video/mp4']);
    for (const status of ['400', '401', '403', '404', '411', '413', '415', '429']) assert.ok(upload.responses[status], status);
    for (const path of ['/video/{file}', '/thumb/{file}', '/gif/{file}', '/share/{id}', '/embed/{id}', '/oembed']) {
      assert.ok(document.paths[path]?.get, `${path} is documented from the site root`);
    }
  });

  it('describes both embed operations with every status of the spec and the body limits', () => {
    const generate = document.paths['/api/v1/embed/generate'].post;
    for (const status of ['200', '202', '400', '401', '403', '404', '429']) assert.ok(generate.responses[status], `generate ${status}`);
    assert.ok(generate.responses['200'].content['application/json'].schema.required.includes('cached'));
    const body = generate.requestBody.content['application/json'].schema;
    assert.deepEqual(body.required, ['project_id']);
    assert.equal(body.properties.prompt.maxLength, 500);
    assert.equal(body.properties.section.maxLength, 120);
    assert.equal(body.properties.context.properties.title.maxLength, 200);
    assert.equal(body.properties.context.properties.headings.items.maxLength, 200);
    assert.equal(body.properties.context.properties.description.maxLength, 500);
    const runtime = document.paths['/api/v1/embed/runtime'].get;
    for (const status of ['200', '202', '400', '401', '404', '429']) assert.ok(runtime.responses[status], `runtime ${status}`);
    assert.deepEqual(runtime.parameters.filter((p: any) => p.required).map((p: any) => p.name), ['project_id', 'expires', 'signature']);
  });

  it('gives every operation what /docs shows a developer: a description, resource tags, a request and a response example', () => {
    const tags = new Map<string, string>(document.tags.map((t: any) => [t.name, t.description]));
    for (const tag of ['Projects', 'Demos', 'Credits', 'API keys', 'Usage', 'Backgrounds', 'Embeds']) assert.ok(tags.get(tag), `tag ${tag} is described`);
    const missing: string[] = [];
    for (const [path, item] of Object.entries<any>(document.paths)) {
      for (const [method, operation] of Object.entries<any>(item)) {
        const name = `${method.toUpperCase()} ${path}`;
        if (!(operation.description?.length > operation.summary.length / 2)) missing.push(`${name}: description`);
        if (!(operation.tags?.length > 0 && operation.tags.every((t: string) => tags.has(t)))) missing.push(`${name}: tags`);
        // The request: a curl sample always; the body's example wherever the body is JSON or a form.
        if (!/^curl /.test(operation['x-codeSamples']?.[0]?.source ?? '')) missing.push(`${name}: curl sample`);
        for (const [type, media] of Object.entries<any>(operation.requestBody?.content ?? {})) {
          if (/json|urlencoded/.test(type) && media.example === undefined) missing.push(`${name}: ${type} request example`);
        }
        // The answers: every JSON or text body has an example (binary files have none to give), errors included.
        for (const [status, response] of Object.entries<any>(operation.responses)) {
          for (const [type, media] of Object.entries<any>(response.content ?? {})) {
            if (/json|text/.test(type) && media.example === undefined) missing.push(`${name}: ${status} ${type} example`);
          }
        }
      }
    }
    assert.deepEqual(missing, []);
    // A sample a developer can paste: the credential from the environment, the example body.
    const create = document.paths['/api/v1/projects'].post;
    assert.match(create['x-codeSamples'][0].source, /-H "Authorization: Bearer \$SHOWREEL_API_KEY"/);
    assert.match(create['x-codeSamples'][0].source, /-d '\{"name":"Acme store"/);
    assert.equal(create.requestBody.content['application/json'].example.name, 'Acme store');
  });

  it('keeps the internal admin procedures off the public document', () => {
    assert.ok(Object.keys(document.paths).every((path) => !path.includes('admin')));
  });
});
