-- 007_grading_tampered: grading that the code under test interfered with (realcli.grading.guard).
-- A tampered round never passes; its reasons are the signals that disagreed.

alter table runs add column tampered boolean;            -- some round's grading was tampered with
alter table rounds add column tampered_reasons varchar[]; -- empty: the round's grading can be trusted
alter table test_results add column tampered boolean;    -- the result belongs to a tampered test set
