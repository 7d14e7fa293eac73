import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import { describe, it } from 'node:test';
import { API_SCHEMA_FILE, generateApiTypes } from '../../scripts/generate-api-types.js';

describe('the CLI client types', () => {
  it('are generated from the current OpenAPI document (else run npm run generate:api-types)', async () => {
    assert.equal(await fs.readFile(API_SCHEMA_FILE, 'utf8'), await generateApiTypes(), 'src/cli/api-schema.ts is stale: run npm run generate:api-types');
  });
});
