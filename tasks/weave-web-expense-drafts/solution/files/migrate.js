/* Storage migration from the 1.x app to the 2.0 store (see README.md, "Storage").
   Loaded by the page as a plain script (window.ExpenseMigrate) and by Node (module.exports). */
(function (root) {
  "use strict";

  var V1_KEY = "expense-drafts";
  var V2_KEY = "expenses:v2";
  var CATEGORIES = { TRV: "travel", MEA: "meals", OFF: "office" };

  /** 1.x wrote dates day-first as the tester's en-GB locale showed them: "23/11/2026". */
  function isoDate(text) {
    var m = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(String(text).trim());
    if (!m) throw new Error("unexpected 1.x date: " + text);
    return m[3] + "-" + m[2].padStart(2, "0") + "-" + m[1].padStart(2, "0");
  }

  /** 1.x amounts are numbers or strings with thousands separators: "1,204.00", 18.9. */
  function cents(amount) {
    var value = typeof amount === "number" ? amount : Number(String(amount).replace(/,/g, ""));
    if (!isFinite(value)) throw new Error("unexpected 1.x amount: " + amount);
    return Math.round(value * 100);
  }

  /**
   * migrateV1(raw) -> { version: 2, drafts: [...] }
   * raw is the string 1.x left in localStorage under V1_KEY: {"v":1,"items":[...]}.
   */
  function migrateV1(raw) {
    var old = typeof raw === "string" ? JSON.parse(raw) : raw;
    var drafts = (old.items || [])
      .filter(function (item) { return !item.deleted; })
      .map(function (item) {
        return {
          id: "v1-" + item.id,
          date: isoDate(item.d),
          amount_cents: cents(item.amt),
          category: CATEGORIES[item.cat] || "other",
          note: item.memo || "",
        };
      });
    drafts.sort(function (a, b) {
      return a.date < b.date ? -1 : a.date > b.date ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
    });
    return { version: 2, drafts: drafts };
  }

  var api = { V1_KEY: V1_KEY, V2_KEY: V2_KEY, migrateV1: migrateV1 };
  if (typeof module !== "undefined" && module.exports) {
    module.exports = api;
  } else {
    root.ExpenseMigrate = api;
  }
})(this);
