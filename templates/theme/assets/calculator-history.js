// rulesite game nights, the store: plays saved on this device, their versions, CSV and JSON.
// Plain JS, no DOM (window.RulesiteHistory); calculator-history-view.js shows them.
//
// One localStorage key holds every play: {"format": "rulesite-history", "version": 1,
// "plays": [...]}. Nothing is sent anywhere. What is read back (from storage or an imported
// file) is untrusted: JSON.parse only, then every field is checked for its exact type and size;
// anything else is refused whole, never half-read. A store this code cannot read (damaged, or
// written by a newer version) is left as it is: saving is refused until the reader decides.
//
// Versions. Version 0 (the first shape, a bare array of plays: {date, game, calculator,
// players: [{name, scores: {line: points}, total}], winner: name or null}) is migrated on read:
// each play gets an id, ranks from its totals, winners as a list and an outcome. A new version
// adds a step to MIGRATIONS and raises VERSION; older stores keep opening.
(function (root) {
  "use strict";

  var KEY = "rulesite.history", FORMAT = "rulesite-history", VERSION = 1;
  var MAX_PLAYS = 5000, MAX_PLAYERS = 20, MAX_NAME = 40, MAX_LINES = 80, MAX_POINTS = 1e9;
  var OUTCOMES = ["single", "tiebreak", "shared", "undecided", "none"];
  var WINNING = ["single", "tiebreak", "shared"];
  var SLUG = /^[a-z0-9][a-z0-9-]{0,63}$/, LINE = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;
  var DATE = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/, ID = /^[A-Za-z0-9_-]{1,64}$/;
  // As calculator-state.js: characters a name may not hold (controls, bidirectional overrides).
  var HIDDEN = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069\ufffe\uffff]/g;
  var has = function (o, k) { return Object.prototype.hasOwnProperty.call(o, k); };

  function isObject(v) { return v !== null && typeof v === "object" && !Array.isArray(v); }
  function isPoints(v) { return typeof v === "number" && Number.isInteger(v) && Math.abs(v) <= MAX_POINTS; }
  function cleanName(v) { return typeof v === "string" ? v.replace(HIDDEN, "").slice(0, MAX_NAME) : null; }

  function localDate(now) {
    var d = now || new Date(), two = function (n) { return (n < 10 ? "0" : "") + n; };
    return d.getFullYear() + "-" + two(d.getMonth() + 1) + "-" + two(d.getDate());
  }

  function newId() {
    return Date.now().toString(36) + "-" + Math.random().toString(36).slice(2, 10);
  }

  // A short, stable id for a play that had none (version 0): the same play imported twice is
  // recognised as one.
  function digestId(text) {
    var h = 2166136261;
    for (var i = 0; i < text.length; i++) { h ^= text.charCodeAt(i); h = Math.imul(h, 16777619) >>> 0; }
    return "v0-" + h.toString(36) + "-" + text.length.toString(36);
  }

  // Ranks from totals, higher first, equal totals sharing a rank (what version 0 did not keep).
  function ranksOf(totals) {
    return totals.map(function (t) { return 1 + totals.filter(function (o) { return o > t; }).length; });
  }

  // ---- Versions ---------------------------------------------------------------------------

  function fromVersion0(old) {
    if (!isObject(old) || !Array.isArray(old.players)) return null;
    var players = old.players.map(function (p) {
      return isObject(p) ? { name: p.name, lines: p.scores === undefined ? {} : p.scores, total: p.total } : null;
    });
    if (players.some(function (p) { return p === null; })) return null;
    var ranks = ranksOf(players.map(function (p) { return p.total; }));
    players.forEach(function (p, i) { p.rank = ranks[i]; });
    var winner = old.winner === null || old.winner === undefined ? [] : [old.winner];
    return {
      id: digestId(JSON.stringify(old)), date: old.date, game: old.game, calculator: old.calculator,
      players: players, winners: winner, outcome: winner.length ? "single" : "none"
    };
  }

  // Each step takes the plays of one version to the next; index = the version it reads.
  var MIGRATIONS = [
    function (plays) { return plays.map(fromVersion0); }
  ];

  // The stored or imported data as {plays} of this version, or {error: "json" | "shape" |
  // "version"}.
  function parse(text) {
    var data;
    try { data = JSON.parse(text); } catch (e) { return { error: "json" }; }
    var version, plays;
    if (Array.isArray(data)) { version = 0; plays = data; }
    else if (isObject(data) && Array.isArray(data.plays) && Number.isInteger(data.version) && data.version >= 0) {
      if (has(data, "format") && data.format !== FORMAT) return { error: "shape" };
      version = data.version; plays = data.plays;
    } else return { error: "shape" };
    if (version > VERSION) return { error: "version" };
    if (plays.length > MAX_PLAYS) return { error: "shape" };
    for (; version < VERSION; version++) plays = MIGRATIONS[version](plays);
    var checked = plays.map(checkPlay);
    if (checked.some(function (p) { return p === null; })) return { error: "shape" };
    return { plays: checked };
  }

  // A play of the current version, rebuilt from checked fields only, or null.
  function checkPlay(p) {
    if (!isObject(p) || typeof p.id !== "string" || !ID.test(p.id)) return null;
    if (typeof p.date !== "string" || !DATE.test(p.date)) return null;
    if (typeof p.game !== "string" || !SLUG.test(p.game)) return null;
    if (typeof p.calculator !== "string" || !SLUG.test(p.calculator)) return null;
    if (!Array.isArray(p.players) || p.players.length < 1 || p.players.length > MAX_PLAYERS) return null;
    var players = p.players.map(checkPlayer);
    if (players.some(function (x) { return x === null; })) return null;
    if (!Array.isArray(p.winners) || OUTCOMES.indexOf(p.outcome) < 0) return null;
    var names = players.map(function (x) { return x.name; });
    var winners = p.winners.map(cleanName);
    if (winners.some(function (w) { return w === null || names.indexOf(w) < 0; })) return null;
    if ((p.outcome === "none") !== (winners.length === 0)) return null;
    return { id: p.id, date: p.date, game: p.game, calculator: p.calculator, players: players, winners: winners, outcome: p.outcome };
  }

  function checkPlayer(x) {
    if (!isObject(x) || !isObject(x.lines) || !isPoints(x.total)) return null;
    var name = cleanName(x.name), keys = Object.keys(x.lines), lines = {};
    if (name === null || keys.length > MAX_LINES) return null;
    if (!Number.isInteger(x.rank) || x.rank < 1 || x.rank > MAX_PLAYERS) return null;
    for (var i = 0; i < keys.length; i++) {
      if (!LINE.test(keys[i]) || !isPoints(x.lines[keys[i]])) return null;
      lines[keys[i]] = x.lines[keys[i]];
    }
    return { name: name, lines: lines, total: x.total, rank: x.rank };
  }

  // ---- Storage ----------------------------------------------------------------------------

  function storage() { try { return root.localStorage; } catch (e) { return null; } }

  // {state: "ok" | "empty" | "damaged" | "newer" | "off", plays, raw}
  function load() {
    var store = storage(), raw = null;
    if (!store) return { state: "off", plays: [], raw: null };
    try { raw = store.getItem(KEY); } catch (e) { return { state: "off", plays: [], raw: null }; }
    if (raw === null) return { state: "empty", plays: [], raw: null };
    var read = parse(raw);
    if (read.error) return { state: read.error === "version" ? "newer" : "damaged", plays: [], raw: raw };
    return { state: "ok", plays: read.plays, raw: raw };
  }

  function serialise(plays, pretty) {
    return JSON.stringify({ format: FORMAT, version: VERSION, plays: plays }, null, pretty ? 2 : undefined);
  }

  // Writes the plays; false when the browser refuses (private mode, full).
  function store(plays) {
    var s = storage();
    if (!s) return false;
    try { s.setItem(KEY, serialise(plays)); return true; } catch (e) { return false; }
  }

  // Adds a play unless the store cannot be read ("blocked"), an identical one was saved the
  // same day ("already") or storage is refused ("off"). Returns "saved" or the reason.
  function add(play) {
    var now = load();
    if (now.state === "damaged" || now.state === "newer") return "blocked";
    if (now.state === "off") return "off";
    var same = function (p) {
      return p.calculator === play.calculator && p.game === play.game && p.date === play.date &&
        JSON.stringify(p.players) === JSON.stringify(play.players);
    };
    if (now.plays.some(same)) return "already";
    return store(now.plays.concat([play])) ? "saved" : "off";
  }

  // Imported plays join the ones here; a play already here (same id) is not doubled.
  function importText(text) {
    var read = parse(text);
    if (read.error) return { error: read.error };
    var now = load();
    if (now.state === "damaged" || now.state === "newer") return { error: "blocked" };
    var ids = {}, added = [];
    now.plays.forEach(function (p) { ids[p.id] = true; });
    read.plays.forEach(function (p) { if (!ids[p.id]) { ids[p.id] = true; added.push(p); } });
    if (added.length && !store(now.plays.concat(added))) return { error: "off" };
    return { added: added.length, same: read.plays.length - added.length };
  }

  // The reader's decision on a store that cannot be read: start again, empty.
  function startOver() { return store([]); }

  // ---- Figures ----------------------------------------------------------------------------

  function won(play, name) { return WINNING.indexOf(play.outcome) >= 0 && play.winners.indexOf(name) >= 0; }

  // Plays, wins per name and the best score of a list of plays.
  function summary(plays) {
    var byName = {}, order = [], best = null;
    plays.forEach(function (play) {
      play.players.forEach(function (p) {
        if (!has(byName, p.name)) { byName[p.name] = { name: p.name, plays: 0, wins: 0, best: p.total }; order.push(p.name); }
        var entry = byName[p.name];
        entry.plays += 1;
        if (won(play, p.name)) entry.wins += 1;
        entry.best = Math.max(entry.best, p.total);
        if (best === null || p.total > best.total) best = { total: p.total, name: p.name, date: play.date };
      });
    });
    var names = order.map(function (n) { return byName[n]; });
    names.sort(function (a, b) { return b.wins - a.wins || b.plays - a.plays || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0); });
    return { plays: plays.length, names: names, best: best };
  }

  // ---- CSV --------------------------------------------------------------------------------

  // A cell a spreadsheet could run as a formula (=, +, -, @, tab, return first) starts with a
  // quote instead; numbers we wrote ourselves are numbers, never text from a person.
  function textCell(text) {
    var v = String(text);
    return /^[=+\-@\t\r]/.test(v) ? "'" + v : v;
  }

  function quote(cell) { return /[",\r\n]|^\s|\s$/.test(cell) ? '"' + cell.replace(/"/g, '""') + '"' : cell; }

  // One row per player per play (RFC 4180: CRLF, quoted where needed), with a byte order mark
  // so spreadsheets read Chinese as UTF-8. `names` gives game, calculator and line names
  // (the page's language); `head` the fixed columns' headings.
  function toCsv(plays, names, head) {
    var columns = [], seen = {};
    plays.forEach(function (play) {
      play.players.forEach(function (p) {
        Object.keys(p.lines).forEach(function (line) {
          var key = play.game + "/" + play.calculator + "/" + line;
          if (!seen[key]) { seen[key] = true; columns.push({ key: key, play: play, line: line }); }
        });
      });
    });
    var headings = columns.map(function (c) { return names.line(c.play, c.line); });
    headings = headings.map(function (h, i) {
      var twice = headings.indexOf(h) !== i || headings.lastIndexOf(h) !== i;
      return twice ? h + " (" + names.calculator(columns[i].play) + ")" : h;
    });
    var rows = [[head.date, head.game, head.calculator, head.player].concat(headings, [head.total, head.rank, head.winner]).map(textCell)];
    plays.forEach(function (play) {
      play.players.forEach(function (p) {
        var row = [play.date, textCell(names.game(play)), textCell(play.calculator), textCell(p.name)];
        columns.forEach(function (c) {
          var here = c.key === play.game + "/" + play.calculator + "/" + c.line && has(p.lines, c.line);
          row.push(here ? String(p.lines[c.line]) : "");
        });
        var winner = play.outcome === "none" ? "" : won(play, p.name) ? "1" : "0";
        rows.push(row.concat([String(p.total), String(p.rank), winner]));
      });
    });
    return "\ufeff" + rows.map(function (r) { return r.map(quote).join(","); }).join("\r\n") + "\r\n";
  }

  root.RulesiteHistory = {
    KEY: KEY, VERSION: VERSION, load: load, add: add, parse: parse, importText: importText,
    startOver: startOver, serialise: serialise, summary: summary, toCsv: toCsv, won: won,
    localDate: localDate, newId: newId, textCell: textCell
  };
})(window);
