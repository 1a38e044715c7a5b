// rulesite: register the language's offline worker (sw.js at the language root) and, on a game's
// pages, ask it to store that game for reading offline. Browsers without service workers, pages
// opened from file:// and plain http on another host than localhost are not secure contexts:
// there nothing happens. When the game is stored, <html> gets data-offline-ready="<slug>".
(function () {
  "use strict";
  var script = document.currentScript;
  if (!script || !window.isSecureContext || !("serviceWorker" in navigator)) return;
  var game = script.getAttribute("data-game");
  var container = navigator.serviceWorker;

  function storeGame() {
    if (!game) return;
    container.ready.then(function (registration) {
      if (registration.active) registration.active.postMessage({ game: game });
    });
  }

  container.addEventListener("message", function (event) {
    var data = event.data;
    if (data && data.game === game && data.stored === true) {
      document.documentElement.setAttribute("data-offline-ready", game);
    }
  });
  container
    .register(script.getAttribute("data-worker"))
    .then(storeGame)
    .catch(function () {
      // Refused (private mode, blocked by settings): the site works as without a worker.
    });
})();
