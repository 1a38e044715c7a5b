// rulesite scoring calculator, the sheet: its data and nothing of the page. Plain JS; the sheet
// touches no DOM (it only lends the views their element helpers, el and button).
//
// A sheet is what a reader has typed: the number of players, names, the cells' text and the
// settings; it is saved in localStorage, travels in share links, loads worked examples, and is
// read into players for the engine (scoring-engine.js, window.RulesiteScore, loaded first).
// calculator.js is the view: it builds the table, listens to it and shows what the sheet says.
// State from a link or from storage is untrusted: only the exact shape is accepted.
(function (root) {
  "use strict";

  var engine = root.RulesiteScore;
  var has = function (object, key) { return Object.prototype.hasOwnProperty.call(object, key); };

  var STORAGE_PREFIX = "rulesite:calc:v1:";
  // A sheet opened from a share link waits here (this tab only) until the reader keeps or drops
  // it, so a reload neither loses the shared sheet nor lets it overwrite the reader's own.
  var SHARED_PREFIX = "rulesite:calc:v1:shared:";
  var MAX_STATE_CHARS = 20000, MAX_NAME = 40, MAX_CELL = 12;

  function fill(template, values) {
    return template.replace(/\{(\w+)\}/g, function (m, key) {
      return has(values, key) ? String(values[key]) : m;
    });
  }

  // The views' one way to make an element (calculator.js and its table, result panel, print copy
  // and game nights): attributes one by one, text only ever as textContent, never as HTML. The
  // sheet itself makes no element; these live here because every view script loads after it.
  function el(tag, attrs, text) {
    var node = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) { node.setAttribute(k, attrs[k]); });
    if (text !== undefined) node.textContent = text;
    return node;
  }

  function button(attrs, text, onClick) {
    var node = el("button", attrs, text);
    node.addEventListener("click", onClick);
    return node;
  }

  // A name is shown beside the results: the characters data texts may not hold (controls, line
  // separators, bidirectional embeddings, overrides and isolates) are dropped from it too.
  var HIDDEN_CHARS = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069\ufffe\uffff]/g;
  function cleanName(text) { return text.replace(HIDDEN_CHARS, "").slice(0, MAX_NAME); }

  function repeat(value, n) { var out = []; for (var i = 0; i < n; i++) out.push(value); return out; }

  function storageGet(store, key) {
    try { return window[store].getItem(key); } catch (e) { return null; }
  }

  function storageSet(store, key, value) {
    try {
      if (value === null) window[store].removeItem(key);
      else window[store].setItem(key, value);
    } catch (e) { /* private mode: the sheet lives as long as the page */ }
  }

  // Full-width digits and minus signs (a Chinese or Japanese keyboard) read as ASCII ones.
  function normalNumber(text) {
    return text.trim()
      .replace(/[\uFF10-\uFF19]/g, function (d) { return String.fromCharCode(d.charCodeAt(0) - 0xFF10 + 48); })
      .replace(/^[\uFF0D\u2212]/, "-");
  }

  function termTrees(term) { return [term.tree, term.when].filter(Boolean); }

  function Sheet(model, data, id) {
    this.model = model;
    this.data = data;
    this.ui = data.ui;
    this.id = id;
    this.maxPlayers = model.players[1];
    this.state = this.blankState();
    this.shared = false;
  }

  Sheet.prototype.blankState = function () {
    var self = this, values = {}, settings = {};
    this.model.inputs.forEach(function (i) { values[i.id] = repeat("", self.maxPlayers); });
    this.model.settings.forEach(function (s) { settings[s.id] = s.default; });
    // Start with two players where the game allows it: solo is the exception at the table.
    var count = Math.min(Math.max(this.model.players[0], 2), this.maxPlayers);
    return { count: count, names: repeat("", this.maxPlayers), values: values, settings: settings };
  };

  // Accept only the exact shape, with short strings and known keys; anything else is ignored
  // (and the reader is told). Returns whether it was accepted (then it is the sheet).
  Sheet.prototype.accept = function (raw) {
    if (typeof raw !== "string" || raw.length > MAX_STATE_CHARS) return false;
    var data;
    try { data = JSON.parse(raw); } catch (e) { return false; }
    if (!data || typeof data !== "object" || Array.isArray(data)) return false;
    var next = this.blankState();
    if (!this.acceptCount(data, next) || !this.acceptNames(data, next) || !this.acceptValues(data, next)) return false;
    this.acceptSettings(data, next);
    this.state = next;
    return true;
  };

  Sheet.prototype.acceptCount = function (data, next) {
    var low = this.model.players[0];
    if (typeof data.count !== "number" || data.count % 1 !== 0 || data.count < low || data.count > this.maxPlayers) return false;
    next.count = data.count;
    return true;
  };

  Sheet.prototype.acceptNames = function (data, next) {
    if (!Array.isArray(data.names)) return false;
    for (var i = 0; i < Math.min(data.names.length, this.maxPlayers); i++) {
      if (typeof data.names[i] !== "string") return false;
      next.names[i] = cleanName(data.names[i]);
    }
    return true;
  };

  Sheet.prototype.acceptValues = function (data, next) {
    var self = this;
    if (!data.values || typeof data.values !== "object") return false;
    return Object.keys(data.values).every(function (key) {
      var column = data.values[key];
      if (!has(next.values, key) || !Array.isArray(column)) return false;
      return column.slice(0, self.maxPlayers).every(function (v, j) {
        if (typeof v !== "string" || v.length > MAX_CELL) return false;
        next.values[key][j] = v;
        return true;
      });
    });
  };

  Sheet.prototype.acceptSettings = function (data, next) {
    if (!data.settings || typeof data.settings !== "object") return;
    this.model.settings.forEach(function (s) {
      if (!has(data.settings, s.id)) return;
      var value = data.settings[s.id];
      if (s.kind === "yes_no" ? typeof value === "boolean" : s.options.indexOf(value) >= 0) next.settings[s.id] = value;
    });
  };

  Sheet.prototype.fragmentKey = function () { return "score-" + this.id + "="; };

  // The share link's part of the fragment, removed from the address once read: a reload or a
  // bookmark then shows the saved sheet (with the reader's edits), not the link's old numbers.
  Sheet.prototype.takeFragment = function () {
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
  Sheet.prototype.restore = function (link) {
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

  Sheet.prototype.restoreOwn = function () {
    var saved = storageGet("localStorage", STORAGE_PREFIX + this.id);
    this.state = this.blankState();
    if (saved !== null && !this.accept(saved)) this.state = this.blankState();
  };

  Sheet.prototype.save = function () {
    var key = this.shared ? SHARED_PREFIX + this.id : STORAGE_PREFIX + this.id;
    storageSet(this.shared ? "sessionStorage" : "localStorage", key, JSON.stringify(this.state));
  };

  // Keep (the shared sheet becomes the reader's saved one) or drop it (the saved one comes back).
  Sheet.prototype.endShared = function (keep) {
    storageSet("sessionStorage", SHARED_PREFIX + this.id, null);
    this.shared = false;
    if (keep) this.save();
    else this.restoreOwn();
  };

  // Whether a sheet holds anything a reader would miss: a number or a name.
  Sheet.prototype.stateHasData = function (state) {
    var filled = function (v) { return typeof v === "string" && v.trim() !== ""; };
    return state.names.some(filled) || Object.keys(state.values).some(function (field) {
      return state.values[field].some(filled);
    });
  };

  Sheet.prototype.shareUrl = function () {
    var bytes = new TextEncoder().encode(JSON.stringify(this.state)), binary = "";
    for (var i = 0; i < bytes.length; i++) binary += String.fromCharCode(bytes[i]);
    var encoded = window.btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
    return window.location.href.split("#")[0] + "#" + this.fragmentKey() + encoded;
  };

  Sheet.prototype.playerName = function (i) {
    return this.state.names[i].trim() || fill(this.ui.player_default, { n: i + 1 });
  };

  Sheet.prototype.setName = function (p, text) { this.state.names[p] = cleanName(text); };

  Sheet.prototype.setValue = function (field, p, text) { this.state.values[field][p] = text.slice(0, MAX_CELL); };

  Sheet.prototype.reset = function () { this.state = this.blankState(); };

  Sheet.prototype.exampleState = function (example) {
    var self = this, next = this.blankState();
    next.count = example.players.length;
    example.players.forEach(function (p, i) {
      next.names[i] = String(p.name || "");
      self.model.inputs.forEach(function (spec) { next.values[spec.id][i] = p[spec.id] === undefined ? "" : String(p[spec.id]); });
    });
    Object.keys(example.settings || {}).forEach(function (k) {
      if (has(next.settings, k)) next.settings[k] = example.settings[k];
    });
    return next;
  };

  // Whether loading over the sheet could lose something: it holds numbers or names and is not
  // simply an example as loaded (that one can be loaded again).
  Sheet.prototype.wouldLoseSheet = function () {
    var self = this, current = JSON.stringify(this.state);
    if (!this.stateHasData(this.state)) return false;
    return !this.data.examples.some(function (e) { return JSON.stringify(self.exampleState(e)) === current; });
  };

  // The visible cells as players for the engine: whole numbers in range. A blank cell is left
  // out, and the engine gives it the model's meaning (0, or for turn order the column's
  // position). Returns {players, problems (sentences), marked (bad cells by input id)}.
  Sheet.prototype.read = function () {
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
    return { players: players, problems: problems, marked: marked };
  };

  Sheet.prototype.hasEntries = function () {
    var values = this.state.values, count = this.state.count;
    return Object.keys(values).some(function (field) {
      return values[field].slice(0, count).some(function (v) { return v.trim() !== ""; });
    });
  };

  // A setting is only offered while some line that can apply with this many players uses it
  // (e.g. the empire face only in solo), or a tie-breaker does. A `when` counts as use: it is
  // how the setting switches its line on.
  Sheet.prototype.settingInUse = function (setting, count) {
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

  Sheet.prototype.score = function (players) {
    return engine.score(this.model, players, this.state.settings);
  };

  // What the table shows for a result: each line's text per player (blank where it does not
  // apply), which lines any player has, the totals, the ranks (best: the winner, or one of the
  // players sharing first place) and, where the calculator declares a winner, who won in words.
  // A solo sheet declares no winner: its words are the player's score.
  Sheet.prototype.standings = function (result, ids) {
    var ui = this.ui, lines = {}, shown = {}, solo = result.players.length === 1;
    ids.forEach(function (id) { lines[id] = []; shown[id] = false; });
    var ranks = result.players.map(function (player) {
      ids.forEach(function (id) {
        var values = has(player.breakdown, id) ? player.breakdown : player.helpers, here = has(values, id);
        lines[id].push(here ? String(values[id]) : "");
        if (here) shown[id] = true;
      });
      var winner = !solo && result.winners.length === 1 && result.winners[0] === player.name && player.rank === 1;
      var shared = !solo && result.outcome !== "single" && result.outcome !== "tiebreak" && player.rank === 1;
      return { text: String(player.rank) + (winner ? " · " + ui.winner : ""), best: winner || shared };
    });
    var totals = result.players.map(function (player) { return String(player.total); });
    var words = solo ? fill(ui.solo_score, { total: totals[0] }) : this.data.declareWinner ? this.describe(result) : "";
    return { lines: lines, shown: shown, totals: totals, ranks: ranks, words: words };
  };

  // Who won, in words: the winner, and the tie-breakers that decided; or a shared or undecided tie.
  Sheet.prototype.describe = function (result) {
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

  root.RulesiteSheet = { Sheet: Sheet, fill: fill, cleanName: cleanName, MAX_NAME: MAX_NAME, el: el, button: button };
})(window);
