import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import v8 from 'node:v8';
import { settleDriverClasses } from '../../src/platform/driver-classes.js';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';

// V8's own view of an object's properties; the flag only lets this file's Function bodies ask for it.
v8.setFlagsFromString('--allow-natives-syntax');
const hasFastProperties = new Function('object', 'return %HasFastProperties(object)') as (object: unknown) => boolean;

/**
 * The API process settles postgres.js's Query and Result classes once it has a database (see settleDriverClasses):
 * while their constructors keep dictionary properties, TurboFan throws away every compile of the functions that
 * build queries and answers, over and over, and the API process spends its CPU on that instead of requests.
 */
describe('settling the driver classes', () => {
  let database: TestDatabase;

  before(async () => {
    database = await createTestDatabase();
  });
  after(() => database.drop());

  it('leaves the constructors of every statement and every answer with fast properties', async () => {
    const query = database.sql`select 1 as answer`;
    const result = await query;
    const before = { query: hasFastProperties(query.constructor), result: hasFastProperties(result.constructor) };

    await settleDriverClasses(database.sql);

    assert.equal(hasFastProperties(query.constructor), true, `Query: fast before settling: ${before.query}`);
    assert.equal(hasFastProperties(result.constructor), true, `Result: fast before settling: ${before.result}`);
    // The driver still answers as before.
    assert.deepEqual([...(await database.sql`select 2 as answer`)], [{ answer: 2 }]);
  });
});
