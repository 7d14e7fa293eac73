-- An append now checks its stream's version in its own statement (src/platform/event-store/append-to-stream.ts:
-- the new version is read from the expected version's row, and a missing row fails the insert's NOT NULL), which
-- costs PostgreSQL less than a PL/pgSQL call per append. Nothing calls this function any more.
drop function if exists events_check_version(text, integer);
