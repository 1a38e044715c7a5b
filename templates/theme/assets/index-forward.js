// rulesite: an old link into the one-page glossary or topic index lands on the new page.
// The glossary and the topics were once one page each, with an anchor per game's term
// (glossary/#<slug>--<term id>) or per topic (topics/#<topic id>); each game's glossary and each
// topic now has its own page, which the index lists. The list's links carry their key
// (data-rs-key), so the old anchor is forwarded to the link with that key, with no map of
// terms: glossary/#nations--shadow goes to glossary/nations/#term-shadow.
(function () {
  "use strict";
  var box = document.querySelector("[data-rs-forward]");
  var hash = window.location.hash.slice(1);
  if (!box || !hash) return;
  try { hash = decodeURIComponent(hash); } catch (error) { return; }
  if (document.getElementById(hash)) return; // an anchor of this page: nothing to forward
  var separator = box.getAttribute("data-rs-forward");
  var key = hash;
  var rest = "";
  var at = separator ? hash.indexOf(separator) : -1;
  if (at > 0) {
    key = hash.slice(0, at);
    rest = hash.slice(at + separator.length);
  }
  var links = box.querySelectorAll("a[data-rs-key]");
  for (var i = 0; i < links.length; i += 1) {
    if (links[i].getAttribute("data-rs-key") !== key) continue;
    var target = new URL(links[i].href, window.location.href);
    if (rest) target.hash = "#" + (box.getAttribute("data-rs-anchor-prefix") || "") + rest;
    window.location.replace(target.href);
    return;
  }
})();
