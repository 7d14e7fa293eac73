-- Captions and chapters (issue 36): each version's chapters and captions, timed by its recording (JSON: language,
-- chapters, captions, captionsOff), served as WebVTT at /chapters/<id>.vtt and /captions/<id>.vtt. Kept per version
-- so `?v=N` and a restored version show their own; the demo's is the version it shows. Null: recorded before issue
-- 36, or an upload (no plan to take the words from). Read model of the demo streams (rebuilt by replay).
alter table demos add column story text;
alter table demo_versions add column story text;
