// rulesite: search that does not grow with the catalogue (scripts/rulesite/engine/search_chunks.py).
// Runs before Material's bundle and points the theme's search at assets/search-worker.js, which
// speaks Material's worker messages but fetches only the index chunks a query needs. Material
// names its worker in the page's configuration (#__config, its "search" entry); this is the one
// entry changed. data-index (the manifest Material loads) and data-shard (the game's shard, which
// the worker searches offline) name files for the offline lists (engine/offline.py).
(function () {
  "use strict";
  var script = document.currentScript;
  var element = document.getElementById("__config");
  if (!script || !element || !window.Worker) return;
  try {
    var config = JSON.parse(element.textContent);
    config.search = new URL(script.getAttribute("data-search-worker"), document.baseURI).href;
    element.textContent = JSON.stringify(config);
  } catch (error) {
    // Without it, Material's own worker searches the manifest: no results, no harm.
    console.warn("rulesite search: " + error.message);
  }
})();
