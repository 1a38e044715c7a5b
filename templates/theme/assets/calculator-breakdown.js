// rulesite scoring calculator, the breakdown picture: per player, one stacked bar of where the
// points came from, each scoring line a segment (window.RulesiteBreakdown). Inline SVG built
// with the DOM, no library. Its numbers are the engine's result that the table shows, passed in
// by calculator.js, never computed again here. Colours are the Okabe–Ito palette (told apart
// with colour-blind vision), set in calculator.css; every line is also named in a legend, in
// each segment's tooltip and in each bar's text alternative, so colour is never the only cue.
(function () {
  "use strict";

  var SVG = "http://www.w3.org/2000/svg", COLOURS = 8, BAR_HEIGHT = 28;
  var fill = window.RulesiteSheet.fill, el = window.RulesiteSheet.el;

  // The SVG twin of the sheet's el(): same attributes and textContent, in the SVG namespace.
  function svgNode(tag, attrs, text) {
    var n = document.createElementNS(SVG, tag);
    Object.keys(attrs || {}).forEach(function (k) { n.setAttribute(k, attrs[k]); });
    if (text !== undefined) n.textContent = text;
    return n;
  }

  function sum(values) { return values.reduce(function (s, v) { return s + v; }, 0); }

  // Percent with a few decimals: SVG lengths in % keep the bar as wide as its column.
  function pct(x) { return (Math.round(x * 10000) / 100) + "%"; }

  // lines: [{id, label}] in the table's order; each player's segments are the lines with points.
  function segmentsOf(player, lines) {
    var out = [];
    lines.forEach(function (line, k) {
      var value = Object.prototype.hasOwnProperty.call(player.breakdown, line.id) ? player.breakdown[line.id] : 0;
      if (value !== 0) out.push({ id: line.id, label: line.label, value: value, colour: k % COLOURS });
    });
    return out;
  }

  function Chart(data) {
    this.ui = data.ui;
    this.node = el("figure", { "class": "rs-calc__chart" });
    this.node.appendChild(el("figcaption", {}, this.ui.chart_title));
    this.legend = el("ul", { "class": "rs-calc__legend" });
    this.bars = el("div", { "class": "rs-calc__bars" });
    this.node.appendChild(this.legend);
    this.node.appendChild(this.bars);
    this.node.hidden = true;
  }

  Chart.prototype.blank = function () {
    this.legend.textContent = "";
    this.bars.textContent = "";
    this.node.hidden = true;
  };

  // One scale for every bar, so bars compare: positive points grow right of the zero line,
  // negative ones (a solo face's −15) left of it.
  Chart.prototype.draw = function (players, lines) {
    var self = this, all = players.map(function (p) { return segmentsOf(p, lines); });
    this.blank();
    var plus = Math.max.apply(null, all.map(function (s) { return sum(s.map(function (x) { return Math.max(x.value, 0); })); }));
    var minus = Math.max.apply(null, all.map(function (s) { return sum(s.map(function (x) { return Math.max(-x.value, 0); })); }));
    if (plus + minus === 0) return;
    var used = {};
    all.forEach(function (s) { s.forEach(function (x) { used[x.id] = true; }); });
    lines.forEach(function (line, k) {
      if (!used[line.id]) return;
      var item = el("li", { "data-legend": line.id });
      item.appendChild(el("span", { "class": "rs-calc__swatch rs-calc__c" + (k % COLOURS), "aria-hidden": "true" }));
      item.appendChild(document.createTextNode(line.label));
      self.legend.appendChild(item);
    });
    this.node.hidden = false;
    var width = this.bars.clientWidth || 300;
    players.forEach(function (p, i) { self.bars.appendChild(self.bar(p, i, all[i], plus, minus, width)); });
  };

  Chart.prototype.bar = function (player, index, segments, plus, minus, width) {
    var ui = this.ui, span = plus + minus, zero = minus / span;
    var row = el("div", { "class": "rs-calc__bar", "data-bar": String(index) });
    var head = el("p", { "class": "rs-calc__bar-head" });
    head.appendChild(el("span", { "class": "rs-calc__bar-name" }, player.name));
    head.appendChild(el("span", { "class": "rs-calc__bar-total", "data-bar-total": String(index) }, String(player.total)));
    row.appendChild(head);
    var parts = segments.map(function (s) { return fill(ui.chart_part, { line: s.label, value: s.value }); });
    var svg = svgNode("svg", {
      width: "100%", height: String(BAR_HEIGHT), role: "img", focusable: "false",
      "aria-label": fill(ui.chart_player, { player: player.name, parts: parts.join(ui.list_join), total: player.total })
    });
    var right = zero, left = zero;
    segments.forEach(function (s) {
      var share = Math.abs(s.value) / span, x;
      if (s.value > 0) { x = right; right += share; } else { left -= share; x = left; }
      svg.appendChild(segment(s, x, share, width));
    });
    if (minus > 0) svg.appendChild(svgNode("line", { "class": "rs-calc__zero", x1: pct(zero), x2: pct(zero), y1: "0", y2: String(BAR_HEIGHT) }));
    row.appendChild(svg);
    return row;
  };

  // A segment, its tooltip, and its number written in it where the number fits.
  function segment(s, x, share, width) {
    var g = svgNode("g", { "class": "rs-calc__seg", "data-term": s.id, "data-value": String(s.value) });
    var rect = svgNode("rect", { x: pct(x), y: "0", width: pct(share), height: String(BAR_HEIGHT), "class": "rs-calc__c" + s.colour });
    rect.appendChild(svgNode("title", {}, s.label + ": " + s.value));
    g.appendChild(rect);
    if (share * width >= String(s.value).length * 8 + 8) {
      g.appendChild(svgNode("text", {
        x: pct(x + share / 2), y: String(BAR_HEIGHT / 2), "text-anchor": "middle",
        "dominant-baseline": "central", "class": "rs-calc__t" + s.colour, "aria-hidden": "true"
      }, String(s.value)));
    }
    return g;
  }

  window.RulesiteBreakdown = { Chart: Chart, segmentsOf: segmentsOf };
})();
