// node --test tests/
const test = require("node:test");
const assert = require("node:assert");
const { computeTotals } = require("../site/js/totals.js");

test("no orders", () => {
  assert.deepStrictEqual(computeTotals([]), { orders: 0, revenue: 0, refunded: 0 });
});

test("counts and sums orders", () => {
  const t = computeTotals([
    { id: "A", total: 12.5, status: "paid" },
    { id: "B", total: 7.5, status: "shipped" },
  ]);
  assert.strictEqual(t.orders, 2);
  assert.strictEqual(t.revenue, 20);
});
