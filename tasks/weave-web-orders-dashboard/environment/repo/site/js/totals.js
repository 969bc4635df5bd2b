/* Dashboard arithmetic: usable in the browser (window.Totals) and in Node (require). */
(function (root, factory) {
  if (typeof module === "object" && module.exports) {
    module.exports = factory();
  } else {
    root.Totals = factory();
  }
})(typeof self !== "undefined" ? self : this, function () {
  "use strict";

  var REFUNDED = "Refunded";

  /** Orders and revenue of the month; refunded orders are only counted in `refunded`. */
  function computeTotals(orders) {
    var result = { orders: 0, revenue: 0, refunded: 0 };
    orders.forEach(function (order) {
      if (order.status === REFUNDED) {
        result.refunded += 1;
        return;
      }
      result.orders += 1;
      result.revenue += order.total;
    });
    return result;
  }

  /** An amount in US dollars, e.g. 12345.6 -> "$12,345.60". */
  function formatMoney(value) {
    return "$" + value;
  }

  return { computeTotals: computeTotals, formatMoney: formatMoney };
});
