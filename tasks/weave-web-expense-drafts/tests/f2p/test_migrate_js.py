"""site/js/migrate.js on hidden 1.x stores (the format Dana's browser holds)."""

from __future__ import annotations

from _node import migrate

ITEMS = [
    {"id": 31, "d": "28/02/2027", "amt": "3,480.25", "cat": "TRV", "memo": "Flights"},
    {"id": 4, "d": "05/03/2027", "amt": 12.5, "cat": "MEA", "memo": "Sandwich"},
    {"id": 12, "d": "09/01/2027", "amt": "19.99", "cat": "OFF"},
    {"id": 13, "d": "10/01/2027", "amt": "50.00", "cat": "MEA", "memo": "x", "deleted": True},
    {"id": 7, "d": "05/03/2027", "amt": "1,000", "cat": "PRK", "memo": "Parking"},
]


def drafts():
    store = migrate(ITEMS)
    assert store.get("version") == 2, store
    return {d["id"]: d for d in store["drafts"]}, store["drafts"]


def test_dates_are_day_first():
    by_id, _ = drafts()
    assert by_id["v1-31"]["date"] == "2027-02-28"
    assert by_id["v1-4"]["date"] == "2027-03-05"  # 5 March, not 3 May
    assert by_id["v1-12"]["date"] == "2027-01-09"


def test_amounts_in_cents():
    by_id, _ = drafts()
    assert by_id["v1-31"]["amount_cents"] == 348025
    assert by_id["v1-4"]["amount_cents"] == 1250
    assert by_id["v1-12"]["amount_cents"] == 1999
    assert by_id["v1-7"]["amount_cents"] == 100000


def test_deleted_drafts_dropped():
    by_id, all_drafts = drafts()
    assert "v1-13" not in by_id
    assert len(all_drafts) == 4


def test_categories_notes_and_order():
    by_id, all_drafts = drafts()
    assert [by_id[k]["category"] for k in ("v1-31", "v1-4", "v1-12", "v1-7")] == [
        "travel",
        "meals",
        "office",
        "other",
    ]
    assert by_id["v1-12"]["note"] == ""
    assert by_id["v1-7"]["note"] == "Parking"
    assert [d["id"] for d in all_drafts] == ["v1-12", "v1-31", "v1-4", "v1-7"]
