/* Finance team's restore check (served by the dev server, not part of the site).
   On "Check restore" it reads this browser's localStorage: the 1.x drafts must still be
   there (never delete user data) and the 2.0 store must hold exactly what 1.x kept. */
(function () {
  "use strict";
  var EXPECTED = "755bf95b0ccc404aa6301a9aef626911e5c10f95421bda1f94d0e0dcc861ed37";
  var btn = document.getElementById("check-btn");
  var panel = document.getElementById("check-result");
  var text = document.getElementById("check-text");
  var field = document.getElementById("check-code");

  function hex(buf) {
    return Array.prototype.map.call(new Uint8Array(buf), function (b) {
      return b.toString(16).padStart(2, "0");
    }).join("");
  }
  function sha256(s) {
    return crypto.subtle.digest("SHA-256", new TextEncoder().encode(s)).then(hex);
  }
  function show(ok, message, code) {
    panel.hidden = false;
    panel.className = "check " + (ok ? "ok" : "fail");
    text.textContent = message;
    field.value = code || "";
  }

  btn.addEventListener("click", function () {
    var drafts;
    try {
      if (localStorage.getItem("expense-drafts") === null) {
        return show(false, "Restore check failed: the 1.x drafts were deleted");
      }
      drafts = JSON.parse(localStorage.getItem("expenses:v2") || "null").drafts;
      if (!Array.isArray(drafts)) throw new Error("no drafts array");
    } catch (err) {
      return show(false, "Restore check failed: no valid 2.0 store (" + err.message + ")");
    }
    var canon = drafts.slice().sort(function (a, b) {
      return String(a.id) < String(b.id) ? -1 : String(a.id) > String(b.id) ? 1 : 0;
    }).map(function (d) {
      return [d.id, d.date, d.amount_cents, d.category, d.note].join("|");
    }).join("\n");
    sha256(canon).then(function (digest) {
      if (digest !== EXPECTED) {
        return show(false, "Restore check failed: the 2.0 store (" + drafts.length + " drafts) does not match 1.x");
      }
      return sha256("restore:" + canon).then(function (d2) {
        var c = d2.toUpperCase();
        show(true, "Restore verified: " + drafts.length + " drafts", "EX-" + c.slice(0, 4) + "-" + c.slice(4, 8));
      });
    });
  });
})();
