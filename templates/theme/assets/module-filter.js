// rulesite: hide the rules sections and rulings of modules the reader does not play.
// The page lists the modules its sections are tagged with (fieldset .rs-module-filter, hidden
// until this script runs and makes a checkbox of each: without it every section shows). A tagged
// section is its heading, the tag under it (p[data-rs-module]) and everything up to the next
// heading of the same level. The reader's choice is kept per game in localStorage, read as
// untrusted input: only the page's own module ids are taken from it. A section a link points
// at (#anchor, on load or later) is always shown, whatever the choice.
(function () {
  "use strict";
  var filter = document.querySelector("fieldset.rs-module-filter[data-rs-game]");
  if (!filter) return;
  var storageKey = "rulesite:modules:" + filter.getAttribute("data-rs-game");
  var boxes = Array.prototype.slice.call(filter.querySelectorAll("[data-rs-module-option]")).map(makeCheckbox);
  var known = boxes.map(function (box) { return box.value; });
  var sections = collectSections();
  var revealed = []; // sections links opened: shown even when their module is hidden

  // The page lists each module as <span data-rs-module-option="id">name</span>: make it a
  // labelled checkbox, moving the name's nodes (never re-parsing them as HTML).
  function makeCheckbox(option) {
    var label = document.createElement("label");
    label.className = option.className;
    var box = document.createElement("input");
    box.type = "checkbox";
    box.value = option.getAttribute("data-rs-module-option");
    box.checked = true;
    label.appendChild(box);
    label.appendChild(document.createTextNode(" "));
    while (option.firstChild) label.appendChild(option.firstChild);
    option.parentNode.replaceChild(label, option);
    return box;
  }

  function collectSections() {
    var found = [];
    document.querySelectorAll("p.rs-module-tag[data-rs-module]").forEach(function (tag) {
      var heading = tag.previousElementSibling;
      while (heading && !/^H[1-6]$/.test(heading.tagName)) heading = heading.previousElementSibling;
      if (!heading) return;
      var nodes = [heading];
      var next = heading.nextElementSibling;
      while (next && !(/^H[1-6]$/.test(next.tagName) && next.tagName <= heading.tagName)) {
        nodes.push(next);
        next = next.nextElementSibling;
      }
      found.push({ module: tag.getAttribute("data-rs-module"), nodes: nodes });
    });
    return found;
  }

  function readHidden() {
    try {
      var value = JSON.parse(window.localStorage.getItem(storageKey) || "[]");
      if (!Array.isArray(value)) return [];
      return value.filter(function (id) { return typeof id === "string" && known.indexOf(id) >= 0; });
    } catch (error) {
      return [];
    }
  }

  function saveHidden(hidden) {
    try {
      if (hidden.length) window.localStorage.setItem(storageKey, JSON.stringify(hidden));
      else window.localStorage.removeItem(storageKey);
    } catch (error) { /* storage full or blocked: the choice lasts for this page only */ }
  }

  function hiddenModules() {
    return boxes.filter(function (box) { return !box.checked; }).map(function (box) { return box.value; });
  }

  function apply() {
    var hidden = hiddenModules();
    sections.forEach(function (section) {
      var hide = hidden.indexOf(section.module) >= 0 && revealed.indexOf(section) < 0;
      section.nodes.forEach(function (node) { node.classList.toggle("rs-module-hidden", hide); });
    });
  }

  // A link to an anchor inside a hidden section shows that section and scrolls to it.
  function revealTarget() {
    var id = window.location.hash.slice(1);
    if (!id) return;
    try { id = decodeURIComponent(id); } catch (error) { return; }
    var target = document.getElementById(id);
    if (!target) return;
    var section = sections.filter(function (s) {
      return s.nodes.some(function (node) { return node === target || node.contains(target); });
    })[0];
    if (!section || !section.nodes[0].classList.contains("rs-module-hidden")) return;
    revealed.push(section);
    apply();
    target.scrollIntoView();
  }

  var hidden = readHidden();
  boxes.forEach(function (box) {
    box.checked = hidden.indexOf(box.value) < 0;
    box.addEventListener("change", function () {
      revealed = []; // the reader's new choice applies to every section again
      saveHidden(hiddenModules());
      apply();
    });
  });
  filter.hidden = false;
  apply();
  revealTarget();
  window.addEventListener("hashchange", revealTarget);
})();
