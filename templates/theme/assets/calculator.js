// rulesite scoring calculator, the view: the table around the sheet. Plain JS, no dependencies.
//
// The sheet (what the reader typed, storage, share links, reading cells into players, totals and
// ranks to show) is calculator-state.js (window.RulesiteSheet); the scoring is scoring-engine.js
// (window.RulesiteScore); both load first. This file builds one calculator's table, listens to
// it and shows what the sheet says (window.RulesiteCalculator); calculator-page.js, loaded after
// it, starts one per calculator on the page. The result panel (calculator-result.js) and the
// breakdown picture (calculator-breakdown.js) show the same result as the table. Text from people
// (player names) and from data (labels) is only ever set with textContent or value, never as HTML.
(function () {
  "use strict";

  var engine = window.RulesiteScore, sheets = window.RulesiteSheet, fill = sheets.fill;
  var el = sheets.el, button = sheets.button;
  var results = window.RulesiteResult, breakdown = window.RulesiteBreakdown;
  var REPLACED = "rulesite:sheet-replaced";

  function Calculator(root, data) {
    this.root = root;
    this.data = data;
    this.model = data.model;
    this.ui = data.ui;
    this.id = root.getAttribute("data-calculator");
    this.maxPlayers = this.model.players[1];
    this.sheet = new sheets.Sheet(this.model, data, this.id);
    var restored = this.sheet.restore(this.sheet.takeFragment());
    this.build();
    if (restored === false) this.message.textContent = this.ui.state_ignored;
    this.showSharedBar();
    this.update();
    // A share link opened while this page is open changes only the fragment: no new page load.
    window.addEventListener("hashchange", this.onHashChange.bind(this));
  }

  // The table's rows are built by calculator-table.js's methods.
  Object.keys(window.RulesiteTable).forEach(function (k) { Calculator.prototype[k] = window.RulesiteTable[k]; });

  Calculator.prototype.shareUrl = function () { return this.sheet.shareUrl(); };

  // ---- Building -----------------------------------------------------------------------------

  Calculator.prototype.build = function () {
    this.root.appendChild(this.buildSharedBar());
    this.root.appendChild(this.buildControls());
    this.root.appendChild(this.buildNames());
    var wrap = el("div", { "class": "rs-calc__scroll" });
    var table = el("table", { "class": "rs-calc__table" });
    table.appendChild(this.buildHead());
    table.appendChild(this.buildInputs());
    this.termCells = {};
    var lines = this.model.terms.filter(function (t) { return !t.helper; });
    if (this.model.total_min !== null) lines = lines.concat([{ id: engine.FLOOR_TERM }]);
    table.appendChild(this.termSection(this.ui.breakdown, "rs-calc__terms", lines));
    this.pointLines = lines.map(function (t) { return { id: t.id, label: this.lineLabel(t.id) }; }, this);
    // Shown helper values (sets of symbols, a tier...) feed the lines but are never added up.
    var shownHelpers = this.model.terms.filter(function (t) { return t.helper === "shown"; });
    if (shownHelpers.length) table.appendChild(this.termSection(this.ui.helpers, "rs-calc__helpers", shownHelpers));
    table.appendChild(this.buildFoot());
    wrap.appendChild(table);
    this.root.appendChild(wrap);
    this.table = table;
    this.errors = el("ul", { "class": "rs-calc__errors", "aria-live": "polite" });
    this.root.appendChild(this.errors);
    // The panel follows the table (on a phone it sticks to the bottom of the screen while the
    // table is in view); the picture of where the points came from comes after it.
    this.panel = new results.Panel(this.data);
    this.result = this.panel.words;
    this.root.appendChild(this.panel.node);
    this.chart = new breakdown.Chart(this.data);
    this.root.appendChild(this.chart.node);
    this.root.appendChild(this.buildActions());
    this.message = el("p", { "class": "rs-calc__message", role: "status" });
    this.root.appendChild(this.message);
    this.root.addEventListener("focusin", this.keepClear.bind(this));
  };

  Calculator.prototype.buildSharedBar = function () {
    var ui = this.ui;
    this.sharedBar = el("div", { "class": "rs-calc__shared", role: "region", "aria-label": ui.shared_notice });
    this.sharedBar.appendChild(el("span", {}, ui.shared_notice));
    this.sharedBar.appendChild(button({ type: "button", "class": "md-button", "data-action": "keep-shared" }, ui.keep_shared, this.endShared.bind(this, true)));
    this.sharedBar.appendChild(button({ type: "button", "class": "md-button", "data-action": "drop-shared" }, ui.back_to_mine, this.endShared.bind(this, false)));
    return this.sharedBar;
  };

  Calculator.prototype.buildControls = function () {
    var self = this, controls = el("div", { "class": "rs-calc__controls" });
    var countId = "rs-count-" + this.id;
    controls.appendChild(el("label", { "for": countId }, this.ui.players));
    var select = el("select", { id: countId });
    for (var n = this.model.players[0]; n <= this.maxPlayers; n++) select.appendChild(el("option", { value: String(n) }, String(n)));
    select.value = String(this.sheet.state.count);
    select.addEventListener("change", function () { self.sheet.state.count = Number(select.value); self.update(); });
    controls.appendChild(select);
    this.settingControls = {};
    this.model.settings.forEach(function (s) { self.settingControls[s.id] = self.buildSetting(s, controls); });
    return controls;
  };

  // A yes/no setting is a checkbox before its label; a choice is a label and a select.
  Calculator.prototype.buildSetting = function (s, controls) {
    var self = this, state = this.sheet.state, labels = this.data.settings[s.id];
    var id = "rs-setting-" + this.id + "-" + s.id, control;
    if (s.kind === "yes_no") {
      control = el("input", { type: "checkbox", id: id, "data-setting": s.id });
      control.checked = state.settings[s.id] === true;
      control.addEventListener("change", function () { self.sheet.state.settings[s.id] = control.checked; self.update(); });
      var box = el("span", { "class": "rs-calc__check", "data-setting": s.id });
      box.appendChild(control);
      box.appendChild(el("label", { "for": id }, labels.label));
      controls.appendChild(box);
      return control;
    }
    controls.appendChild(el("label", { "for": id, "data-setting": s.id }, labels.label));
    control = el("select", { id: id, "data-setting": s.id });
    s.options.forEach(function (o) { control.appendChild(el("option", { value: o }, labels.options[o])); });
    control.value = state.settings[s.id];
    control.addEventListener("change", function () { self.sheet.state.settings[s.id] = control.value; self.update(); });
    controls.appendChild(control);
    return control;
  };

  Calculator.prototype.buildActions = function () {
    var actions = el("div", { "class": "rs-calc__actions" });
    actions.appendChild(button({ type: "button", "class": "md-button", "data-action": "share" }, this.ui.share, this.onShare.bind(this)));
    actions.appendChild(button({ type: "button", "class": "md-button", "data-action": "reset" }, this.ui.reset, this.onReset.bind(this)));
    return actions;
  };

  // ---- Events -------------------------------------------------------------------------------

  Calculator.prototype.onHashChange = function () {
    var link = this.sheet.takeFragment();
    if (link === null) return;
    this.sheet.shared = false;
    var restored = this.sheet.restore(link);
    this.message.textContent = restored === false ? this.ui.state_ignored : "";
    this.syncInputs();
    this.showSharedBar();
    this.update();
    this.replaced();
  };

  Calculator.prototype.showSharedBar = function () { this.sharedBar.hidden = !this.sheet.shared; };

  // "Keep it" (the shared sheet becomes the reader's saved sheet) or "Back to mine" (the shared
  // sheet is dropped and the saved one comes back as it was).
  Calculator.prototype.endShared = function (keep) {
    this.sheet.endShared(keep);
    if (!keep) this.syncInputs();
    this.showSharedBar();
    this.update();
  };

  Calculator.prototype.onName = function (p, input) { this.sheet.setName(p, input.value); this.update(); };

  Calculator.prototype.onValue = function (field, p, input) { this.sheet.setValue(field, p, input.value); this.update(); };

  // The numeric keypad has no minus key, hence the button. On a blank cell there is nothing to
  // negate: a lone "-" would only make the cell invalid, so the button does nothing there.
  Calculator.prototype.onSign = function (field, p, input) {
    var v = input.value.trim();
    input.focus();
    if (v === "" || v === "-" || v === "\uFF0D" || v === "\u2212") return;
    input.value = /^[-\uFF0D\u2212]/.test(v) ? v.slice(1) : "-" + v;
    this.onValue(field, p, input);
  };

  Calculator.prototype.onShare = function () {
    var url = this.sheet.shareUrl(), self = this;
    var done = function () { self.message.textContent = self.ui.copied; };
    var manual = function () {
      self.message.textContent = self.ui.copy_manual + " ";
      var box = el("input", { type: "text", readonly: "readonly", "class": "rs-calc__link", "aria-label": self.ui.share });
      box.value = url;
      self.message.appendChild(box);
      box.select();
    };
    if (navigator.clipboard && navigator.clipboard.writeText) navigator.clipboard.writeText(url).then(done, manual);
    else manual();
  };

  Calculator.prototype.onReset = function () {
    if (!window.confirm(this.ui.reset_confirm)) return;
    this.sheet.reset();
    this.syncInputs();
    this.update();
  };

  // Loading an example over the reader's own numbers asks first, as Reset does: the sheet on
  // screen is the saved one, and the example would replace both. Returns whether it loaded.
  Calculator.prototype.load = function (example) {
    if (this.sheet.wouldLoseSheet() && !window.confirm(this.ui.example_confirm)) return false;
    this.sheet.state = this.sheet.exampleState(example);
    this.syncInputs();
    this.update();
    this.replaced();
    return true;
  };

  // The whole sheet was replaced without typing (an example, a share link): whatever offered to
  // bring an earlier sheet back (the game nights' undo) would now throw this one away.
  Calculator.prototype.replaced = function () {
    this.root.dispatchEvent(new CustomEvent(REPLACED));
  };

  // ---- Showing the sheet ----------------------------------------------------------------------

  Calculator.prototype.syncInputs = function () {
    var self = this, state = this.sheet.state;
    this.root.querySelector("select").value = String(state.count);
    this.model.settings.forEach(function (s) {
      var control = self.settingControls[s.id];
      if (s.kind === "yes_no") control.checked = state.settings[s.id] === true;
      else control.value = state.settings[s.id];
    });
    this.nameInputs.forEach(function (input, p) { input.value = state.names[p]; });
    Object.keys(this.cells).forEach(function (field) {
      self.cells[field].forEach(function (input, p) { input.value = state.values[field][p]; });
    });
  };

  // Settings no line can use with this many players, and columns beyond it, are hidden; each
  // cell's label names its player.
  Calculator.prototype.showLayout = function () {
    var self = this, ui = this.ui, count = this.sheet.state.count;
    this.model.settings.forEach(function (s) {
      var used = self.sheet.settingInUse(s, count);
      self.root.querySelectorAll('[data-setting="' + s.id + '"]').forEach(function (node) { node.hidden = !used; });
    });
    this.root.querySelectorAll("[data-column]").forEach(function (cell) {
      cell.hidden = Number(cell.getAttribute("data-column")) >= count;
    });
    // A section row spans only the columns shown: spanning hidden ones would keep them in the
    // table, and a phone's fixed layout would give them a share of the width.
    this.table.querySelectorAll(".rs-calc__section th").forEach(function (th) { th.colSpan = count + 1; });
    this.rankRow.hidden = count === 1; // one player: a score, not a rank
    for (var p = 0; p < this.maxPlayers; p++) {
      var name = this.sheet.playerName(p);
      this.headNames[p].textContent = name;
      this.model.inputs.forEach(function (spec) {
        var input = self.cells[spec.id][p], label = fill(ui.field_label, { player: name, field: self.data.inputs[spec.id].label });
        input.setAttribute("aria-label", label);
        if (input.signButton) input.signButton.setAttribute("aria-label", fill(ui.sign, { field: label }));
      });
    }
  };

  Calculator.prototype.update = function () {
    var self = this;
    this.showLayout();
    var read = this.sheet.read();
    this.model.inputs.forEach(function (spec) {
      self.cells[spec.id].forEach(function (input, p) {
        input.setAttribute("aria-invalid", read.marked[spec.id].indexOf(p) >= 0 ? "true" : "false");
      });
    });
    this.errors.textContent = "";
    read.problems.forEach(function (text) { self.errors.appendChild(el("li", {}, text)); });
    this.sheet.save();
    // The result on screen (null while there is none), for features built on the sheet.
    this.lastResult = null;
    if (read.problems.length || !this.sheet.hasEntries()) {
      this.showBlank();
      this.panel.blank(read.problems.length ? this.ui.fix_first : "");
    } else {
      // One evaluation for the table, the panel and the picture: the result, and the
      // tie-breaker values that explain its ranks.
      var scored = engine.scoreExplained(this.model, read.players, this.sheet.state.settings);
      this.lastResult = scored.result;
      this.showResult(scored.result, scored.tiebreaks);
    }
    this.keepClear();
  };

  Calculator.prototype.showResult = function (result, tiebreaks) {
    var self = this, standings = this.sheet.standings(result, Object.keys(this.termCells));
    Object.keys(this.termCells).forEach(function (id) {
      standings.lines[id].forEach(function (text, i) { self.termCells[id][i].textContent = text; });
      var row = self.table.querySelector('[data-term-row="' + id + '"]');
      if (row) row.hidden = !standings.shown[id];
    });
    standings.totals.forEach(function (text, i) { self.totalCells[i].textContent = text; });
    standings.ranks.forEach(function (rank, i) {
      self.rankCells[i].textContent = rank.text;
      self.rankCells[i].classList.toggle("rs-calc__winner", rank.best);
    });
    this.markBest(function (column) { return column < standings.ranks.length && standings.ranks[column].best; });
    this.panel.show(result, tiebreaks, standings);
    this.chart.draw(result.players, this.pointLines);
  };

  // The winner's column (each player sharing first place) is highlighted, head to total.
  Calculator.prototype.markBest = function (isBest) {
    var declared = this.data.declareWinner;
    this.table.querySelectorAll("[data-column]").forEach(function (cell) {
      cell.classList.toggle("rs-calc__best", declared && isBest(Number(cell.getAttribute("data-column"))));
    });
  };

  // A field the reader moves to or types in must not sit under the panel stuck to the bottom
  // of the screen: it is scrolled clear, once the browser has scrolled it into view.
  Calculator.prototype.keepClear = function () {
    var self = this;
    window.requestAnimationFrame(function () {
      var field = document.activeElement;
      if (!field || !self.table.contains(field) || self.panel.node.hidden) return;
      var box = field.getBoundingClientRect(), panel = self.panel.node.getBoundingClientRect();
      if (box.bottom > panel.top - 4 && box.top < panel.bottom) window.scrollBy(0, box.bottom - panel.top + 8);
    });
  };

  Calculator.prototype.showBlank = function () {
    var self = this;
    this.table.querySelectorAll("[data-term-row]").forEach(function (row) { row.hidden = true; });
    this.totalCells.forEach(function (cell) { cell.textContent = "—"; });
    this.rankCells.forEach(function (cell) { cell.textContent = ""; cell.classList.remove("rs-calc__winner"); });
    this.markBest(function () { return false; });
    this.chart.blank();
    Object.keys(this.termCells).forEach(function (id) { self.termCells[id].forEach(function (c) { c.textContent = ""; }); });
  };

  Calculator.REPLACED = REPLACED;
  window.RulesiteCalculator = Calculator;
})();
