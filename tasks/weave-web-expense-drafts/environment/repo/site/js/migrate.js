/* Storage migration from the 1.x app to the 2.0 store (see README.md, "Storage").
   Loaded by the page as a plain script (window.ExpenseMigrate) and by Node (module.exports). */
(function (root) {
  "use strict";

  var V1_KEY = "expense-drafts";
  var V2_KEY = "expenses:v2";

  /**
   * migrateV1(raw) -> { version: 2, drafts: [...] }
   * raw is the string 1.x left in localStorage under V1_KEY.
   */
  function migrateV1(raw) {
    // TODO(2.0): nobody wrote this down before the 1.x code was dropped.
    throw new Error("migrateV1 is not implemented");
  }

  var api = { V1_KEY: V1_KEY, V2_KEY: V2_KEY, migrateV1: migrateV1 };
  if (typeof module !== "undefined" && module.exports) {
    module.exports = api;
  } else {
    root.ExpenseMigrate = api;
  }
})(this);
