"""Which snapshots bisection evaluates (pure: outcomes given as a list, no tests run)."""

from __future__ import annotations

import random
from itertools import pairwise

import pytest

from realcli.progress import choose_snapshots, grid_indices


def _changes(outcomes: dict[int, frozenset[str]], goal: str) -> list[tuple[int, bool]]:
    """(index, holds) at each change of ``goal`` between consecutive evaluated snapshots."""
    done = sorted(outcomes)
    return [
        (b, goal in outcomes[b])
        for a, b in pairwise(done)
        if (goal in outcomes[a]) != (goal in outcomes[b])
    ]


@pytest.mark.parametrize(
    ("n", "grid", "want"),
    [(1, 8, [0]), (2, 8, [0, 1]), (10, 0, [0, 9]), (10, 2, [0, 3, 6, 9]), (5, 8, [0, 1, 2, 3, 4])],
)
def test_grid_indices(n: int, grid: int, want: list[int]) -> None:
    assert grid_indices(n, grid) == want


def test_exhaustive_evaluates_every_snapshot() -> None:
    seen: list[int] = []
    choose_snapshots(7, 2, lambda i: seen.append(i) or frozenset(), exhaustive=True)  # type: ignore[func-returns-value]
    assert sorted(seen) == list(range(7))


def test_no_change_costs_only_the_grid() -> None:
    outcomes = choose_snapshots(100, 8, lambda i: frozenset({"p2p"}))
    assert sorted(outcomes) == grid_indices(100, 8)


@pytest.mark.parametrize("seed", range(40))
def test_bisection_finds_every_change_it_can_see(seed: int) -> None:
    """A goal that changes once is placed exactly; one that passes and breaks again (or the
    reverse) is placed exactly whenever some evaluated snapshot lies inside its window."""
    rng = random.Random(seed)
    n = rng.randint(2, 80)
    windows = {f"g{k}": sorted(rng.sample(range(n + 3), 2)) for k in range(rng.randint(1, 6))}
    for k in range(rng.randint(0, 3)):
        windows[f"once{k}"] = [rng.randint(0, n + 2), n + 3]  # passes, never breaks
    truth = [frozenset(g for g, (on, off) in windows.items() if on <= i < off) for i in range(n)]
    calls: list[int] = []

    def outcome_of(i: int) -> frozenset[str]:
        calls.append(i)
        return truth[i]

    found = choose_snapshots(n, rng.randint(0, 8), outcome_of)
    exhaustive = dict(enumerate(truth))
    assert len(calls) == len(set(calls))  # no snapshot evaluated twice
    for goal, (on, off) in windows.items():
        seen_inside = any(on <= i < off for i in found)
        once = off >= n or on == 0
        if once or seen_inside:
            assert _changes(found, goal) == _changes(exhaustive, goal), goal
        else:  # the blip fell between two evaluated snapshots that agree on it
            assert _changes(found, goal) == [], goal


def test_a_blip_between_agreeing_grid_points_is_missed_by_design() -> None:
    truth = [frozenset({"s1"}) for _ in range(20)]
    truth[7] = frozenset()  # breaks at 7, restored at 8: both grid neighbours (0, 19) agree
    found = choose_snapshots(20, 0, lambda i: truth[i])
    assert sorted(found) == [0, 19]
    every = choose_snapshots(20, 0, lambda i: truth[i], exhaustive=True)
    assert _changes(every, "s1") == [(7, False), (8, True)]


def test_adjacent_disagreeing_snapshots_are_always_resolved() -> None:
    rng = random.Random(7)
    truth = [frozenset(f"g{k}" for k in range(4) if rng.random() < 0.5) for _ in range(60)]
    found = choose_snapshots(60, 3, lambda i: truth[i])
    done = sorted(found)
    for a, b in pairwise(done):
        assert b == a + 1 or found[a] == found[b]
