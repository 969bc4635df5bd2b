const test = require("node:test");
const assert = require("node:assert/strict");
const M = require("../site/js/migrate.js");

test("the storage keys of 1.x and 2.0", () => {
  assert.equal(M.V1_KEY, "expense-drafts");
  assert.equal(M.V2_KEY, "expenses:v2");
  assert.equal(typeof M.migrateV1, "function");
});
