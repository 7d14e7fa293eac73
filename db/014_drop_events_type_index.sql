-- No query reads events by type (streams are read by stream_id, the log by position or transaction order, the
-- credits audit by stream prefix), yet every append paid for this index: one more B-tree insert per event (its
-- effect on bench:api was within the machine's noise, see docs/decisions.md).
drop index if exists events_type;
