// rulesite: search that scales (scripts/rulesite/search_split.py).
// search/search_index.json holds every game's titles, FAQ questions and terms; a game's full text
// is in search/shards/<slug>.json. This script runs on a game's pages, before Material's bundle:
// when the theme requests the index (an XMLHttpRequest for that one URL), it fetches the index
// and this game's shard, merges them, and lets the request load the merged index instead. So the
// game being read is searched in full, every other game by its titles, questions and terms.
(function () {
  "use strict";
  var script = document.currentScript;
  if (!script || !window.fetch || !window.Blob || !window.WeakSet || !URL.createObjectURL) return;
  var indexUrl = absolute(script.getAttribute("data-index"));
  var shardUrl = absolute(script.getAttribute("data-shard"));
  if (!indexUrl || !shardUrl) return;
  var open = XMLHttpRequest.prototype.open;
  var send = XMLHttpRequest.prototype.send;
  var indexRequests = new WeakSet();

  function absolute(url) {
    try {
      return new URL(String(url), document.baseURI).href;
    } catch (error) {
      return null;
    }
  }

  function getJson(url) {
    return fetch(url, { credentials: "same-origin" }).then(function (response) {
      if (!response.ok) throw new Error(response.status + " " + url);
      return response.json();
    });
  }

  // The shard's documents replace the game's shortened ones; Material needs a page's document
  // before its sections, and the shard keeps them in that order.
  function merge(site, shard) {
    var own = new Set(
      shard.docs.map(function (doc) {
        return doc.location;
      })
    );
    var docs = site.docs.filter(function (doc) {
      return !own.has(doc.location);
    });
    return { config: site.config, docs: docs.concat(shard.docs) };
  }

  XMLHttpRequest.prototype.open = function (method, url) {
    if (String(method).toUpperCase() === "GET" && absolute(url) === indexUrl) {
      indexRequests.add(this);
    } else {
      indexRequests.delete(this);
    }
    return open.apply(this, arguments);
  };

  XMLHttpRequest.prototype.send = function () {
    if (!indexRequests.has(this)) return send.apply(this, arguments);
    indexRequests.delete(this);
    var request = this;
    Promise.all([getJson(indexUrl), getJson(shardUrl)]).then(
      function (parts) {
        var merged = JSON.stringify(merge(parts[0], parts[1]));
        var blob = URL.createObjectURL(new Blob([merged], { type: "application/json" }));
        request.addEventListener("loadend", function () {
          URL.revokeObjectURL(blob);
        });
        open.call(request, "GET", blob);
        send.call(request);
      },
      function (error) {
        // Without the shard, search still works: the site-level index alone.
        console.warn("rulesite search: " + error.message);
        send.call(request);
      }
    );
  };
})();
