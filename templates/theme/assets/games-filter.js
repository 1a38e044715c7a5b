// rulesite: the games index's filters and column sorting (loaded by that page alone).
// The page holds the filters' wording and choices (.rs-filter-spec, hidden); this script builds
// the form from them, so without JavaScript no dead controls show and the table is complete.
// Each row's data-* values (written by the template, escaped) are read as numbers and ids,
// never run; every text is set with textContent.
// The filters and the sort live in the page's address (?players=4&best=1&time=120&sort=name,
// "-name" for the other way): a reload, a shared link and the back button keep them.
// With a large catalogue the page has no rows but a plain list of the games: the rows are built
// here from games/rows.json (data-rows), and the plain list is hidden once they are.
(function () {
  "use strict";
  var spec = document.querySelector(".rs-filter-spec");
  var table = document.getElementById("rs-games");
  if (!spec || !table || !table.tBodies.length || !table.tHead) return;
  var body = table.tBodies[0];
  var rows = [];
  var FILTERS = ["players", "best", "time", "weight", "mechanic"];
  var COLUMNS = { title: "name", players: "players", time: "time", weight: "weight" };

  function element(tag, className, text) {
    var node = document.createElement(tag);
    if (className) node.className = className;
    if (text) node.textContent = text;
    return node;
  }

  function selectField(list) {
    var kind = list.getAttribute("data-filter");
    var field = element("div", "rs-filter__field");
    var label = element("label", "", list.getAttribute("data-label"));
    var select = element("select");
    select.id = "rs-filter-" + kind;
    select.setAttribute("data-filter", kind);
    label.htmlFor = select.id;
    select.appendChild(new Option(spec.getAttribute("data-any") || "", ""));
    Array.prototype.forEach.call(list.querySelectorAll("li"), function (item) {
      select.appendChild(new Option(item.textContent, item.getAttribute("data-value") || ""));
    });
    field.appendChild(label);
    field.appendChild(select);
    return field;
  }

  // "Best at this count": a checkbox under the player count, usable once a count is chosen.
  function bestField() {
    var field = element("div", "rs-filter__field rs-filter__best");
    var box = element("input");
    box.type = "checkbox";
    box.id = "rs-filter-best";
    box.setAttribute("data-filter", "best");
    var label = element("label", "", spec.getAttribute("data-best"));
    label.htmlFor = box.id;
    field.appendChild(box);
    field.appendChild(label);
    return field;
  }

  // <form> <p title> <div fields: label + select per filter> <p reset + status> <p hint>
  function buildForm() {
    var form = element("form", "rs-filter");
    form.id = "rs-filter";
    form.setAttribute("aria-labelledby", "rs-filter-title");
    var title = element("p", "rs-filter__title", spec.getAttribute("data-heading"));
    title.id = "rs-filter-title";
    var fields = element("div", "rs-filter__fields");
    Array.prototype.forEach.call(spec.querySelectorAll("ul[data-filter]"), function (list) {
      fields.appendChild(selectField(list));
      if (list.getAttribute("data-filter") === "players") fields.appendChild(bestField());
    });
    var foot = element("p", "rs-filter__foot");
    var reset = element("button", "rs-filter__reset", spec.getAttribute("data-reset"));
    reset.type = "reset";
    var status = element("span", "rs-filter__status");
    status.setAttribute("role", "status");
    status.setAttribute("aria-live", "polite");
    foot.appendChild(reset);
    foot.appendChild(status);
    [title, fields, foot, element("p", "rs-filter__hint", spec.getAttribute("data-hint"))]
      .forEach(function (node) { form.appendChild(node); });
    return form;
  }

  var form = buildForm();
  var status = form.querySelector(".rs-filter__status");
  var bestBox = form.querySelector("#rs-filter-best");
  var playersSelect = form.querySelector("#rs-filter-players");

  function number(row, name) {
    return Number(row.getAttribute("data-" + name));
  }

  // What each filter keeps, given the chosen value.
  var keeps = {
    players: function (row, n) {
      return number(row, "players-min") <= n && n <= number(row, "players-max");
    },
    // The time the group has: the game can be played in it (its shortest play fits).
    time: function (row, minutes) { return number(row, "time-min") <= minutes; },
    weight: function (row, weight) { return number(row, "weight") <= weight; },
    mechanic: function (row, id) {
      return (row.getAttribute("data-mechanics") || "").split(" ").indexOf(id) !== -1;
    }
  };

  function bestAt(row, n) {
    return number(row, "best-min") <= n && n <= number(row, "best-max");
  }

  function fill(text, values) {
    return (text || "").replace(/\{(shown|total|title)\}/g, function (_, name) {
      return String(values[name]);
    });
  }

  function applyFilters() {
    var active = [];
    Array.prototype.forEach.call(form.querySelectorAll("select[data-filter]"), function (select) {
      var kind = select.getAttribute("data-filter");
      if (select.value === "" || !Object.prototype.hasOwnProperty.call(keeps, kind)) return;
      active.push({ keep: keeps[kind], value: kind === "mechanic" ? select.value : Number(select.value) });
    });
    bestBox.disabled = playersSelect.value === "";
    if (!bestBox.disabled && bestBox.checked) {
      active.push({ keep: bestAt, value: Number(playersSelect.value) });
    }
    var shown = 0;
    rows.forEach(function (row) {
      var kept = active.every(function (filter) { return filter.keep(row, filter.value); });
      row.hidden = !kept;
      if (kept) shown += 1;
    });
    status.textContent = shown
      ? fill(spec.getAttribute("data-shown"), { shown: shown, total: rows.length })
      : spec.getAttribute("data-none") || "";
  }

  // Sort keys per column; ties keep the current order (Array.prototype.sort is stable).
  var sortKeys = {
    title: function (row) { return row.getAttribute("data-title") || ""; },
    players: function (row) { return [number(row, "players-min"), number(row, "players-max")]; },
    time: function (row) { return [number(row, "time-min"), number(row, "time-max")]; },
    weight: function (row) { return [number(row, "weight")]; }
  };
  // Names in the language's order: data-locale names it (Chinese: pinyin).
  var locales = [spec.getAttribute("data-locale"), document.documentElement.lang].filter(Boolean);
  var collator = new Intl.Collator(locales.length ? locales : undefined, { numeric: true });

  function compare(a, b) {
    if (typeof a === "string") return collator.compare(a, b);
    for (var i = 0; i < a.length; i += 1) {
      if (a[i] !== b[i]) return a[i] - b[i];
    }
    return 0;
  }

  function headerOf(column) {
    return table.tHead.querySelector('th[data-sort="' + column + '"]');
  }

  function sortBy(header, direction) {
    var key = sortKeys[header.getAttribute("data-sort")];
    var sign = direction === "descending" ? -1 : 1;
    // Names first, so that equal values keep the name order whatever was clicked before.
    rows.sort(function (a, b) { return compare(sortKeys.title(a), sortKeys.title(b)); });
    rows.sort(function (a, b) { return sign * compare(key(a), key(b)); });
    var fragment = document.createDocumentFragment();
    rows.forEach(function (row) { fragment.appendChild(row); });
    body.appendChild(fragment);
    Array.prototype.forEach.call(table.tHead.rows[0].cells, function (cell) {
      if (cell === header) cell.setAttribute("aria-sort", direction);
      else cell.removeAttribute("aria-sort");
    });
  }

  // --- The address: ?players=4&best=1&time=120&weight=3&mechanic=market&sort=-weight ----------

  function stateFromForm() {
    var state = {};
    Array.prototype.forEach.call(form.querySelectorAll("select[data-filter]"), function (select) {
      if (select.value !== "") state[select.getAttribute("data-filter")] = select.value;
    });
    if (bestBox.checked && !bestBox.disabled) state.best = "1";
    var sorted = table.tHead.querySelector("th[aria-sort]");
    if (sorted) {
      var name = COLUMNS[sorted.getAttribute("data-sort")];
      state.sort = (sorted.getAttribute("aria-sort") === "descending" ? "-" : "") + name;
    }
    return state;
  }

  function addressOf(state) {
    var url = new URL(window.location.href);
    FILTERS.concat(["sort"]).forEach(function (name) {
      if (state[name] && !(name === "sort" && state[name] === "name")) {
        url.searchParams.set(name, state[name]);
      } else {
        url.searchParams.delete(name);
      }
    });
    return url.href;
  }

  function remember() {
    var address = addressOf(stateFromForm());
    if (address !== window.location.href) window.history.pushState(null, "", address);
  }

  // The address's state into the form and the table (unknown values are left out).
  function restore() {
    var params = new URL(window.location.href).searchParams;
    Array.prototype.forEach.call(form.querySelectorAll("select[data-filter]"), function (select) {
      var wanted = params.get(select.getAttribute("data-filter")) || "";
      var known = Array.prototype.some.call(select.options, function (option) {
        return option.value === wanted;
      });
      select.value = known ? wanted : "";
    });
    bestBox.checked = params.get("best") === "1";
    var sort = params.get("sort") || "name";
    var descending = sort.charAt(0) === "-";
    var column = Object.keys(COLUMNS).filter(function (key) {
      return COLUMNS[key] === sort.replace(/^-/, "");
    })[0] || "title";
    sortBy(headerOf(column), descending ? "descending" : "ascending");
    applyFilters();
  }

  // --- Rows ------------------------------------------------------------------------------------

  // A large catalogue: each row built from games/rows.json, as the template writes one. The
  // links are the plain list's (MkDocs wrote their addresses); a tab's address is the game's
  // folder and the tab's file, in the same URL form.
  function tabHref(overview, file) {
    var folder = overview.replace(/index\.html$/, "");
    var name = file.replace(/\.md$/, "");
    if (name === "index") return overview;
    return /\/$/.test(overview) && !/index\.html$/.test(overview)
      ? folder + name + "/"
      : folder + name + ".html";
  }

  function link(href, text, className) {
    var a = element("a", className, text);
    a.setAttribute("href", href);
    return a;
  }

  function buildRow(game, overview, files, labels, mechanicNames) {
    var row = element("tr");
    var data = {
      title: game.title, "players-min": game.players[0], "players-max": game.players[1],
      "best-min": game.best[0], "best-max": game.best[1], "time-min": game.time[0],
      "time-max": game.time[1], weight: game.weight, mechanics: game.mechanics.join(" ")
    };
    Object.keys(data).forEach(function (name) { row.setAttribute("data-" + name, String(data[name])); });
    var cell = element("td");
    cell.appendChild(link(overview, game.title, "rs-games__title"));
    cell.appendChild(document.createTextNode(" "));
    var pages = element("span", "rs-games__pages");
    pages.setAttribute("role", "group");
    pages.setAttribute("aria-label", fill(spec.getAttribute("data-group-label"), { title: game.title }));
    ["rules", "faq", "score"].forEach(function (kind) {
      if (!files[kind] || (kind === "score" && !game.score)) return;
      if (pages.firstChild) pages.appendChild(document.createTextNode(" · "));
      pages.appendChild(link(tabHref(overview, files[kind]), labels[kind]));
    });
    cell.appendChild(pages);
    cell.appendChild(document.createTextNode(" "));
    var names = game.mechanics.map(function (id) { return mechanicNames[id] || id; });
    cell.appendChild(element("span", "rs-games__mechanics",
      (spec.getAttribute("data-mechanics-label") || "") + names.join(" · ")));
    row.appendChild(cell);
    var span = function (pair) { return pair[0] === pair[1] ? String(pair[0]) : pair[0] + "–" + pair[1]; };
    [span(game.players), span(game.time), game.weight.toFixed(2)].forEach(function (text) {
      row.appendChild(element("td", "", text));
    });
    return row;
  }

  function loadRows(plain) {
    var files = JSON.parse(spec.getAttribute("data-pages") || "{}");
    var labels = JSON.parse(spec.getAttribute("data-page-labels") || "{}");
    var mechanicNames = {};
    Array.prototype.forEach.call(spec.querySelectorAll('ul[data-filter="mechanic"] li'), function (item) {
      mechanicNames[item.getAttribute("data-value")] = item.textContent;
    });
    var overviews = {};
    Array.prototype.forEach.call(plain.querySelectorAll("a[data-rs-key]"), function (a) {
      overviews[a.getAttribute("data-rs-key")] = a.getAttribute("href");
    });
    var url = new URL(spec.getAttribute("data-rows"), window.location.href);
    return fetch(url.href, { credentials: "same-origin" })
      .then(function (response) {
        if (!response.ok) throw new Error(response.status + " " + url.href);
        return response.json();
      })
      .then(function (data) {
        data.games.forEach(function (game) {
          if (!Object.prototype.hasOwnProperty.call(overviews, game.slug)) return;
          body.appendChild(buildRow(game, overviews[game.slug], files, labels, mechanicNames));
        });
      });
  }

  function start() {
    rows = Array.prototype.slice.call(body.rows);
    // Each sortable column heading becomes a button (its own text moved inside it).
    Array.prototype.forEach.call(table.tHead.rows[0].cells, function (header) {
      var column = header.getAttribute("data-sort");
      if (!Object.prototype.hasOwnProperty.call(sortKeys, column)) return;
      var button = document.createElement("button");
      button.type = "button";
      button.className = "rs-sort";
      while (header.firstChild) button.appendChild(header.firstChild);
      header.appendChild(button);
      button.addEventListener("click", function () {
        var now = header.getAttribute("aria-sort");
        sortBy(header, now === "ascending" ? "descending" : "ascending");
        remember();
      });
    });
    form.addEventListener("change", function () { applyFilters(); remember(); });
    form.addEventListener("submit", function (event) { event.preventDefault(); });
    // "reset" fires before the fields are reset: filter once they are.
    form.addEventListener("reset", function () {
      window.setTimeout(function () { applyFilters(); remember(); }, 0);
    });
    window.addEventListener("popstate", restore);
    spec.parentNode.insertBefore(form, spec);
    restore();
  }

  var plain = document.querySelector(".rs-games-plain");
  if (spec.getAttribute("data-rows") && plain && window.fetch) {
    loadRows(plain).then(function () {
      plain.hidden = true;
      table.hidden = false;
      start();
    }, function (error) {
      // Without the rows the plain list stays: every game is still listed.
      console.warn("rulesite games index: " + error.message);
    });
  } else {
    start();
  }
})();
