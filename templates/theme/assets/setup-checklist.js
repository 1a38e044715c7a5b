// rulesite: the setup checklist on a rules page (details.rs-checklist, hidden until this runs:
// without it the setup tables are the page's setup). The page lists every step with the player
// counts it applies to (li[data-players]); the reader picks a count and ticks steps. Ticks are
// kept on this device per game and per count, under one versioned key, and read back as
// untrusted input: only the page's own step ids and counts are taken from it. "Reset" asks
// first (window.confirm, with the page's wording) and clears the chosen count's ticks only.
(function () {
  "use strict";
  var root = document.querySelector("details.rs-checklist[data-rs-checklist]");
  if (!root) return;
  var VERSION = 1;
  var storageKey = "rulesite:setup:v" + VERSION + ":" + root.getAttribute("data-rs-checklist");
  var buttons = Array.prototype.slice.call(root.querySelectorAll(".rs-checklist__count"));
  var steps = Array.prototype.slice.call(root.querySelectorAll("li[data-step]"));
  var progress = root.querySelector(".rs-checklist__progress");
  var reset = root.querySelector(".rs-checklist__reset");
  var counts = buttons.map(function (button) { return button.getAttribute("data-players"); });

  function countsOf(step) { return step.getAttribute("data-players").split(" "); }
  function box(step) { return step.querySelector("input[type=checkbox]"); }

  // The stored state: {count: "3", open: true, ticks: {"3": ["step-id", ...]}}; anything else
  // found under the key (an older version, a hand edit) is read as far as it fits.
  function read() {
    var state = { count: null, open: false, ticks: {} };
    try {
      var value = JSON.parse(window.localStorage.getItem(storageKey) || "{}");
      if (!value || typeof value !== "object") return state;
      if (counts.indexOf(String(value.count)) >= 0) state.count = String(value.count);
      state.open = value.open === true;
      var ticks = value.ticks && typeof value.ticks === "object" ? value.ticks : {};
      counts.forEach(function (count) {
        if (Array.isArray(ticks[count])) {
          state.ticks[count] = ticks[count].filter(function (id) {
            return typeof id === "string" && stepIds(count).indexOf(id) >= 0;
          });
        }
      });
    } catch (error) { /* unreadable: start afresh */ }
    return state;
  }

  function save() {
    try {
      window.localStorage.setItem(storageKey, JSON.stringify(state));
    } catch (error) { /* storage full or blocked: the ticks last for this page only */ }
  }

  function stepsFor(count) {
    return steps.filter(function (step) { return countsOf(step).indexOf(count) >= 0; });
  }

  function stepIds(count) {
    return stepsFor(count).map(function (step) { return step.getAttribute("data-step"); });
  }

  function fill(template, values) {
    return template.replace(/\{([a-z_]+)\}/g, function (whole, name) {
      return Object.prototype.hasOwnProperty.call(values, name) ? String(values[name]) : whole;
    });
  }

  function show() {
    var count = state.count;
    var ticked = state.ticks[count] || [];
    buttons.forEach(function (button) {
      button.setAttribute("aria-pressed", String(button.getAttribute("data-players") === count));
    });
    var shown = 0;
    var done = 0;
    steps.forEach(function (step) {
      var applies = countsOf(step).indexOf(count) >= 0;
      step.hidden = !applies;
      var checked = applies && ticked.indexOf(step.getAttribute("data-step")) >= 0;
      box(step).checked = checked;
      step.classList.toggle("rs-checklist__done", checked);
      if (applies) shown += 1;
      if (checked) done += 1;
    });
    progress.textContent = fill(root.getAttribute("data-progress"), { done: done, total: shown });
    reset.disabled = done === 0;
  }

  var state = read();
  if (state.count === null) {
    var best = root.getAttribute("data-best");
    state.count = counts.indexOf(best) >= 0 ? best : counts[0];
  }

  buttons.forEach(function (button) {
    button.addEventListener("click", function () {
      state.count = button.getAttribute("data-players");
      save();
      show();
    });
  });
  steps.forEach(function (step) {
    box(step).addEventListener("change", function () {
      state.ticks[state.count] = stepsFor(state.count)
        .filter(function (other) { return box(other).checked; })
        .map(function (other) { return other.getAttribute("data-step"); });
      save();
      show();
    });
  });
  reset.addEventListener("click", function () {
    if (!window.confirm(root.getAttribute("data-confirm"))) return;
    delete state.ticks[state.count];
    save();
    show();
  });
  root.addEventListener("toggle", function () {
    state.open = root.open;
    save();
  });

  root.open = state.open;
  root.hidden = false;
  show();
})();
