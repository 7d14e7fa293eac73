-- Issue 59: the aspect variants made with a version (9:16, 1:1), each composed from the same recording as its 16:9
-- video: a JSON array of {aspect, videoKey, gifKey, thumbnailKey}, the keys under the version's own prefix. Null: no
-- variant (every version before issue 59, uploads). Read model of the demo streams (rebuilt by replay).
alter table demos add column variants text;
alter table demo_versions add column variants text;
