-- Issue 59: a cut (a 9:16 or 1:1 variant) added to a demo later, without recording again, is composed from the
-- capture of the version shown. capture_key: where that version's capture is kept (the clean capture, its still
-- layers and timeline, under the version's own prefix: `demos/<id>/v<N>/capture/`); null for versions made before
-- captures were kept (they cannot be cut again without a new recording) and for uploads. from_capture: a restyle
-- job that makes its cuts from the stored capture (no browser, no recording, no credit). Read model of the demo
-- streams (rebuilt by replay).
alter table demos add column capture_key text;
alter table demo_versions add column capture_key text;
alter table demo_jobs add column from_capture boolean not null default false;
