-- 005_never_started: runs that never started are infra errors with a typed reason, and their
-- fidelity check does not apply (neither ok nor a mismatch, so no rate averages them in).

alter table runs add column error_type varchar;   -- the verdict's typed reason of infra_error /
                                                  -- task_error (agent_not_started, ...); NULL: graded
alter table runs add column fidelity varchar;     -- ok | mismatch | not_applicable; NULL: the
                                                  -- harness keeps no native log
alter table fidelity add column applicable boolean;   -- false: the session made no model call
