// rulesite scoring calculator: the page around the engine. Plain JS, no dependencies.
//
// The scoring itself is scoring-engine.js (window.RulesiteScore, loaded first), the same engine
// Node tests against the shared vectors; this file builds the table, reads the cells, keeps
// the state and says who won. Text from people (player names) and from data (labels) is only
// ever set with textContent or value, never as HTML.
(function () {
  "use strict";

  var engine = window.RulesiteScore;

  // ---- Page -------------------------------------------------------------------------------

  var STORAGE_PREFIX = "rulesite:calc:v1:";
  // A sheet opened from a share link waits here (this tab only) until the reader keeps or drops
  // it, so a reload neither loses the shared sheet nor lets it overwrite the reader's own.
  var SHARED_PREFIX = "rulesite:calc:v1:shared:";
  var MAX_STATE_CHARS = 20000, MAX_NAME = 40;

  function el(tag, attrs, text) {
    var node = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) { node.setAttribute(k, attrs[k]); });
    if (text !== undefined) node.textContent = text;
    return node;
  }

  function fill(template, values) {
    return template.replace(/\{(\w+)\}/g, function (m, key) {
      return Object.prototype.hasOwnProperty.call(values, key) ? String(values[key]) : m;
    });
  }

  function Calculator(root, data) {
    this.root = root;
    this.data = data;
    this.model = data.model;
    this.ui = data.ui;
    this.id = root.getAttribute("data-calculator");
    this.maxPlayers = this.model.players[1];
    this.state = this.blankState();
    this.shared = false;
    var restored = this.restore(this.takeFragment());
    this.build();
    if (restored === false) this.message.textContent = this.ui.state_ignored;
    this.showSharedBar();
    this.update();
    // A share link opened while this page is open changes only the fragment: no new page load.
    window.addEventListener("hashchange", this.onHashChange.bind(this));
  }

  Calculator.prototype.blankState = function () {
    var self = this, values = {}, settings = {};
    this.model.inputs.forEach(function (i) { values[i.id] = repeat("", self.maxPlayers); });
    this.model.settings.forEach(function (s) { settings[s.id] = s.default; });
    // Start with two players where the game allows it: solo is the exception at the table.
    var count = Math.min(Math.max(this.model.players[0], 2), this.maxPlayers);
    return { count: count, names: repeat("", this.maxPlayers), values: values, settings: settings };
  };

  function repeat(value, n) { var out = []; for (var i = 0; i < n; i++) out.push(value); return out; }

  // State from the URL fragment or localStorage is untrusted: accept only the exact shape, with
  // short strings and known keys; anything else is ignored (and the reader is told).
  Calculator.prototype.accept = function (raw) {
    if (typeof raw !== "string" || raw.length > MAX_STATE_CHARS) return false;
    var data;
    try { data = JSON.parse(raw); } catch (e) { return false; }
    if (!data || typeof data !== "object" || Array.isArray(data)) return false;
    var low = this.model.players[0], next = this.blankState(), self = this;
    if (typeof data.count !== "number" || data.count % 1 !== 0 || data.count < low || data.count > this.maxPlayers) return false;
    next.count = data.count;
    if (!Array.isArray(data.names)) return false;
    for (var i = 0; i < Math.min(data.names.length, this.maxPlayers); i++) {
      if (typeof data.names[i] !== "string") return false;
      next.names[i] = data.names[i].slice(0, MAX_NAME);
    }
    if (!data.values || typeof data.values !== "object") return false;
    var ok = Object.keys(data.values).every(function (key) {
      var column = data.values[key];
      if (!Object.prototype.hasOwnProperty.call(next.values, key) || !Array.isArray(column)) return false;
      return column.slice(0, self.maxPlayers).every(function (v, j) {
        if (typeof v !== "string" || v.length > 12) return false;
        next.values[key][j] = v;
        return true;
      });
    });
    if (!ok) return false;
    if (data.settings && typeof data.settings === "object") {
      this.model.settings.forEach(function (s) {
        if (!Object.prototype.hasOwnProperty.call(data.settings, s.id)) return;
        var value = data.settings[s.id];
        if (s.kind === "yes_no" ? typeof value === "boolean" : s.options.indexOf(value) >= 0) next.settings[s.id] = value;
      });
    }
    this.state = next;
    return true;
  };

  Calculator.prototype.fragmentKey = function () { return "score-" + this.id + "="; };

  function storageGet(store, key) {
    try { return window[store].getItem(key); } catch (e) { return null; }
  }

  function storageSet(store, key, value) {
    try {
      if (value === null) window[store].removeItem(key);
      else window[store].setItem(key, value);
    } catch (e) { /* private mode: the sheet lives as long as the page */ }
  }

  // The share link's part of the fragment, removed from the address once read: a reload or a
  // bookmark then shows the saved sheet (with the reader's edits), not the link's old numbers.
  Calculator.prototype.takeFragment = function () {
    var hash = window.location.hash.slice(1), key = this.fragmentKey(), found = null, rest = [];
    hash.split("&").forEach(function (part) {
      if (part.indexOf(key) === 0) found = part.slice(key.length);
      else if (part) rest.push(part);
    });
    if (found !== null && window.history && window.history.replaceState) {
      var url = window.location.href.split("#")[0] + (rest.length ? "#" + rest.join("&") : "");
      window.history.replaceState(window.history.state, "", url);
    }
    if (found === null) return null;
    try {
      var binary = window.atob(found.replace(/-/g, "+").replace(/_/g, "/"));
      var bytes = Uint8Array.from(binary, function (c) { return c.charCodeAt(0); });
      return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
    } catch (e) { return ""; }
  };

  // Returns true (restored), null (nothing saved) or false (something unusable was found).
  // A shared sheet never replaces a different saved one: it is shown beside it (this.shared)
  // and storage is left alone until the reader keeps it.
  Calculator.prototype.restore = function (link) {
    var saved = storageGet("localStorage", STORAGE_PREFIX + this.id);
    var own = saved === null ? null : this.accept(saved) ? JSON.stringify(this.state) : null;
    if (link === null) link = storageGet("sessionStorage", SHARED_PREFIX + this.id);
    if (link !== null) {
      this.state = this.blankState();
      var readable = this.accept(link), linked = JSON.stringify(this.state);
      this.shared = readable && own !== null && own !== linked && this.stateHasData(JSON.parse(own));
      // Only a shared sheet still waiting for Keep / Back stays in this tab's storage.
      storageSet("sessionStorage", SHARED_PREFIX + this.id, this.shared ? linked : null);
      if (!readable) this.restoreOwn();
      return readable;
    }
    if (saved === null) return null;
    return own !== null;
  };

  Calculator.prototype.onHashChange = function () {
    var link = this.takeFragment();
    if (link === null) return;
    this.shared = false;
    var restored = this.restore(link);
    this.message.textContent = restored === false ? this.ui.state_ignored : "";
    this.syncInputs();
    this.showSharedBar();
    this.update();
  };

  Calculator.prototype.restoreOwn = function () {
    var saved = storageGet("localStorage", STORAGE_PREFIX + this.id);
    this.state = this.blankState();
    if (saved !== null && !this.accept(saved)) this.state = this.blankState();
  };

  Calculator.prototype.save = function () {
    var key = this.shared ? SHARED_PREFIX + this.id : STORAGE_PREFIX + this.id;
    storageSet(this.shared ? "sessionStorage" : "localStorage", key, JSON.stringify(this.state));
  };

  // Whether a sheet holds anything a reader would miss: a number or a name.
  Calculator.prototype.stateHasData = function (state) {
    var filled = function (v) { return typeof v === "string" && v.trim() !== ""; };
    return state.names.some(filled) || Object.keys(state.values).some(function (field) {
      return state.values[field].some(filled);
    });
  };

  Calculator.prototype.showSharedBar = function () {
    this.sharedBar.hidden = !this.shared;
  };

  // "Keep it": the shared sheet becomes the reader's saved sheet.
  Calculator.prototype.onKeepShared = function () {
    this.endShared(true);
  };

  // "Back to mine": the shared sheet is dropped and the saved one comes back as it was.
  Calculator.prototype.onDropShared = function () {
    this.endShared(false);
  };

  Calculator.prototype.endShared = function (keep) {
    storageSet("sessionStorage", SHARED_PREFIX + this.id, null);
    this.shared = false;
    if (keep) {
      this.save();
    } else {
      this.restoreOwn();
      this.syncInputs();
    }
    this.showSharedBar();
    this.update();
  };

  Calculator.prototype.shareUrl = function () {
    var bytes = new TextEncoder().encode(JSON.stringify(this.state)), binary = "";
    for (var i = 0; i < bytes.length; i++) binary += String.fromCharCode(bytes[i]);
    var encoded = window.btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
    return window.location.href.split("#")[0] + "#" + this.fragmentKey() + encoded;
  };

  Calculator.prototype.playerName = function (i) {
    return this.state.names[i].trim() || fill(this.ui.player_default, { n: i + 1 });
  };

  Calculator.prototype.build = function () {
    var self = this, data = this.data, ui = this.ui;
    this.sharedBar = el("div", { "class": "rs-calc__shared", role: "region", "aria-label": ui.shared_notice });
    this.sharedBar.appendChild(el("span", {}, ui.shared_notice));
    var keep = el("button", { type: "button", "class": "md-button", "data-action": "keep-shared" }, ui.keep_shared);
    var drop = el("button", { type: "button", "class": "md-button", "data-action": "drop-shared" }, ui.back_to_mine);
    keep.addEventListener("click", this.onKeepShared.bind(this));
    drop.addEventListener("click", this.onDropShared.bind(this));
    this.sharedBar.appendChild(keep);
    this.sharedBar.appendChild(drop);
    this.root.appendChild(this.sharedBar);
    var controls = el("div", { "class": "rs-calc__controls" });
    var countId = "rs-count-" + this.id;
    controls.appendChild(el("label", { "for": countId }, ui.players));
    var select = el("select", { id: countId });
    for (var n = this.model.players[0]; n <= this.maxPlayers; n++) select.appendChild(el("option", { value: String(n) }, String(n)));
    select.value = String(this.state.count);
    select.addEventListener("change", function () { self.state.count = Number(select.value); self.update(); });
    controls.appendChild(select);
    this.settingControls = {};
    this.model.settings.forEach(function (s) {
      var id = "rs-setting-" + self.id + "-" + s.id, control;
      if (s.kind === "yes_no") {
        // A yes/no setting is a checkbox before its label.
        control = el("input", { type: "checkbox", id: id, "data-setting": s.id });
        control.checked = self.state.settings[s.id] === true;
        control.addEventListener("change", function () { self.state.settings[s.id] = control.checked; self.update(); });
        var box = el("span", { "class": "rs-calc__check", "data-setting": s.id });
        box.appendChild(control);
        box.appendChild(el("label", { "for": id }, data.settings[s.id].label));
        controls.appendChild(box);
      } else {
        controls.appendChild(el("label", { "for": id, "data-setting": s.id }, data.settings[s.id].label));
        control = el("select", { id: id, "data-setting": s.id });
        s.options.forEach(function (o) { control.appendChild(el("option", { value: o }, data.settings[s.id].options[o])); });
        control.value = self.state.settings[s.id];
        control.addEventListener("change", function () { self.state.settings[s.id] = control.value; self.update(); });
        controls.appendChild(control);
      }
      self.settingControls[s.id] = control;
    });
    this.root.appendChild(controls);

    var wrap = el("div", { "class": "rs-calc__scroll" });
    var table = el("table", { "class": "rs-calc__table" });
    var head = el("tr");
    head.appendChild(el("th", { scope: "col" }, ui.field));
    this.nameInputs = [];
    for (var p = 0; p < this.maxPlayers; p++) {
      var th = el("th", { scope: "col", "data-column": String(p) });
      var name = el("input", { type: "text", maxlength: String(MAX_NAME), autocomplete: "off", "class": "rs-calc__name", "data-name": String(p), "aria-label": fill(ui.name_label, { n: p + 1 }), placeholder: fill(ui.player_default, { n: p + 1 }) });
      name.value = this.state.names[p];
      name.addEventListener("input", this.onName.bind(this, p, name));
      th.appendChild(name);
      this.nameInputs.push(name);
      head.appendChild(th);
    }
    var thead = el("thead"); thead.appendChild(head); table.appendChild(thead);

    var inputs = el("tbody", { "class": "rs-calc__inputs" });
    this.cells = {};
    this.model.inputs.forEach(function (spec) {
      var labels = data.inputs[spec.id], row = el("tr");
      var rowHead = el("th", { scope: "row" });
      var label = labels.rule ? el("a", { href: "../rules/#" + labels.rule }, labels.label) : el("span", {}, labels.label);
      rowHead.appendChild(label);
      if (labels.help) {
        // On a phone the explanation waits behind a tap (it would take more room than the row).
        var helpId = "rs-help-" + self.id + "-" + spec.id;
        var toggle = el("button", { type: "button", "class": "rs-calc__help-toggle", "aria-expanded": "false", "aria-controls": helpId, "aria-label": fill(ui.help_toggle, { field: labels.label }) }, "?");
        toggle.addEventListener("click", function () {
          toggle.setAttribute("aria-expanded", toggle.getAttribute("aria-expanded") === "true" ? "false" : "true");
        });
        rowHead.appendChild(toggle);
        rowHead.appendChild(el("span", { "class": "rs-calc__help", id: helpId }, labels.help));
      }
      row.appendChild(rowHead);
      self.cells[spec.id] = [];
      for (var i = 0; i < self.maxPlayers; i++) {
        var td = el("td", { "data-column": String(i) });
        var input = el("input", { type: "text", inputmode: "numeric", autocomplete: "off", "data-field": spec.id, "data-player": String(i), "class": "rs-calc__input" });
        input.value = self.state.values[spec.id][i];
        // A blank cell means what the engine makes of a missing input: say so where it is not 0.
        var blank = engine.missingValue(spec, i);
        if (blank !== 0) input.placeholder = String(blank);
        input.addEventListener("input", self.onValue.bind(self, spec.id, i, input));
        td.appendChild(input);
        if (spec.min < 0) {
          var sign = el("button", { type: "button", "class": "rs-calc__sign", "data-sign": spec.id + ":" + i }, "±");
          sign.addEventListener("click", self.onSign.bind(self, spec.id, i, input));
          td.appendChild(sign);
          input.signButton = sign;
        }
        self.cells[spec.id].push(input);
        row.appendChild(td);
      }
      inputs.appendChild(row);
    });
    table.appendChild(inputs);

    this.termCells = {};
    var lines = this.model.terms.filter(function (t) { return !t.helper; });
    if (this.model.total_min !== null) lines = lines.concat([{ id: engine.FLOOR_TERM }]);
    table.appendChild(this.termSection(ui.breakdown, "rs-calc__terms", lines));
    // Shown helper values (sets of symbols, a tier...) feed the lines but are never added up.
    var shownHelpers = this.model.terms.filter(function (t) { return t.helper === "shown"; });
    if (shownHelpers.length) table.appendChild(this.termSection(ui.helpers, "rs-calc__helpers", shownHelpers));

    var foot = el("tfoot");
    this.totalCells = []; this.rankCells = [];
    var totalRow = el("tr", { "class": "rs-calc__total" }), rankRow = el("tr", { "class": "rs-calc__rank" });
    totalRow.appendChild(el("th", { scope: "row" }, ui.total));
    rankRow.appendChild(el("th", { scope: "row" }, ui.rank));
    for (var j = 0; j < this.maxPlayers; j++) {
      var out = el("output", { "data-total": String(j) });
      var cell = el("td", { "data-column": String(j) }); cell.appendChild(out); totalRow.appendChild(cell);
      this.totalCells.push(out);
      var rank = el("td", { "data-column": String(j), "data-rank": String(j) });
      rankRow.appendChild(rank); this.rankCells.push(rank);
    }
    foot.appendChild(totalRow);
    if (data.declareWinner) foot.appendChild(rankRow);
    table.appendChild(foot);
    wrap.appendChild(table);
    this.root.appendChild(wrap);
    this.table = table;

    this.result = el("p", { "class": "rs-calc__result", role: "status", "aria-live": "polite" });
    this.errors = el("ul", { "class": "rs-calc__errors", "aria-live": "polite" });
    this.root.appendChild(this.result);
    this.root.appendChild(this.errors);

    var actions = el("div", { "class": "rs-calc__actions" });
    var share = el("button", { type: "button", "class": "md-button", "data-action": "share" }, ui.share);
    var reset = el("button", { type: "button", "class": "md-button", "data-action": "reset" }, ui.reset);
    share.addEventListener("click", this.onShare.bind(this));
    reset.addEventListener("click", this.onReset.bind(this));
    actions.appendChild(share); actions.appendChild(reset);
    this.root.appendChild(actions);
    this.message = el("p", { "class": "rs-calc__message", role: "status" });
    this.root.appendChild(this.message);
  };

  Calculator.prototype.termSection = function (title, className, terms) {
    var self = this, section = el("tbody", { "class": className });
    section.appendChild(this.sectionRow(title));
    terms.forEach(function (term) {
      var row = el("tr", { "data-term-row": term.id });
      var label = term.id === engine.FLOOR_TERM ? "≥ " + self.model.total_min : self.data.terms[term.id];
      row.appendChild(el("th", { scope: "row" }, label));
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

  Calculator.prototype.sectionRow = function (text) {
    var row = el("tr", { "class": "rs-calc__section" });
    row.appendChild(el("th", { scope: "rowgroup", colspan: String(this.maxPlayers + 1) }, text));
    return row;
  };

  Calculator.prototype.onName = function (p, input) {
    this.state.names[p] = input.value.slice(0, MAX_NAME);
    this.update();
  };

  Calculator.prototype.onValue = function (field, p, input) {
    this.state.values[field][p] = input.value.slice(0, 12);
    this.update();
  };

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
    var url = this.shareUrl(), self = this;
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
    this.state = this.blankState();
    this.syncInputs();
    this.update();
  };

  Calculator.prototype.exampleState = function (example) {
    var self = this, next = this.blankState();
    next.count = example.players.length;
    example.players.forEach(function (p, i) {
      next.names[i] = String(p.name || "");
      self.model.inputs.forEach(function (spec) { next.values[spec.id][i] = p[spec.id] === undefined ? "" : String(p[spec.id]); });
    });
    Object.keys(example.settings || {}).forEach(function (k) {
      if (Object.prototype.hasOwnProperty.call(next.settings, k)) next.settings[k] = example.settings[k];
    });
    return next;
  };

  // Whether loading over the sheet on screen could lose something: it holds numbers or names
  // and is not simply an example as loaded (that one can be loaded again).
  Calculator.prototype.wouldLoseSheet = function () {
    var self = this, current = JSON.stringify(this.state);
    if (!this.stateHasData(this.state)) return false;
    return !this.data.examples.some(function (e) { return JSON.stringify(self.exampleState(e)) === current; });
  };

  // Loading an example over the reader's own numbers asks first, as Reset does: the sheet on
  // screen is the saved one, and the example would replace both. Returns whether it loaded.
  Calculator.prototype.load = function (example) {
    if (this.wouldLoseSheet() && !window.confirm(this.ui.example_confirm)) return false;
    this.state = this.exampleState(example);
    this.syncInputs();
    this.update();
    return true;
  };

  Calculator.prototype.syncInputs = function () {
    var self = this;
    this.root.querySelector("select").value = String(this.state.count);
    this.model.settings.forEach(function (s) {
      var control = self.settingControls[s.id];
      if (s.kind === "yes_no") control.checked = self.state.settings[s.id] === true;
      else control.value = self.state.settings[s.id];
    });
    this.nameInputs.forEach(function (input, p) { input.value = self.state.names[p]; });
    Object.keys(this.cells).forEach(function (field) {
      self.cells[field].forEach(function (input, p) { input.value = self.state.values[field][p]; });
    });
  };

  // Read the visible cells: whole numbers in range. A blank cell is left out, and the engine
  // gives it the model's meaning (0, or for turn order the column's position: the placeholder).
  Calculator.prototype.read = function () {
    var self = this, players = [], problems = [], ui = this.ui, marked = {};
    for (var p = 0; p < this.state.count; p++) players.push({ name: this.playerName(p) });
    this.model.inputs.forEach(function (spec) {
      var label = self.data.inputs[spec.id].label;
      marked[spec.id] = [];
      for (var p = 0; p < self.state.count; p++) {
        var text = normalNumber(self.state.values[spec.id][p]);
        if (text === "" || text === "-") continue; // blank, or a minus typed before its digits
        var value = /^-?\d{1,9}$/.test(text) ? Number(text) : NaN;
        if (value >= spec.min && value <= spec.max) { players[p][spec.id] = value; continue; }
        var cellLabel = fill(ui.field_label, { player: self.playerName(p), field: label });
        problems.push(fill(ui.invalid, { field: cellLabel, min: spec.min, max: spec.max }));
        marked[spec.id].push(p);
      }
    });
    // Rules across players (different turn orders, one holder of a card): the engine finds them.
    engine.conflicts(this.model, players).forEach(function (c) {
      var label = self.data.inputs[c.input].label;
      var text = fill(c.rule === "unique" ? ui.duplicate : ui.only_one, { field: label });
      if (problems.indexOf(text) < 0) problems.push(text);
      c.players.forEach(function (p) { marked[c.input].push(p); });
    });
    this.model.inputs.forEach(function (spec) {
      self.cells[spec.id].forEach(function (input, p) {
        input.setAttribute("aria-invalid", marked[spec.id].indexOf(p) >= 0 ? "true" : "false");
      });
    });
    return { players: players, problems: problems };
  };

  // Full-width digits and minus signs (a Chinese or Japanese keyboard) read as ASCII ones.
  function normalNumber(text) {
    return text.trim()
      .replace(/[\uFF10-\uFF19]/g, function (d) { return String.fromCharCode(d.charCodeAt(0) - 0xFF10 + 48); })
      .replace(/^[\uFF0D\u2212]/, "-");
  }

  function termTrees(term) { return [term.tree, term.when].filter(Boolean); }

  // A setting is only offered while some line that can apply with this many players uses it
  // (e.g. the empire face only in solo), or a tie-breaker does. A `when` counts as use: it is
  // how the setting switches its line on.
  Calculator.prototype.settingInUse = function (setting, count) {
    var uses = function (tree) {
      return engine.treeNames(tree).some(function (n) {
        return setting.kind === "yes_no" ? n === setting.id : n.indexOf(setting.id + "_") === 0;
      });
    };
    return this.model.terms.some(function (t) {
      var fits = !t.players || (t.players[0] <= count && count <= t.players[1]);
      return fits && termTrees(t).some(uses);
    }) || this.model.tiebreakers.some(function (tb) { return uses(tb.by); });
  };

  Calculator.prototype.update = function () {
    var self = this, ui = this.ui, count = this.state.count;
    this.model.settings.forEach(function (s) {
      var used = self.settingInUse(s, count);
      self.root.querySelectorAll('[data-setting="' + s.id + '"]').forEach(function (node) { node.hidden = !used; });
    });
    this.table.querySelectorAll("[data-column]").forEach(function (cell) {
      cell.hidden = Number(cell.getAttribute("data-column")) >= count;
    });
    for (var p = 0; p < this.maxPlayers; p++) {
      var name = this.playerName(p);
      this.model.inputs.forEach(function (spec) {
        var input = self.cells[spec.id][p], label = fill(ui.field_label, { player: name, field: self.data.inputs[spec.id].label });
        input.setAttribute("aria-label", label);
        if (input.signButton) input.signButton.setAttribute("aria-label", fill(ui.sign, { field: label }));
      });
    }
    var read = this.read();
    this.errors.textContent = "";
    read.problems.forEach(function (text) { self.errors.appendChild(el("li", {}, text)); });
    this.save();
    if (read.problems.length) {
      this.showBlank();
      this.result.textContent = ui.fix_first;
      return;
    }
    if (!this.hasEntries()) {
      this.showBlank();
      this.result.textContent = "";
      return;
    }
    var result = engine.score(this.model, read.players, this.state.settings);
    var shown = {};
    Object.keys(this.termCells).forEach(function (id) { shown[id] = false; });
    result.players.forEach(function (player, i) {
      Object.keys(self.termCells).forEach(function (id) {
        var values = Object.prototype.hasOwnProperty.call(player.breakdown, id) ? player.breakdown : player.helpers;
        var has = Object.prototype.hasOwnProperty.call(values, id);
        self.termCells[id][i].textContent = has ? String(values[id]) : "";
        if (has) shown[id] = true;
      });
      self.totalCells[i].textContent = String(player.total);
      var winner = result.winners.length === 1 && result.winners[0] === player.name && player.rank === 1;
      self.rankCells[i].textContent = String(player.rank) + (winner ? " · " + ui.winner : "");
      self.rankCells[i].classList.toggle("rs-calc__winner", winner || (result.outcome !== "single" && result.outcome !== "tiebreak" && player.rank === 1));
    });
    Object.keys(shown).forEach(function (id) {
      var row = self.table.querySelector('[data-term-row="' + id + '"]');
      if (row) row.hidden = !shown[id];
    });
    this.result.textContent = this.data.declareWinner ? this.describe(result) : "";
  };

  Calculator.prototype.hasEntries = function () {
    var values = this.state.values, count = this.state.count;
    return Object.keys(values).some(function (field) {
      return values[field].slice(0, count).some(function (v) { return v.trim() !== ""; });
    });
  };

  Calculator.prototype.showBlank = function () {
    var self = this;
    this.table.querySelectorAll("[data-term-row]").forEach(function (row) { row.hidden = true; });
    this.totalCells.forEach(function (cell) { cell.textContent = "—"; });
    this.rankCells.forEach(function (cell) { cell.textContent = ""; cell.classList.remove("rs-calc__winner"); });
    Object.keys(this.termCells).forEach(function (id) { self.termCells[id].forEach(function (c) { c.textContent = ""; }); });
  };

  Calculator.prototype.describe = function (result) {
    var ui = this.ui, names = result.winners.join(ui.list_join), labels = this.data.tiebreakers;
    if (result.outcome === "shared") return fill(ui.tie_shared, { names: names });
    if (result.outcome === "undecided") return fill(ui.tie_undecided, { names: names });
    var text = fill(ui.winner_line, { names: names });
    if (result.outcome === "tiebreak") {
      var by = result.decided_by.map(function (i) { return labels[i]; }).join(ui.then);
      text += " " + fill(ui.tie_broken, { by: by });
    }
    return text;
  };

  // On a score page the content a keyboard reader skips to is the sheet: the theme's "Skip to
  // content" link is pointed at the first calculator's table, one Tab from its first cell.
  function skipToSheet(calc) {
    var skip = document.querySelector("a.md-skip");
    if (!skip || document.querySelector("[data-rs-skip-target]")) return;
    calc.table.id = "rs-sheet-" + calc.id;
    calc.table.setAttribute("tabindex", "-1");
    calc.table.setAttribute("data-rs-skip-target", "");
    skip.setAttribute("href", "#" + calc.table.id);
  }

  function start() {
    document.querySelectorAll(".rs-calc[data-calculator]").forEach(function (root) {
      if (root.rsCalculator) return;
      // The model travels in a data attribute (not a <script>), so pages carry no inline script.
      var calc = new Calculator(root, JSON.parse(root.getAttribute("data-model")));
      root.rsCalculator = calc;
      skipToSheet(calc);
      var list = document.querySelector('.rs-calc__examples[data-calculator="' + calc.id + '"] ul');
      if (list) {
        Array.prototype.forEach.call(list.children, function (item, i) {
          var example = calc.data.examples[i];
          if (!example) return;
          var button = el("button", { type: "button", "class": "rs-calc__try", "data-example": example.id }, calc.ui.try);
          button.addEventListener("click", function () { if (calc.load(example)) root.scrollIntoView({ block: "start" }); });
          item.appendChild(document.createTextNode(" "));
          item.appendChild(button);
        });
      }
    });
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
