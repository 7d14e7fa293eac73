-- A precondition a command sends with its writes (e.g. "the project is visible to the caller") as a statement that
-- fails, not one that returns no row: a command that sends COMMIT in the same round trip as its writes cannot
-- look at a row before COMMIT runs, but a failed statement aborts the transaction, so COMMIT only rolls back.
-- SQLSTATE SR404 names what was not found in DETAIL.
create function require_found(p_found boolean, p_what text) returns void
language plpgsql as $$
begin
  if p_found is not true then
    raise exception '% not found', p_what using errcode = 'SR404', detail = p_what;
  end if;
end
$$;
