/* Finance verification widget (served by the API, not part of the site's repository).
 *
 * "Verify totals" compares the dashboard's Orders and Revenue cards with the ledger
 * (refunded orders never count) and, when both match exactly, issues a verification code.
 * The button must really be clickable: it checks that nothing covers it.
 */
(function () {
  "use strict";
  var SALT = "orders-2024-09:7c1e55";

  function fnv1a(text) {
    var h = 0x811c9dc5;
    for (var i = 0; i < text.length; i++) {
      h ^= text.charCodeAt(i);
      h = Math.imul(h, 0x01000193) >>> 0;
    }
    return h >>> 0;
  }

  function cents(decimalString) {
    var m = /^(\d+)\.(\d{2})$/.exec(decimalString);
    return parseInt(m[1], 10) * 100 + parseInt(m[2], 10);
  }

  function money(c) {
    var s = String(Math.floor(c / 100)).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
    return "$" + s + "." + String(c % 100).padStart(2, "0");
  }

  function show(ok, lines, code) {
    var box = document.getElementById("verify-result");
    box.hidden = false;
    box.className = ok ? "verify verify-ok" : "verify verify-fail";
    box.querySelector(".verify-title").textContent = ok
      ? "Totals verified against the ledger"
      : "Verification failed";
    box.querySelector(".verify-detail").textContent = lines.join(" ");
    var field = document.getElementById("verify-code");
    field.value = code || "";
    field.parentElement.hidden = !ok;
  }

  function covered(btn) {
    var r = btn.getBoundingClientRect();
    var hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    return !(hit && (hit === btn || btn.contains(hit)));
  }

  function verify(btn) {
    if (covered(btn)) {
      show(false, ["The Verify button is covered by another element."]);
      return;
    }
    fetch("/api/orders.json", { cache: "no-store" })
      .then(function (r) { return r.json(); })
      .then(function (data) {
        var kept = data.orders.filter(function (o) { return o.status !== "refunded"; });
        var total = kept.reduce(function (s, o) { return s + cents(o.total); }, 0);
        var shownOrders = (document.getElementById("kpi-orders").textContent || "").trim();
        var shownRevenue = (document.getElementById("kpi-revenue").textContent || "").trim();
        var problems = [];
        if (shownOrders !== String(kept.length)) {
          problems.push("The Orders card (" + shownOrders + ") does not match the ledger.");
        }
        if (shownRevenue !== money(total)) {
          problems.push("The Revenue card (" + shownRevenue + ") does not match the ledger.");
        }
        if (problems.length) {
          show(false, problems);
          return;
        }
        var h = fnv1a(SALT + "|" + kept.length + "|" + total).toString(16).toUpperCase();
        h = ("00000000" + h).slice(-8);
        show(true, ["Orders and revenue match."], "WV-" + h.slice(0, 4) + "-" + h.slice(4));
      })
      .catch(function (err) { show(false, ["Could not reach the ledger: " + err]); });
  }

  function init() {
    var btn = document.getElementById("verify-btn");
    if (btn) btn.addEventListener("click", function () { verify(btn); });
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
  else init();
})();
