// rulesite scoring calculator. Plain JS, no dependencies.
//
// The scoring engine below mirrors scripts/rulesite/scoring/engine.py step for step: both walk
// the same compiled model (formula trees as JSON), and the test suite checks that they agree on
// every worked example and on random input. Nothing is ever evaluated as code: no eval, no
// new Function. Text from people (player names) is only ever set with textContent or value.
(function () {
  "use strict";

  // ---- Engine (keep in step with engine.py) -------------------------------------------------

  function evaluate(tree, env) {
    if ("n" in tree) return tree.n;
    if ("v" in tree) return env[tree.v];
    var a = tree.a.map(function (child) { return evaluate(child, env); });
    switch (tree.op) {
      case "+": return a[0] + a[1];
      case "-": return a[0] - a[1];
      case "*": return a[0] * a[1];
      case "//": return Math.floor(a[0] / a[1]); // floor division, like Python's //
      case "neg": return -a[0];
      case "min": return Math.min.apply(null, a);
      case "max": return Math.max.apply(null, a);
    }
    throw new Error("unknown operation " + tree.op);
  }

  function settingFlags(settings, model) {
    var flags = {};
    model.settings.forEach(function (s) {
      var chosen = Object.prototype.hasOwnProperty.call(settings, s.id) ? settings[s.id] : s.default;
      s.options.forEach(function (o) { flags[s.id + "_" + o] = o === chosen ? 1 : 0; });
    });
    return flags;
  }

  function awardPoints(tables, count) {
    for (var i = 0; i < tables.length; i++) {
      if (tables[i].players[0] <= count && count <= tables[i].players[1]) return tables[i].points;
    }
    return [];
  }

  function rankAwards(amounts, points, tie) {
    return amounts.map(function (mine) {
      var place = amounts.filter(function (o) { return o > mine; }).length;
      var tied = amounts.filter(function (o) { return o === mine; }).length;
      var occupied = [];
      for (var p = place; p < place + tied; p++) occupied.push(p < points.length ? points[p] : 0);
      if (tied === 1) return occupied[0];
      if (tie === "split") return Math.floor(occupied.reduce(add, 0) / tied);
      if (tie === "full") return occupied[0];
      return 0;
    });
  }

  function rarityPoints(term, envs) {
    var totals = {};
    term.kinds.forEach(function (k) {
      totals[k] = envs.reduce(function (sum, env) { return sum + env[k]; }, 0);
    });
    var rarest = term.rarer_on_tie;
    var common = term.kinds.slice().sort(function (x, y) {
      return (totals[y] - totals[x]) || (rarest.indexOf(y) - rarest.indexOf(x));
    });
    var value = {};
    common.forEach(function (k, i) { value[k] = term.values[i]; });
    return envs.map(function (env) {
      return term.kinds.reduce(function (sum, k) { return sum + env[k] * value[k]; }, 0);
    });
  }

  function termValues(term, envs) {
    var amounts;
    if (term.kind === "formula") return envs.map(function (env) { return evaluate(term.tree, env); });
    if (term.kind === "fewer") {
      amounts = envs.map(function (env) { return evaluate(term.tree, env); });
      return amounts.map(function (mine) { return amounts.filter(function (o) { return o < mine; }).length; });
    }
    if (term.kind === "rank") {
      amounts = envs.map(function (env) { return evaluate(term.tree, env); });
      return rankAwards(amounts, awardPoints(term.awards, envs.length), term.tie);
    }
    return rarityPoints(term, envs);
  }

  function add(x, y) { return x + y; }

  function compareKeys(x, y) {
    for (var i = 0; i < x.length; i++) if (x[i] !== y[i]) return x[i] > y[i] ? 1 : -1;
    return 0;
  }

  function score(model, players, settings) {
    var count = players.length, flags = settingFlags(settings || {}, model);
    var envs = players.map(function (p) {
      var env = Object.assign({}, flags, { players: count });
      model.inputs.forEach(function (i) { env[i.id] = p[i.id] === undefined ? 0 : p[i.id]; });
      return env;
    });
    var terms = {};
    model.terms.forEach(function (t) { terms[t.id] = t; });
    var breakdowns = players.map(function () { return {}; });
    model.order.forEach(function (id) {
      var term = terms[id];
      var active = !term.players || (term.players[0] <= count && count <= term.players[1]);
      var values = active ? termValues(term, envs) : envs.map(function () { return 0; });
      envs.forEach(function (env, i) {
        env[id] = values[i];
        if (active) breakdowns[i][id] = values[i];
      });
    });
    var scores = players.map(function (p, i) {
      var b = breakdowns[i], total = Object.keys(b).reduce(function (s, k) { return s + b[k]; }, 0);
      if (model.total_min !== null && total < model.total_min) {
        b.floor = model.total_min - total;
        total = model.total_min;
      }
      return { name: String(p.name || "#" + (i + 1)), total: total, breakdown: b, rank: 0 };
    });
    var keys = scores.map(function (s, i) {
      return [s.total].concat(model.tiebreakers.map(function (tb) {
        return (tb.prefer === "higher" ? 1 : -1) * evaluate(tb.by, envs[i]);
      }));
    });
    scores.forEach(function (s, i) {
      s.rank = 1 + keys.filter(function (k) { return compareKeys(k, keys[i]) > 0; }).length;
    });
    var best = Math.max.apply(null, scores.map(function (s) { return s.total; }));
    var candidates = [], decidedBy = [];
    scores.forEach(function (s, i) { if (s.total === best) candidates.push(i); });
    for (var pos = 0; pos < model.tiebreakers.length && candidates.length > 1; pos++) {
      var top = Math.max.apply(null, candidates.map(function (i) { return keys[i][pos + 1]; }));
      var narrowed = candidates.filter(function (i) { return keys[i][pos + 1] === top; });
      if (narrowed.length < candidates.length) decidedBy.push(pos);
      candidates = narrowed;
    }
    var outcome = candidates.length > 1 ? model.when_tied : (decidedBy.length ? "tiebreak" : "single");
    return {
      players: scores,
      winners: candidates.map(function (i) { return scores[i].name; }),
      outcome: outcome,
      decided_by: decidedBy
    };
  }

  // Tests (and curious readers) can call the engine directly.
  window.RulesiteScore = { score: score, evaluate: evaluate };

  // ---- Page -------------------------------------------------------------------------------

  var STORAGE_PREFIX = "rulesite:calc:v1:";
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
    var restored = this.restore();
    this.build();
    if (restored === false) this.message.textContent = this.ui.state_ignored;
    this.update();
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
        if (s.options.indexOf(data.settings[s.id]) >= 0) next.settings[s.id] = data.settings[s.id];
      });
    }
    this.state = next;
    return true;
  };

  Calculator.prototype.fragmentKey = function () { return "score-" + this.id + "="; };

  // Returns true (restored), null (nothing saved) or false (something unusable was found).
  Calculator.prototype.restore = function () {
    var hash = window.location.hash.slice(1), key = this.fragmentKey(), found = null;
    hash.split("&").forEach(function (part) { if (part.indexOf(key) === 0) found = part.slice(key.length); });
    if (found !== null) {
      var decoded = null;
      try {
        var binary = window.atob(found.replace(/-/g, "+").replace(/_/g, "/"));
        var bytes = Uint8Array.from(binary, function (c) { return c.charCodeAt(0); });
        decoded = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
      } catch (e) { decoded = null; }
      return this.accept(decoded);
    }
    var saved = null;
    try { saved = window.localStorage.getItem(STORAGE_PREFIX + this.id); } catch (e) { saved = null; }
    return saved === null ? null : this.accept(saved);
  };

  Calculator.prototype.save = function () {
    try { window.localStorage.setItem(STORAGE_PREFIX + this.id, JSON.stringify(this.state)); } catch (e) { /* private mode */ }
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
    var controls = el("div", { "class": "rs-calc__controls" });
    var countId = "rs-count-" + this.id;
    controls.appendChild(el("label", { "for": countId }, ui.players));
    var select = el("select", { id: countId });
    for (var n = this.model.players[0]; n <= this.maxPlayers; n++) select.appendChild(el("option", { value: String(n) }, String(n)));
    select.value = String(this.state.count);
    select.addEventListener("change", function () { self.state.count = Number(select.value); self.update(); });
    controls.appendChild(select);
    this.model.settings.forEach(function (s) {
      var id = "rs-setting-" + self.id + "-" + s.id;
      controls.appendChild(el("label", { "for": id, "data-setting": s.id }, data.settings[s.id].label));
      var choice = el("select", { id: id, "data-setting": s.id });
      s.options.forEach(function (o) { choice.appendChild(el("option", { value: o }, data.settings[s.id].options[o])); });
      choice.value = self.state.settings[s.id];
      choice.addEventListener("change", function () { self.state.settings[s.id] = choice.value; self.update(); });
      controls.appendChild(choice);
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
      rowHead.appendChild(el("span", { "class": "rs-calc__help" }, labels.help));
      row.appendChild(rowHead);
      self.cells[spec.id] = [];
      for (var i = 0; i < self.maxPlayers; i++) {
        var td = el("td", { "data-column": String(i) });
        var input = el("input", { type: "text", inputmode: spec.min < 0 ? "text" : "numeric", autocomplete: "off", "data-field": spec.id, "data-player": String(i), "class": "rs-calc__input" });
        input.value = self.state.values[spec.id][i];
        if (spec.unique) input.placeholder = String(spec.min + i);
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

    var terms = el("tbody", { "class": "rs-calc__terms" });
    terms.appendChild(this.sectionRow(ui.breakdown));
    this.termCells = {};
    var rows = this.model.total_min === null ? this.model.terms : this.model.terms.concat([{ id: "floor" }]);
    rows.forEach(function (term) {
      var row = el("tr", { "data-term-row": term.id });
      row.appendChild(el("th", { scope: "row" }, term.id === "floor" ? "≥ " + self.model.total_min : data.terms[term.id]));
      self.termCells[term.id] = [];
      for (var i = 0; i < self.maxPlayers; i++) {
        var td = el("td", { "data-column": String(i) }), out = el("output", { "data-term": term.id, "data-player": String(i) });
        td.appendChild(out);
        self.termCells[term.id].push(out);
        row.appendChild(td);
      }
      terms.appendChild(row);
    });
    table.appendChild(terms);

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

  Calculator.prototype.onSign = function (field, p, input) {
    var v = input.value.trim();
    input.value = v.charAt(0) === "-" ? v.slice(1) : "-" + (v || "");
    this.onValue(field, p, input);
    input.focus();
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

  Calculator.prototype.load = function (example) {
    var self = this, next = this.blankState();
    next.count = example.players.length;
    example.players.forEach(function (p, i) {
      next.names[i] = String(p.name || "");
      self.model.inputs.forEach(function (spec) { next.values[spec.id][i] = p[spec.id] === undefined ? "" : String(p[spec.id]); });
    });
    Object.keys(example.settings || {}).forEach(function (k) { next.settings[k] = example.settings[k]; });
    this.state = next;
    this.syncInputs();
    this.update();
  };

  Calculator.prototype.syncInputs = function () {
    var self = this;
    this.root.querySelector("select").value = String(this.state.count);
    this.model.settings.forEach(function (s) { document.getElementById("rs-setting-" + self.id + "-" + s.id).value = self.state.settings[s.id]; });
    this.nameInputs.forEach(function (input, p) { input.value = self.state.names[p]; });
    Object.keys(this.cells).forEach(function (field) {
      self.cells[field].forEach(function (input, p) { input.value = self.state.values[field][p]; });
    });
  };

  // Read the visible cells: whole numbers in range; empty counts as 0.
  Calculator.prototype.read = function () {
    var self = this, players = [], problems = [], ui = this.ui;
    for (var p = 0; p < this.state.count; p++) players.push({ name: this.playerName(p) });
    this.model.inputs.forEach(function (spec) {
      var label = self.data.inputs[spec.id].label, valid = [];
      for (var p = 0; p < self.state.count; p++) {
        var text = self.state.values[spec.id][p].trim().replace(/^\uFF0D|^\u2212/, "-");
        // A blank cell counts as 0, except in a field every player must differ in (turn order):
        // there a blank means the column's position, shown as the placeholder.
        var blank = spec.unique ? spec.min + p : 0;
        var value = text === "" ? blank : (/^-?\d{1,9}$/.test(text) ? Number(text) : NaN);
        var bad = !(value >= spec.min && value <= spec.max);
        var cellLabel = fill(ui.field_label, { player: self.playerName(p), field: label });
        if (bad) problems.push(fill(ui.invalid, { field: cellLabel, min: spec.min, max: spec.max }));
        else valid.push(value);
        self.cells[spec.id][p].setAttribute("aria-invalid", bad ? "true" : "false");
        players[p][spec.id] = bad ? 0 : value;
      }
      var repeated = valid.some(function (v, i) { return valid.indexOf(v) !== i; });
      if (spec.unique && repeated) problems.push(fill(ui.duplicate, { field: label }));
    });
    return { players: players, problems: problems };
  };

  function treeNames(tree, out) {
    if (tree.v) out.push(tree.v);
    (tree.a || []).forEach(function (child) { treeNames(child, out); });
    return out;
  }

  // A setting is only offered while some term that uses it applies (e.g. the empire face in solo).
  Calculator.prototype.settingInUse = function (setting, count) {
    var prefix = setting.id + "_";
    return this.model.terms.some(function (t) {
      var applies = !t.players || (t.players[0] <= count && count <= t.players[1]);
      return applies && t.tree && treeNames(t.tree, []).some(function (n) { return n.indexOf(prefix) === 0; });
    }) || this.model.tiebreakers.some(function (tb) {
      return treeNames(tb.by, []).some(function (n) { return n.indexOf(prefix) === 0; });
    });
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
    var result = score(this.model, read.players, this.state.settings);
    var shown = { floor: false };
    this.model.terms.forEach(function (t) { shown[t.id] = false; });
    result.players.forEach(function (player, i) {
      Object.keys(self.termCells).forEach(function (id) {
        var has = Object.prototype.hasOwnProperty.call(player.breakdown, id);
        self.termCells[id][i].textContent = has ? String(player.breakdown[id]) : "";
        if (has && (id !== "floor" || player.breakdown[id] !== 0)) shown[id] = true;
      });
      self.totalCells[i].textContent = String(player.total);
      var winner = result.winners.length === 1 && result.winners[0] === player.name && player.rank === 1;
      self.rankCells[i].textContent = String(player.rank) + (winner ? " · " + ui.winner : "");
      self.rankCells[i].classList.toggle("rs-calc__winner", winner || (result.outcome !== "single" && result.outcome !== "tiebreak" && player.rank === 1));
    });
    Object.keys(shown).filter(function (id) { return self.termCells[id]; }).forEach(function (id) {
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

  function start() {
    document.querySelectorAll(".rs-calc[data-calculator]").forEach(function (root) {
      if (root.rsCalculator) return;
      // The model travels in a data attribute (not a <script>), so pages carry no inline script.
      var calc = new Calculator(root, JSON.parse(root.getAttribute("data-model")));
      root.rsCalculator = calc;
      var list = document.querySelector('.rs-calc__examples[data-calculator="' + calc.id + '"] ul');
      if (list) {
        Array.prototype.forEach.call(list.children, function (item, i) {
          var example = calc.data.examples[i];
          if (!example) return;
          var button = el("button", { type: "button", "class": "rs-calc__try", "data-example": example.id }, calc.ui.try);
          button.addEventListener("click", function () { calc.load(example); root.scrollIntoView({ block: "start" }); });
          item.appendChild(document.createTextNode(" "));
          item.appendChild(button);
        });
      }
    });
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
