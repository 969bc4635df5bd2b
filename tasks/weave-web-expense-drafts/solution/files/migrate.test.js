const test = require("node:test");
const assert = require("node:assert/strict");
const M = require("../site/js/migrate.js");

const raw = (items) => JSON.stringify({ v: 1, owner: "t", items });

test("1.x dates are day-first (en-GB)", () => {
  const s = M.migrateV1(raw([{ id: 1, d: "04/11/2026", amt: "1.00", cat: "TRV" }]));
  assert.equal(s.drafts[0].date, "2026-11-04");
});

test("amounts: thousands separators and plain numbers, in cents", () => {
  const s = M.migrateV1(raw([
    { id: 1, d: "01/01/2026", amt: "1,204.00", cat: "TRV" },
    { id: 2, d: "02/01/2026", amt: 18.9, cat: "MEA" },
  ]));
  assert.deepEqual(s.drafts.map((d) => d.amount_cents), [120400, 1890]);
});

test("deleted drafts are dropped; codes, notes and order", () => {
  const s = M.migrateV1(raw([
    { id: 9, d: "02/12/2026", amt: 64, cat: "LDG" },
    { id: 5, d: "13/11/2026", amt: "35.00", cat: "MEA", memo: "x", deleted: true },
    { id: 2, d: "02/12/2026", amt: "7.10", cat: "OFF", memo: "Pens" },
  ]));
  assert.deepEqual(s, { version: 2, drafts: [
    { id: "v1-2", date: "2026-12-02", amount_cents: 710, category: "office", note: "Pens" },
    { id: "v1-9", date: "2026-12-02", amount_cents: 6400, category: "other", note: "" },
  ] });
});
