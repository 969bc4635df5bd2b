/* Expense drafts 2.0: show the drafts kept in this browser's localStorage. */
(function () {
  "use strict";
  var M = window.ExpenseMigrate;

  function money(cents) {
    return "$" + (cents / 100).toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 });
  }

  function load() {
    var stored = localStorage.getItem(M.V2_KEY);
    if (stored !== null) {
      return { store: JSON.parse(stored), migrated: false };
    }
    var old = localStorage.getItem(M.V1_KEY);
    if (old === null) {
      return { store: { version: 2, drafts: [] }, migrated: false };
    }
    var store = M.migrateV1(old);
    localStorage.setItem(M.V2_KEY, JSON.stringify(store));
    return { store: store, migrated: true };
  }

  function render(store) {
    var rows = document.getElementById("rows");
    var total = 0;
    rows.textContent = "";
    store.drafts.forEach(function (d) {
      var tr = document.createElement("tr");
      [d.date, d.category, d.note, money(d.amount_cents)].forEach(function (text, i) {
        var td = document.createElement("td");
        td.textContent = text;
        if (i === 3) td.className = "num";
        tr.appendChild(td);
      });
      rows.appendChild(tr);
      total += d.amount_cents;
    });
    document.getElementById("count").textContent = String(store.drafts.length);
    document.getElementById("total").textContent = money(total);
  }

  var status = document.getElementById("status");
  try {
    var result = load();
    render(result.store);
    status.textContent = result.migrated
      ? "Restored " + result.store.drafts.length + " drafts from 1.x."
      : result.store.drafts.length ? "" : "No drafts yet.";
  } catch (err) {
    status.className = "status error";
    status.textContent = "Could not restore your 1.x drafts: " + err.message;
  }
})();
