// rulesite: register the language's offline worker (sw.js at the language root), then the other
// languages' workers (data-other-workers), so that the language menu finds a worker for the other
// language offline too. At its install a worker stores its language's site-wide pages; a game is
// stored when the reader saves it (offline-save.js). Browsers without service workers, pages
// opened from file:// and plain http on another host than localhost are not secure contexts:
// there nothing happens.
(function () {
  "use strict";
  var script = document.currentScript;
  if (!script || !window.isSecureContext || !("serviceWorker" in navigator)) return;
  var container = navigator.serviceWorker;
  var others = (script.getAttribute("data-other-workers") || "").split(" ").filter(Boolean);

  function ignore() {
    // Refused (private mode, blocked by settings) or offline: the site works as without a worker.
  }
  container
    .register(script.getAttribute("data-worker"))
    .then(function () {
      others.forEach(function (worker) {
        container.register(worker).catch(ignore);
      });
    })
    .catch(ignore);
})();
