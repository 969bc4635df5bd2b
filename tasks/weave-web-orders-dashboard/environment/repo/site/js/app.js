/* Orders dashboard: loads the month's orders from the API and renders the cards and table. */
(function () {
  "use strict";
  var T = window.Totals;

  function cell(text, className) {
    var td = document.createElement("td");
    td.textContent = text;
    if (className) td.className = className;
    return td;
  }

  function showToast(message) {
    var toast = document.createElement("div");
    toast.className = "toast";
    toast.textContent = message;
    document.getElementById("toasts").appendChild(toast);
    setTimeout(function () { toast.remove(); }, 3000);
  }

  function renderTable(orders) {
    var body = document.querySelector("#orders tbody");
    body.textContent = "";
    orders.forEach(function (order) {
      var tr = document.createElement("tr");
      var items = order.items.map(function (it) { return it.qty + "\u00d7 " + it.product; });
      tr.appendChild(cell(order.id));
      tr.appendChild(cell(order.date));
      tr.appendChild(cell(order.customer));
      tr.appendChild(cell(items.join(", ")));
      tr.appendChild(cell(T.formatMoney(order.total), "num"));
      var status = cell("");
      var badge = document.createElement("span");
      badge.className = "status status-" + order.status;
      badge.textContent = order.status;
      status.appendChild(badge);
      tr.appendChild(status);
      body.appendChild(tr);
    });
  }

  function render(data) {
    var totals = T.computeTotals(data.orders);
    document.getElementById("kpi-orders").textContent = totals.orders;
    document.getElementById("kpi-revenue").textContent = T.formatMoney(totals.revenue);
    document.getElementById("kpi-refunded").textContent = totals.refunded;
    renderTable(data.orders);
    showToast("Loaded " + data.orders.length + " orders");
  }

  fetch("/api/orders.json")
    .then(function (response) { return response.json(); })
    .then(render)
    .catch(function (err) { showToast("Could not load orders: " + err); });
})();
