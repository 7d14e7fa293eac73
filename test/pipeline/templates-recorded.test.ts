import assert from 'node:assert/strict';
import { it } from 'node:test';
import { describeRecordedTemplates, everyTemplateCovered, TOURING_TEMPLATES } from './recorded-templates.js';

it('records every template between this file and templates-recorded-focused', () => assert.ok(everyTemplateCovered()));
describeRecordedTemplates('recording templates, recorded (agent mode and the touring ones)', TOURING_TEMPLATES, { withAgent: true });
