-- A task may have no P2P set (task.toml `p2p = false`): its rounds have no P2P values.
alter table rounds alter column p2p_total drop not null;
alter table rounds alter column p2p_passed drop not null;
alter table rounds alter column p2p_pass drop not null;
alter table rounds alter column p2p_step drop not null;
