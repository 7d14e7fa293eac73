-- Issue 55: what the prompt asked for that the page did not have, one sentence each ("Couldn't find “the roadmap” on
-- this page; …"), as a JSON array; kept per version so a restored version says its own. Null: recorded before issue
-- 55, or an upload (no plan). Read model of the demo streams (rebuilt by replay).
alter table demos add column warnings text;
alter table demo_versions add column warnings text;
