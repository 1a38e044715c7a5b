// rulesite scoring calculator, the table's parts: the names above it, the column heads, a row
// per input, the points lines and the totals (window.RulesiteTable). Each is a method of the
// view (calculator.js copies them onto its prototype), kept here so that each file stays short.
// Names and labels are only ever set with textContent or value, never as HTML.
(function () {
  "use strict";

  var engine = window.RulesiteScore, sheets = window.RulesiteSheet, fill = sheets.fill;
  var el = sheets.el, button = sheets.button;
  var parts = {};

  // While a name is being typed, its field takes the whole line if the name is longer than it.
  function widen(item, name) {
    if (name !== document.activeElement) item.classList.remove("rs-calc__player--full");
    else if (name.scrollWidth > name.clientWidth) item.classList.add("rs-calc__player--full");
  }

  // The names are typed above the table, where each field can be as wide as a name (a column is
  // as narrow as a number); a focused field takes the whole line, so a long name shows in full.
  parts.buildNames = function () {
    var ui = this.ui, strip = el("div", { "class": "rs-calc__names", role: "group", "aria-label": ui.names });
    this.nameInputs = [];
    for (var p = 0; p < this.maxPlayers; p++) {
      var item = el("span", { "class": "rs-calc__player", "data-column": String(p) });
      var name = el("input", { type: "text", maxlength: String(sheets.MAX_NAME), autocomplete: "off", "class": "rs-calc__name", "data-name": String(p), "aria-label": fill(ui.name_label, { n: p + 1 }), placeholder: fill(ui.player_default, { n: p + 1 }) });
      name.value = this.sheet.state.names[p];
      name.addEventListener("input", this.onName.bind(this, p, name));
      ["focus", "blur", "input"].forEach(function (type) { name.addEventListener(type, widen.bind(null, item, name)); });
      item.appendChild(name);
      this.nameInputs.push(name);
      strip.appendChild(item);
    }
    return strip;
  };

  // Each column's heading is its player's name as text, wrapped to the column's width.
  parts.buildHead = function () {
    var head = el("tr");
    head.appendChild(el("th", { scope: "col" }, this.ui.field));
    this.headNames = [];
    for (var p = 0; p < this.maxPlayers; p++) {
      var th = el("th", { scope: "col", "class": "rs-calc__head", "data-column": String(p) });
      this.headNames.push(th);
      head.appendChild(th);
    }
    var thead = el("thead");
    thead.appendChild(head);
    return thead;
  };

  parts.buildInputs = function () {
    var self = this, inputs = el("tbody", { "class": "rs-calc__inputs" });
    this.cells = {};
    this.model.inputs.forEach(function (spec) {
      var row = el("tr");
      row.appendChild(self.inputHead(spec));
      self.cells[spec.id] = [];
      for (var i = 0; i < self.maxPlayers; i++) row.appendChild(self.inputCell(spec, i));
      inputs.appendChild(row);
    });
    return inputs;
  };

  parts.inputHead = function (spec) {
    var labels = this.data.inputs[spec.id], rowHead = el("th", { scope: "row" });
    rowHead.appendChild(labels.rule ? el("a", { href: "../rules/#" + labels.rule }, labels.label) : el("span", {}, labels.label));
    if (labels.help) {
      // On a phone the explanation waits behind a tap (it would take more room than the row).
      var helpId = "rs-help-" + this.id + "-" + spec.id;
      var toggle = button({ type: "button", "class": "rs-calc__help-toggle", "aria-expanded": "false", "aria-controls": helpId, "aria-label": fill(this.ui.help_toggle, { field: labels.label }) }, "?", function () {
        toggle.setAttribute("aria-expanded", toggle.getAttribute("aria-expanded") === "true" ? "false" : "true");
      });
      rowHead.appendChild(toggle);
      rowHead.appendChild(el("span", { "class": "rs-calc__help", id: helpId }, labels.help));
    }
    return rowHead;
  };

  parts.inputCell = function (spec, i) {
    var td = el("td", { "data-column": String(i) });
    var input = el("input", { type: "text", inputmode: "numeric", autocomplete: "off", "data-field": spec.id, "data-player": String(i), "class": "rs-calc__input" });
    input.value = this.sheet.state.values[spec.id][i];
    // A blank cell means what the engine makes of a missing input: say so where it is not 0.
    var blank = engine.missingValue(spec, i);
    if (blank !== 0) input.placeholder = String(blank);
    input.addEventListener("input", this.onValue.bind(this, spec.id, i, input));
    td.appendChild(input);
    if (spec.min < 0) {
      var sign = button({ type: "button", "class": "rs-calc__sign", "data-sign": spec.id + ":" + i }, "±", this.onSign.bind(this, spec.id, i, input));
      td.appendChild(sign);
      input.signButton = sign;
    }
    this.cells[spec.id].push(input);
    return td;
  };

  parts.termSection = function (title, className, terms) {
    var self = this, section = el("tbody", { "class": className });
    section.appendChild(this.sectionRow(title));
    terms.forEach(function (term) {
      var row = el("tr", { "data-term-row": term.id });
      row.appendChild(el("th", { scope: "row" }, self.lineLabel(term.id)));
      self.termCells[term.id] = [];
      for (var i = 0; i < self.maxPlayers; i++) {
        var td = el("td", { "data-column": String(i) }), out = el("output", { "data-term": term.id, "data-player": String(i) });
        td.appendChild(out);
        self.termCells[term.id].push(out);
        row.appendChild(td);
      }
      section.appendChild(row);
    });
    return section;
  };

  parts.lineLabel = function (id) {
    return id === engine.FLOOR_TERM ? "≥ " + this.model.total_min : this.data.terms[id];
  };

  parts.sectionRow = function (text) {
    var row = el("tr", { "class": "rs-calc__section" });
    row.appendChild(el("th", { scope: "rowgroup", colspan: String(this.maxPlayers + 1) }, text));
    return row;
  };

  parts.buildFoot = function () {
    var foot = el("tfoot");
    this.totalCells = []; this.rankCells = [];
    var totalRow = el("tr", { "class": "rs-calc__total" }), rankRow = el("tr", { "class": "rs-calc__rank" });
    totalRow.appendChild(el("th", { scope: "row" }, this.ui.total));
    rankRow.appendChild(el("th", { scope: "row" }, this.ui.rank));
    for (var j = 0; j < this.maxPlayers; j++) {
      var out = el("output", { "data-total": String(j) });
      var cell = el("td", { "data-column": String(j) }); cell.appendChild(out); totalRow.appendChild(cell);
      this.totalCells.push(out);
      var rank = el("td", { "data-column": String(j), "data-rank": String(j) });
      rankRow.appendChild(rank); this.rankCells.push(rank);
    }
    foot.appendChild(totalRow);
    this.rankRow = rankRow;
    if (this.data.declareWinner) foot.appendChild(rankRow);
    return foot;
  };

  window.RulesiteTable = parts;
})();
