import { describeRecordedTemplates, FOCUSED_TEMPLATES } from './recorded-templates.js';

describeRecordedTemplates('recording templates, recorded (the focused ones)', FOCUSED_TEMPLATES, { withAgent: false });
