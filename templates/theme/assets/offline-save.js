// rulesite: save games for offline reading on purpose, and say truthfully which are saved.
//
// A game's pages get a "save for offline reading" button under the game's tabs; the games index
// gets "save every game". The language's worker (sw.js) stores the games in every language and
// reports progress (n of m files) and failures, shown in a status line. What is saved is read from
// the Cache API (the marker the worker writes after every file of a game), never from a flag of
// our own: a saved game gets a badge on its pages, on the home page's cards (with a list of the
// saved games above them) and in the games index's rows (tr[data-rs-offline="saved"]). The
// wording comes from the page (data-label-* attributes, data/site.yaml labels); names are set
// with textContent only. Without an active service worker (not a secure context, the preview)
// nothing is shown.
(function () {
  "use strict";
  var script = document.currentScript;
  if (!script || !window.isSecureContext || !("serviceWorker" in navigator) || !window.caches) return;
  var lists = new URL(script.getAttribute("data-lists"), window.location.href);
  var root = new URL(".", lists).href;
  var game = script.getAttribute("data-game") || "";
  var place = script.getAttribute("data-place") || "";
  var STORED = new URL("offline/stored/", root).href;
  var GAME = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
  var asked = 0;

  function label(name, values) {
    var text = script.getAttribute("data-label-" + name) || "";
    return text.replace(/\{(\w+)\}/g, function (all, key) {
      return values && Object.prototype.hasOwnProperty.call(values, key) ? String(values[key]) : all;
    });
  }

  function element(tag, className, text) {
    var node = document.createElement(tag);
    if (className) node.className = className;
    if (text) node.textContent = text;
    return node;
  }

  // The games saved in this language: slug -> {title, href}, from the workers' caches.
  function savedGames() {
    var found = {};
    return caches.keys().then(function (names) {
      var ours = names.filter(function (name) { return name.indexOf("rulesite ") === 0; });
      return Promise.all(ours.map(function (name) {
        return caches.open(name).then(function (cache) {
          return cache.keys().then(function (requests) {
            return Promise.all(requests.map(function (request) {
              var slug = request.url.indexOf(STORED) === 0 ? request.url.slice(STORED.length) : "";
              if (!GAME.test(slug)) return null;
              return cache.match(request).then(function (response) { return response.json(); }).then(function (about) {
                var href = about && typeof about.url === "string" ? new URL(about.url, root).href : "";
                if (href.indexOf(root) !== 0 || typeof about.title !== "string") return;
                found[slug] = { title: about.title, href: href };
              }).catch(function () {});
            }));
          });
        });
      }));
    }).then(function () { return found; }, function () { return found; });
  }

  function badge() {
    return element("span", "rs-offline__badge", label("badge"));
  }

  // Ask the worker to save `slugs`; progress and the end go to `status`.
  function save(slugs, button, status, done) {
    var id = "save-" + Date.now() + "-" + (asked += 1);
    button.disabled = true;
    status.textContent = label("saving", { done: 0, total: "…" });
    function listen(event) {
      var data = event.data;
      if (!data || data.id !== id) return;
      if (!data.finished) {
        status.textContent = label("saving", { done: data.done, total: data.total });
        return;
      }
      navigator.serviceWorker.removeEventListener("message", listen);
      button.disabled = false;
      status.textContent = data.failed ? label("failed", { failed: data.failed }) : label("saved");
      status.classList.toggle("rs-offline__status--error", Boolean(data.failed));
      done();
    }
    navigator.serviceWorker.addEventListener("message", listen);
    navigator.serviceWorker.ready.then(function (registration) {
      registration.active.postMessage({ save: slugs, id: id });
    });
  }

  // The button and its status line (a live region present before anything is said in it).
  function control(text) {
    var box = element("div", "rs-offline");
    var button = element("button", "rs-offline__save md-button", text);
    button.type = "button";
    var status = element("p", "rs-offline__status");
    status.setAttribute("role", "status");
    box.appendChild(button);
    box.appendChild(status);
    return { box: box, button: button, status: status };
  }

  function gamePage(saved) {
    var tabs = document.querySelector(".md-content .rs-tabs");
    if (!tabs) return;
    var parts = control(label("save"));
    tabs.parentNode.insertBefore(parts.box, tabs.nextSibling);
    function show(games) {
      var isSaved = Object.prototype.hasOwnProperty.call(games, game);
      parts.button.hidden = isSaved;
      var old = parts.box.querySelector(".rs-offline__badge");
      if (isSaved && !old) parts.box.insertBefore(badge(), parts.button);
      if (isSaved) document.documentElement.setAttribute("data-offline-ready", game);
    }
    show(saved);
    parts.button.addEventListener("click", function () {
      save([game], parts.button, parts.status, function () { savedGames().then(show); });
    });
  }

  // Badges after the links to saved games' overviews (home cards, games index rows).
  function markLinks(selector, games) {
    var hrefs = {};
    Object.keys(games).forEach(function (slug) { hrefs[games[slug].href] = true; });
    document.querySelectorAll(selector).forEach(function (link) {
      var href = new URL(link.getAttribute("href"), window.location.href).href;
      if (!hrefs[href] || link.parentNode.querySelector(".rs-offline__badge")) return;
      link.insertAdjacentElement("afterend", badge());
      var row = link.closest("tr");
      if (row) row.setAttribute("data-rs-offline", "saved");
    });
  }

  function savedList(games) {
    var slugs = Object.keys(games);
    var heading = document.getElementById("games");
    var old = document.querySelector(".rs-saved");
    if (old) old.remove();
    if (!slugs.length || !heading) return;
    var section = element("section", "rs-saved");
    var title = element("h2", "", label("saved_games"));
    title.id = "rs-saved";
    section.setAttribute("aria-labelledby", "rs-saved");
    var list = element("ul");
    slugs.sort(function (a, b) { return games[a].title.localeCompare(games[b].title); });
    slugs.forEach(function (slug) {
      var item = element("li");
      var link = element("a", "", games[slug].title);
      link.href = games[slug].href;
      item.appendChild(link);
      list.appendChild(item);
    });
    section.appendChild(title);
    section.appendChild(list);
    heading.parentNode.insertBefore(section, heading);
  }

  function gamesIndex(saved) {
    var table = document.getElementById("rs-games");
    markLinks("#rs-games td a[href]", saved);
    if (!table) return;
    var parts = control(label("save_all"));
    var wrapper = table.closest(".md-typeset__scrollwrap") || table;
    wrapper.parentNode.insertBefore(parts.box, wrapper);
    parts.button.addEventListener("click", function () {
      fetch(lists.href, { cache: "no-cache" }).then(function (response) { return response.json(); }).then(function (data) {
        save(Object.keys(data.games || {}), parts.button, parts.status, function () {
          savedGames().then(function (games) { markLinks("#rs-games td a[href]", games); });
        });
      }).catch(function () {
        parts.status.textContent = label("failed", { failed: 1 });
      });
    });
  }

  // Shown once the language's worker is active: where none can be (the live preview, storage
  // refused), no control promises what cannot happen.
  navigator.serviceWorker.ready.then(savedGames).then(function (saved) {
    if (place === "game" && GAME.test(game)) gamePage(saved);
    if (place === "games") gamesIndex(saved);
    if (place === "home") {
      markLinks(".rs-game-cards strong > a[href]", saved);
      savedList(saved);
    }
  });
})();
