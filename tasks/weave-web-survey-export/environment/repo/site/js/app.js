/* Tree survey: list what this browser holds (no network needed). */
(function () {
  "use strict";
  var rows = document.getElementById("rows");
  SurveyDB.all().then(function (records) {
    var pending = 0;
    records.forEach(function (r) {
      if (!r.synced) pending += 1;
      var tr = document.createElement("tr");
      [r.id, r.species, r.dbh_cm === null ? "-" : String(r.dbh_cm), r.synced ? "yes" : "no"].forEach(function (text, i) {
        var td = document.createElement("td");
        td.textContent = text;
        if (i === 2) td.className = "num";
        tr.appendChild(td);
      });
      rows.appendChild(tr);
    });
    document.getElementById("status").textContent =
      records.length + " observations in this browser, " + pending + " not synced.";
  });
})();
