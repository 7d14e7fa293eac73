-- Change-aware refresh (issue 37). Each version keeps the fingerprint of what it shows (per shot: heading, normalised
-- text, key figures, perceptual hash; the script's interactive targets), JSON written by the pipeline, so the next
-- scheduled or webhook refresh can compare the page against it before recording anything. A job keeps the change
-- summary it found (`changes`, a JSON array of sentences) and whether it was asked to re-record whatever it finds
-- (`force`). A job that found nothing changed ends with status `unchanged`. Read model of the demo streams.
alter table demo_versions add column fingerprint text;
alter table demo_jobs add column changes text;
alter table demo_jobs add column force boolean not null default false;
