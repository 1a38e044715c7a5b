// rulesite game nights, the views: "Finish game", "New game, same players" and undo under each
// calculator with its saved plays, and the page of every game night (history/) with export and
// import. The store is calculator-history.js (window.RulesiteHistory); the sheet is read through
// the calculator that calculator-page.js starts (root.rsCalculator: its sheet, syncInputs and
// update). Words come from the page (data-ui: the hist_* labels). Names and every other text
// from a person are set with textContent, never as HTML.
(function () {
  "use strict";

  var store = window.RulesiteHistory;
  var NAMES_LIST = "rs-hist-names";

  var sheets = window.RulesiteSheet, fill = sheets.fill, el = sheets.el;

  // Every game-night button is a Material button named by what it does (data-hist).
  function button(action, text, onClick) {
    return sheets.button({ type: "button", "class": "md-button", "data-hist": action }, text, onClick);
  }

  // A table with a header row; each row is a list of cells (text, or a node to put in). Its box
  // scrolls sideways when the table is wider than a phone, so a keyboard can reach it and it is
  // named (the caption, or the heading above a table without one).
  function table(caption, headings, rows, className, name) {
    var t = el("table", { "class": "rs-hist__table" + (className ? " " + className : "") });
    if (caption) t.appendChild(el("caption", {}, caption));
    var head = el("tr");
    headings.forEach(function (h) { head.appendChild(el("th", { scope: "col" }, h)); });
    t.appendChild(el("thead")).appendChild(head);
    var body = t.appendChild(el("tbody"));
    rows.forEach(function (cells) {
      var tr = body.appendChild(el("tr"));
      cells.forEach(function (c, i) {
        var cell = tr.appendChild(el(i === 0 ? "th" : "td", i === 0 ? { scope: "row" } : {}));
        if (typeof c === "string") cell.textContent = c; else cell.appendChild(c);
      });
    });
    var wrap = el("div", { "class": "rs-hist__scroll", role: "region", tabindex: "0", "aria-label": caption || name });
    wrap.appendChild(t);
    return wrap;
  }

  function scores(play) {
    return play.players.map(function (p) { return p.name + " " + p.total; }).join(" · ");
  }

  function winnerText(play, ui) {
    if (play.outcome === "none") return ui.no_winner;
    var names = play.winners.join(ui.list_join);
    return play.outcome === "single" || play.outcome === "tiebreak" ? names : fill(ui.tie, { names: names });
  }

  function byName(summary, ui, caption) {
    return table(caption, [ui.col_name, ui.col_plays, ui.col_wins, ui.col_best], summary.names.map(function (n) {
      return [n.name, String(n.plays), String(n.wins), String(n.best)];
    }), "rs-hist__names", ui.by_name);
  }

  function bestText(summary, ui) {
    var b = summary.best;
    return b ? fill(ui.best, { score: b.total, name: b.name, date: b.date }) : "";
  }

  function newestFirst(plays) {
    return plays.slice().reverse();
  }

  // Names typed in earlier games, offered in every name box of the page (a <datalist>).
  function offerNames(plays, defaults) {
    var list = document.getElementById(NAMES_LIST), seen = {};
    if (!list) { list = el("datalist", { id: NAMES_LIST }); document.body.appendChild(list); }
    list.textContent = "";
    plays.forEach(function (play) {
      play.players.forEach(function (p) {
        if (seen[p.name] || defaults.test(p.name)) return;
        seen[p.name] = true;
        list.appendChild(el("option", { value: p.name }));
      });
    });
    document.querySelectorAll(".rs-calc__name").forEach(function (input) { input.setAttribute("list", NAMES_LIST); });
  }

  function message(node, text) { node.textContent = text; }

  // ---- Under a calculator -------------------------------------------------------------------

  function GameNights(box, calc) {
    this.box = box;
    this.calc = calc;
    this.ui = JSON.parse(box.getAttribute("data-ui"));
    this.game = box.getAttribute("data-game");
    this.declares = box.getAttribute("data-declare-winner") === "yes";
    this.undo = null;
    var player = calc.ui.player_default.replace(/[.*+?^${}()|[\]\\]/g, "\\$&").replace("\\{n\\}", "\\d+");
    this.defaults = new RegExp("^" + player + "$");
    this.build();
    this.watch();
    this.show();
  }

  GameNights.prototype.build = function () {
    var ui = this.ui, actions = el("div", { "class": "rs-hist__actions" });
    actions.appendChild(button("finish", ui.finish, this.finish.bind(this)));
    actions.appendChild(button("new-game", ui.new_game, this.newGame.bind(this)));
    this.undoButton = button("undo", ui.undo, this.restore.bind(this));
    this.undoButton.hidden = true;
    actions.appendChild(this.undoButton);
    this.note = el("p", { "class": "rs-hist__note", role: "status" });
    this.list = el("div", { "class": "rs-hist__list" });
    var link = this.box.querySelector(".rs-hist__all");
    var first = link ? link.parentNode : null;
    this.box.insertBefore(actions, first);
    this.box.insertBefore(this.note, first);
    this.box.insertBefore(this.list, first);
  };

  // Typing again after a clear makes the undo stale, and so does a sheet loaded whole (an
  // example, a share link: its note goes too); the sheet's own Reset is undoable.
  GameNights.prototype.watch = function () {
    var self = this, root = this.calc.root, before = null;
    root.addEventListener("input", function () { self.dropUndo(); });
    root.addEventListener(window.RulesiteCalculator.REPLACED, function () {
      if (self.undo) message(self.note, "");
      self.dropUndo();
    });
    root.addEventListener("click", function (e) {
      before = e.target.closest && e.target.closest('[data-action="reset"]') ? JSON.stringify(self.calc.sheet.state) : null;
    }, true);
    root.addEventListener("click", function () {
      if (before !== null && JSON.stringify(self.calc.sheet.state) !== before) self.offerUndo(JSON.parse(before));
      before = null;
    });
    window.addEventListener("storage", function (e) { if (e.key === store.KEY) self.show(); });
  };

  GameNights.prototype.play = function () {
    var sheet = this.calc.sheet, read = sheet.read();
    if (read.problems.length) return { error: this.ui.fix_first };
    if (!sheet.hasEntries()) return { error: this.ui.nothing };
    var result = sheet.score(read.players);
    var solo = sheet.state.count === 1, declares = this.declares && !solo;
    return {
      id: store.newId(), date: store.localDate(), game: this.game, calculator: this.calc.id,
      players: result.players.map(function (p) {
        return { name: p.name, lines: p.breakdown, total: p.total, rank: p.rank };
      }),
      winners: declares ? result.winners.slice() : [],
      outcome: declares ? result.outcome : "none"
    };
  };

  GameNights.prototype.finish = function () {
    var play = this.play(), ui = this.ui;
    if (play.error) return message(this.note, play.error);
    var done = store.add(play);
    var words = { saved: fill(ui.saved, { date: play.date }), already: ui.already, blocked: ui.blocked, off: ui.storage_off };
    message(this.note, words[done]);
    this.show();
  };

  GameNights.prototype.newGame = function () {
    var sheet = this.calc.sheet, before = JSON.parse(JSON.stringify(sheet.state));
    Object.keys(sheet.state.values).forEach(function (field) {
      sheet.state.values[field] = sheet.state.values[field].map(function () { return ""; });
    });
    this.calc.syncInputs();
    this.calc.update();
    this.offerUndo(before);
  };

  GameNights.prototype.offerUndo = function (state) {
    this.undo = state;
    this.undoButton.hidden = false;
    message(this.note, this.ui.cleared);
  };

  GameNights.prototype.dropUndo = function () {
    this.undo = null;
    this.undoButton.hidden = true;
  };

  GameNights.prototype.restore = function () {
    if (!this.undo) return;
    this.calc.sheet.state = this.undo;
    this.dropUndo();
    this.calc.syncInputs();
    this.calc.update();
    message(this.note, this.ui.restored);
  };

  GameNights.prototype.show = function () {
    var ui = this.ui, self = this, now = store.load(), list = this.list;
    offerNames(now.plays, this.defaults);
    list.textContent = "";
    list.appendChild(el("h3", { "class": "rs-hist__heading" }, ui.heading));
    if (now.state === "damaged" || now.state === "newer") {
      list.appendChild(el("p", { "class": "rs-hist__problem" }, now.state === "newer" ? ui.newer : ui.damaged));
      return;
    }
    var plays = now.plays.filter(function (p) { return p.game === self.game && p.calculator === self.calc.id; });
    if (!plays.length) { list.appendChild(el("p", {}, ui.empty)); return; }
    var summary = store.summary(plays);
    var line = list.appendChild(el("p", { "class": "rs-hist__summary" }, fill(ui.plays, { n: summary.plays })));
    if (summary.best) {
      line.appendChild(el("br"));
      line.appendChild(el("strong", {}, ui.col_best));
      line.appendChild(document.createTextNode(" " + bestText(summary, ui)));
    }
    list.appendChild(byName(summary, ui, ui.by_name));
    list.appendChild(table(ui.every_play, [ui.col_date, ui.col_result, ui.col_winner], newestFirst(plays).map(function (p) {
      return [p.date, scores(p), winnerText(p, ui)];
    }), "rs-hist__plays"));
  };

  // ---- The page of every game night ----------------------------------------------------------

  function AllNights(box) {
    this.box = box;
    this.ui = JSON.parse(box.getAttribute("data-ui"));
    this.names = JSON.parse(box.getAttribute("data-names"));
    this.links = {};
    var self = this;
    document.querySelectorAll("a[data-game]").forEach(function (a) { self.links[a.getAttribute("data-game")] = a.getAttribute("href"); });
    box.textContent = "";
    this.bar = box.appendChild(el("div", { "class": "rs-hist__actions" }));
    this.note = box.appendChild(el("p", { "class": "rs-hist__note", role: "status" }));
    this.view = box.appendChild(el("div", { "class": "rs-hist__list" }));
    this.buildBar();
    window.addEventListener("storage", function (e) { if (e.key === store.KEY) self.show(); });
    this.show();
  }

  AllNights.prototype.buildBar = function () {
    var ui = this.ui, self = this;
    this.bar.appendChild(button("export-csv", ui.export_csv, function () { self.download("csv"); }));
    this.bar.appendChild(button("export-json", ui.export_json, function () { self.download("json"); }));
    var id = "rs-hist-import", label = el("label", { "for": id, "class": "rs-hist__import" }, ui.import);
    var input = el("input", { type: "file", id: id, accept: ".json,application/json", "data-hist": "import" });
    input.addEventListener("change", function () { self.importFile(input); });
    this.bar.appendChild(label);
    this.bar.appendChild(input);
  };

  AllNights.prototype.gameName = function (play) {
    var g = this.names[play.game];
    return g ? g.title : play.game;
  };

  AllNights.prototype.calcName = function (play) {
    var g = this.names[play.game], c = g && g.calculators[play.calculator];
    return c ? c.title : play.calculator;
  };

  AllNights.prototype.lineName = function (play, line) {
    var g = this.names[play.game], c = g && g.calculators[play.calculator];
    return c && c.lines[line] ? c.lines[line] : line;
  };

  AllNights.prototype.download = function (kind, raw) {
    var ui = this.ui, now = store.load(), text, type;
    if (raw !== undefined) { text = raw; type = "application/octet-stream"; }
    else if (kind === "json") { text = store.serialise(now.plays, true); type = "application/json"; }
    else {
      var names = { game: this.gameName.bind(this), calculator: this.calcName.bind(this), line: this.lineName.bind(this) };
      var head = {};
      ["date", "game", "calculator", "player", "total", "rank", "winner"].forEach(function (k) { head[k] = ui["csv_" + k]; });
      text = store.toCsv(now.plays, names, head);
      type = "text/csv;charset=utf-8";
    }
    var url = URL.createObjectURL(new Blob([text], { type: type }));
    var a = el("a", { href: url, download: "rulesite-history-" + store.localDate() + "." + kind });
    document.body.appendChild(a);
    a.click();
    a.remove();
    setTimeout(function () { URL.revokeObjectURL(url); }, 1000);
  };

  AllNights.prototype.importFile = function (input) {
    var ui = this.ui, self = this, file = input.files && input.files[0];
    if (!file) return;
    file.text().then(function (text) {
      var done = store.importText(text);
      var reasons = { json: ui.bad_json, shape: ui.bad_shape, version: ui.bad_version, blocked: ui.blocked, off: ui.storage_off };
      if (done.error) message(self.note, fill(ui.import_bad, { reason: reasons[done.error] }));
      else message(self.note, fill(ui.imported, { added: done.added, same: done.same }));
      input.value = "";
      self.show();
    });
  };

  AllNights.prototype.problem = function (now) {
    var ui = this.ui, self = this, view = this.view;
    view.appendChild(el("p", { "class": "rs-hist__problem" }, now.state === "newer" ? ui.newer : ui.damaged));
    var actions = view.appendChild(el("div", { "class": "rs-hist__actions" }));
    actions.appendChild(button("download-raw", ui.download_raw, function () { self.download("txt", now.raw); }));
    if (now.state === "damaged") {
      actions.appendChild(button("start-over", ui.start_over, function () {
        if (window.confirm(ui.start_over_confirm) && store.startOver()) self.show();
      }));
    }
  };

  AllNights.prototype.show = function () {
    var ui = this.ui, self = this, now = store.load(), view = this.view;
    view.textContent = "";
    this.bar.hidden = now.state === "damaged" || now.state === "newer";
    if (this.bar.hidden) return this.problem(now);
    if (!now.plays.length) { view.appendChild(el("p", {}, ui.empty)); return; }
    var games = [], byGame = {};
    now.plays.forEach(function (p) {
      var key = p.game + "/" + p.calculator;
      if (!byGame[key]) { byGame[key] = []; games.push(key); }
      byGame[key].push(p);
    });
    view.appendChild(el("h2", { id: "by-game" }, ui.by_game));
    view.appendChild(table("", [ui.col_game, ui.col_plays, ui.col_best], games.map(function (key) {
      var plays = byGame[key], summary = store.summary(plays);
      return [self.title(plays[0]), String(summary.plays), bestText(summary, ui)];
    }), "rs-hist__games", ui.by_game));
    view.appendChild(el("h2", { id: "by-player" }, ui.by_name));
    view.appendChild(byName(store.summary(now.plays), ui, ""));
    view.appendChild(el("h2", { id: "every-game" }, ui.every_play));
    view.appendChild(table("", [ui.col_date, ui.col_game, ui.col_result, ui.col_winner], newestFirst(now.plays).map(function (p) {
      return [p.date, self.title(p), scores(p), winnerText(p, ui)];
    }), "rs-hist__plays", ui.every_play));
  };

  // A game's name, linked to its score page where the site still has it; with the calculator's
  // name where the game has more than one.
  AllNights.prototype.title = function (play) {
    var g = this.names[play.game], text = this.gameName(play);
    if (g && Object.keys(g.calculators).length > 1) text += " · " + this.calcName(play);
    var href = this.links[play.game];
    if (!href) return document.createTextNode(text);
    return el("a", { href: href + "#" + play.calculator }, text);
  };

  // ---- Start ----------------------------------------------------------------------------------

  function start() {
    document.querySelectorAll(".rs-hist[data-calculator]").forEach(function (box) {
      var root = document.querySelector('.rs-calc[data-calculator="' + box.getAttribute("data-calculator") + '"]');
      if (box.rsNights || !root || !root.rsCalculator) return;
      box.rsNights = new GameNights(box, root.rsCalculator);
    });
    document.querySelectorAll(".rs-history[data-ui]").forEach(function (box) {
      if (!box.rsNights) box.rsNights = new AllNights(box);
    });
  }

  // After calculator-page.js has started the calculators (it waits for DOMContentLoaded too).
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
