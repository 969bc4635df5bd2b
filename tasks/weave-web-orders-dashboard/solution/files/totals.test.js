// node --test tests/
const test = require("node:test");
const assert = require("node:assert");
const { computeTotals, formatMoney } = require("../site/js/totals.js");

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

test("API totals are decimal strings: they are added, not concatenated", () => {
  const t = computeTotals([
    { id: "A", total: "187.10", status: "paid" },
    { id: "B", total: "64.99", status: "delivered" },
  ]);
  assert.strictEqual(typeof t.revenue, "number");
  assert.ok(Math.abs(t.revenue - 252.09) < 1e-9, String(t.revenue));
});

test("refunded orders (lowercase status from the API) are left out", () => {
  const t = computeTotals([
    { id: "A", total: "10.00", status: "refunded" },
    { id: "B", total: "5.25", status: "shipped" },
  ]);
  assert.deepStrictEqual(t, { orders: 1, revenue: 5.25, refunded: 1 });
});

test("money: dollars, thousands separators, two decimals", () => {
  assert.strictEqual(formatMoney(6072.399999999998), "$6,072.40");
  assert.strictEqual(formatMoney(0.1 + 0.2), "$0.30");
  assert.strictEqual(formatMoney(5), "$5.00");
  assert.strictEqual(formatMoney("187.10"), "$187.10");
});
