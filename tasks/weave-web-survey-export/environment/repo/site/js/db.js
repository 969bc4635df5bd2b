/* The survey's offline store: IndexedDB database "survey", object store "observations"
   (keyPath "id"). The sync server that used to take "synced: false" records is gone. */
(function (root) {
  "use strict";
  function open() {
    return new Promise(function (resolve, reject) {
      var req = indexedDB.open("survey", 1);
      req.onupgradeneeded = function () {
        req.result.createObjectStore("observations", { keyPath: "id" });
      };
      req.onsuccess = function () { resolve(req.result); };
      req.onerror = function () { reject(req.error); };
    });
  }
  /** Every observation record, as stored. */
  function all() {
    return open().then(function (db) {
      return new Promise(function (resolve, reject) {
        var req = db.transaction("observations").objectStore("observations").getAll();
        req.onsuccess = function () { resolve(req.result); };
        req.onerror = function () { reject(req.error); };
      });
    });
  }
  root.SurveyDB = { open: open, all: all };
})(this);
