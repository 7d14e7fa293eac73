-- The append's expected-version check as a statement that fails, not one that inserts nothing: a command can then
-- send COMMIT right behind its append (one round trip) and a stream that moved still aborts the transaction.
-- SQLSTATE SR409 carries the stream's actual version in DETAIL, for the ConcurrencyError.
create function events_check_version(p_stream_id text, p_expected integer) returns boolean
language plpgsql stable as $$
declare
  actual integer;
begin
  select coalesce(max(stream_version), 0) into actual from events where stream_id = p_stream_id;
  if actual <> p_expected then
    raise exception 'stream % is at version %, not %', p_stream_id, actual, p_expected
      using errcode = 'SR409', detail = actual::text;
  end if;
  return true;
end
$$;
