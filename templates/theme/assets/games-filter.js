// rulesite: the games index's filters and column sorting (loaded by that page alone).
// The page holds the filters' wording and choices (.rs-filter-spec, hidden); this script builds
// the form from them, so without JavaScript no dead controls show and the table is complete.
// Each row's data-* values (written by the template, escaped) are read as numbers and ids,
// never run; every text is set with textContent.
(function () {
  "use strict";
  var spec = document.querySelector(".rs-filter-spec");
  var table = document.getElementById("rs-games");
  if (!spec || !table || !table.tBodies.length || !table.tHead) return;
  var body = table.tBodies[0];
  var rows = Array.prototype.slice.call(body.rows);

  function element(tag, className, text) {
    var node = document.createElement(tag);
    if (className) node.className = className;
    if (text) node.textContent = text;
    return node;
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
      fields.appendChild(field);
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

  function number(row, name) {
    return Number(row.getAttribute("data-" + name));
  }

  // What each filter keeps, given the chosen value.
  var keeps = {
    players: function (row, n) {
      return number(row, "players-min") <= n && n <= number(row, "players-max");
    },
    // Time available: the game can be played in it (its shortest play fits).
    time: function (row, minutes) { return number(row, "time-min") <= minutes; },
    weight: function (row, weight) { return number(row, "weight") <= weight; },
    mechanic: function (row, id) {
      return (row.getAttribute("data-mechanics") || "").split(" ").indexOf(id) !== -1;
    }
  };

  function fill(text, values) {
    return (text || "").replace(/\{(shown|total)\}/g, function (_, name) {
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
  var collator = new Intl.Collator(document.documentElement.lang || undefined, { numeric: true });

  function compare(a, b) {
    if (typeof a === "string") return collator.compare(a, b);
    for (var i = 0; i < a.length; i += 1) {
      if (a[i] !== b[i]) return a[i] - b[i];
    }
    return 0;
  }

  function sortBy(header, direction) {
    var key = sortKeys[header.getAttribute("data-sort")];
    var sign = direction === "descending" ? -1 : 1;
    rows.sort(function (a, b) { return sign * compare(key(a), key(b)); });
    rows.forEach(function (row) { body.appendChild(row); });
    Array.prototype.forEach.call(table.tHead.rows[0].cells, function (cell) {
      if (cell === header) cell.setAttribute("aria-sort", direction);
      else cell.removeAttribute("aria-sort");
    });
  }

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
    });
  });

  form.addEventListener("change", applyFilters);
  form.addEventListener("submit", function (event) { event.preventDefault(); });
  // "reset" fires before the fields are reset: filter once they are.
  form.addEventListener("reset", function () { window.setTimeout(applyFilters, 0); });
  spec.parentNode.insertBefore(form, spec);
  applyFilters();
})();
