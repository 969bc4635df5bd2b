/* GIS team's export check (served by the dev server, not part of the site). On "Check
   export" it compares the workspace's out/unsynced.geojson with this browser's IndexedDB. */
(function () {
  "use strict";
  var SALT = "tree-survey-2026";
  var panel = document.getElementById("check-result");
  function show(ok, message, code) {
    panel.hidden = false;
    panel.className = "check " + (ok ? "ok" : "fail");
    document.getElementById("check-text").textContent = message;
    document.getElementById("check-code").value = code || "";
  }
  function hex(buf) {
    return Array.prototype.map.call(new Uint8Array(buf), function (b) {
      return b.toString(16).padStart(2, "0");
    }).join("");
  }
  function iso(ms) { return new Date(ms).toISOString().replace(/\.\d{3}Z$/, "Z"); }
  function close(a, b) { return typeof a === "number" && Math.abs(a - b) < 1e-6; }

  document.getElementById("check-btn").addEventListener("click", function () {
    Promise.all([
      SurveyDB.all(),
      fetch("/out/unsynced.geojson", { cache: "no-store" }).then(function (r) {
        if (!r.ok) throw new Error("out/unsynced.geojson: HTTP " + r.status);
        return r.json();
      }),
    ]).then(function (both) {
      var want = both[0].filter(function (r) { return !r.synced; });
      var fc = both[1];
      if (fc.type !== "FeatureCollection" || !Array.isArray(fc.features)) throw new Error("not a FeatureCollection");
      var byId = {};
      fc.features.forEach(function (f) { byId[(f.properties || {}).id] = f; });
      if (fc.features.length !== want.length) throw new Error(fc.features.length + " features, " + want.length + " unsynced records");
      want.forEach(function (r) {
        var f = byId[r.id];
        if (!f) throw new Error(r.id + " is missing");
        var c = (f.geometry || {}).coordinates || [];
        if (f.geometry.type !== "Point" || !close(c[0], r.lon) || !close(c[1], r.lat)) throw new Error(r.id + ": wrong position");
        var p = f.properties;
        if (p.species !== r.species || p.dbh_cm !== r.dbh_cm || p.recorded_at !== iso(r.recordedAt)) throw new Error(r.id + ": wrong properties");
      });
      var canon = want.map(function (r) { return r.id + "|" + r.recordedAt; }).sort().join("\n");
      return crypto.subtle.digest("SHA-256", new TextEncoder().encode(SALT + canon)).then(function (d) {
        var c = hex(d).toUpperCase();
        show(true, "Export verified: " + want.length + " observations", "GS-" + c.slice(0, 4) + "-" + c.slice(4, 8));
      });
    }).catch(function (err) { show(false, "Export check failed: " + err.message); });
  });
})();
