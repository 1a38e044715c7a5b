// rulesite: the offline worker of one language's site (its scope is the folder it is served from:
// the site root for the default language, <lang>/ for the others).
//
// At its install (a reader's first visit) the worker stores the language's site-wide pages (home,
// games index, glossary, topics, the offline page) and what they load, as the build listed them
// in offline.json ("site"). A game is stored only when the reader asks (offline-save.js posts
// {save: [slug, ...], id}): its pages and everything they load, in every language of the site
// (each language's offline.json, fetched then), so the language menu works offline before the
// other language's worker is installed. The worker reports progress ({id, done, total, failed})
// and the end ({id, finished, saved, failed}); a game counts as saved in a language only when a
// marker is written, last, after every file of it. Every request goes to the network first and
// falls back to a stored copy (this worker's, or another language's worker's: a page saved from
// the other language), so a reader online always gets the current site; offline, stored pages
// open and any other page shows the offline page, listing the saved games. Each build writes its
// own id into this file, so a changed site installs a new worker, which stores the same games
// afresh while it installs (the old one still answering) and, once active, deletes the old one's
// caches. Nothing from data is evaluated here; the saved games' titles are HTML-escaped before
// they go into the offline page.
"use strict";

// Filled in by the build (engine/offline.py): {build, languages, lists, offline, skip}.
const SETTINGS = __RULESITE_OFFLINE__;
const SCOPE = self.registration.scope;
const PREFIX = "rulesite " + SCOPE + " ";
const CACHE = PREFIX + SETTINGS.build;
const OURS = "rulesite ";
const GAME = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
// A stored game is marked in the cache by this key under each language's root (no such file on
// the server), written last; its body is the game's {title, url} in that language.
const STORED = "offline/stored/";
// Every language's root, this one's among them; the site's root is the shortest.
const ROOTS = SETTINGS.languages.map((root) => new URL(root, SCOPE).href);
const SITE = ROOTS.reduce((shortest, root) => (root.length < shortest.length ? root : shortest), SCOPE);

function inScope(path) {
  return new URL(path, SCOPE).href;
}

function storedKey(slug, root) {
  return new URL(STORED + slug, root || SCOPE).href;
}

// Requests this worker answers: its own origin and scope, the workers themselves excepted.
// Other languages' folders under this scope are answered too: their own workers take them over
// once installed (the browser picks the worker with the longest scope), and until then this one
// serves what was saved of them, so the language menu lands on a page, not an error.
function handled(url) {
  if (url.origin !== self.location.origin || !url.href.startsWith(SCOPE)) return false;
  const path = url.pathname.slice(new URL(SCOPE).pathname.length);
  return path !== "sw.js" && !SETTINGS.skip.some((prefix) => path === prefix + "sw.js");
}

// Files a save may store: this site's own, in any of its languages.
function ofThisSite(url) {
  return url.origin === self.location.origin && url.href.startsWith(SITE) && !url.pathname.endsWith("/sw.js");
}

// A page's address without ?query (search results add ?h=...) and without #fragment.
function cacheKey(request) {
  const url = new URL(request.url);
  url.search = "";
  url.hash = "";
  return url.href;
}

async function fetchFresh(url) {
  // "no-cache": revalidate with the server, so a stored copy never comes from the HTTP cache.
  const response = await fetch(url, { cache: "no-cache", credentials: "same-origin" });
  if (!response.ok) throw new Error(response.status + " " + url);
  return response;
}

async function listsOf(root) {
  const response = await fetchFresh(new URL(SETTINGS.lists, root).href).catch(() => null);
  const lists = response ? await response.json().catch(() => null) : null;
  return lists && typeof lists === "object" && lists.games && Array.isArray(lists.shared) ? lists : null;
}

function strings(list) {
  return Array.isArray(list) ? list.filter((item) => typeof item === "string") : [];
}

// What saving one game stores in one language (false for a slug or game the lists do not have).
function plannedGame(root, lists, slug) {
  if (!GAME.test(slug)) return false;
  const own = lists.games[slug];
  if (!Array.isArray(own)) return false;
  const about = lists.about && lists.about[slug];
  const files = strings(lists.shared).concat(strings(own), strings(lists.site));
  const urls = files.map((file) => new URL(file, root)).filter(ofThisSite).map((url) => url.href);
  const info = about && typeof about.title === "string" && typeof about.url === "string" ? about : null;
  return { slug: slug, root: root, urls: urls, about: info };
}

// Store one file; what cannot be fetched is copied from an older cache if one has it (a game
// stored last week stays readable offline after an update made while offline).
async function storeOne(cache, url, older) {
  try {
    await cache.put(url, await fetchFresh(url));
    return true;
  } catch (error) {
    const copy = older ? await older.match(url) : null;
    if (copy) await cache.put(url, copy);
    return Boolean(copy);
  }
}

// Save games in every language, reporting (done, total, failed) after each file.
async function saveGames(slugs, older, report) {
  const cache = await caches.open(CACHE);
  const plans = [];
  let failed = 0;
  for (const root of ROOTS) {
    const lists = await listsOf(root);
    if (!lists) {
      failed += 1; // that language's list could not be read: nothing of it is saved
      continue;
    }
    for (const slug of slugs) {
      const plan = typeof slug === "string" ? plannedGame(root, lists, slug) : false;
      if (plan) plans.push(plan);
    }
  }
  const urls = Array.from(new Set(plans.flatMap((plan) => plan.urls)));
  const stored = new Map();
  let done = 0;
  report(done, urls.length, failed);
  await Promise.all(
    urls.map(async (url) => {
      const ok = await storeOne(cache, url, older);
      stored.set(url, ok);
      if (ok) done += 1;
      else failed += 1;
      report(done, urls.length, failed);
    }),
  );
  const saved = [];
  for (const plan of plans) {
    if (!plan.urls.every((url) => stored.get(url))) continue;
    // Last: a cache that marks a game stored holds all of that game in that language.
    const about = JSON.stringify(plan.about || { title: plan.slug, url: "games/" + plan.slug + "/" });
    await cache.put(storedKey(plan.slug, plan.root), new Response(about, { headers: { "Content-Type": "application/json" } }));
    if (plan.root === SCOPE) saved.push(plan.slug);
  }
  return { done: done, total: urls.length, failed: failed, saved: saved };
}

// The site-wide pages, at install: best effort (a file that fails is fetched again on a visit).
async function storeSite() {
  const cache = await caches.open(CACHE);
  await cache.add(new Request(inScope(SETTINGS.offline), { cache: "no-cache" }));
  const lists = await listsOf(SCOPE);
  const urls = strings(lists && lists.site).map((file) => new URL(file, SCOPE));
  await Promise.all(urls.filter(ofThisSite).map((url) => storeOne(cache, url.href, null)));
}

// The caches of this scope's older workers (earlier builds), by name.
async function olderCaches() {
  return (await caches.keys()).filter((name) => name.startsWith(PREFIX) && name !== CACHE);
}

// The games a cache marks as stored (in any language): {slug: [marker URL, ...]}.
async function markedGames(cache) {
  const games = new Map();
  for (const request of await cache.keys()) {
    for (const root of ROOTS) {
      const start = storedKey("", root);
      const slug = request.url.startsWith(start) ? request.url.slice(start.length) : "";
      if (GAME.test(slug)) games.set(slug, (games.get(slug) || []).concat(request.url));
    }
  }
  return games;
}

// The games an older worker's cache marks and this worker's does not hold whole (in each
// language saved), stored again for this build, whatever cannot be fetched copied from the older
// cache. At install, that is every saved game: done then, while the older worker still answers
// every request, because a worker that is activating holds up every request of its pages until it
// is active (a reader opening the site just after an update would wait for the whole re-save).
// At activation, only a game the older worker saved after this one's install began, or one not
// stored whole then, is left: stored before the older caches go, so no saved game is lost.
async function storeOlderGames() {
  const cache = await caches.open(CACHE);
  for (const name of await olderCaches()) {
    const older = await caches.open(name);
    const missing = [];
    for (const [slug, markers] of await markedGames(older)) {
      const present = await Promise.all(markers.map((marker) => cache.match(marker)));
      if (!present.every(Boolean)) missing.push(slug);
    }
    if (missing.length) await saveGames(missing, older, () => {});
  }
}

self.addEventListener("install", (event) => {
  event.waitUntil(storeSite().then(storeOlderGames).then(() => self.skipWaiting()));
});

async function takeOver() {
  await storeOlderGames();
  for (const name of await olderCaches()) await caches.delete(name);
  await self.clients.claim();
}

self.addEventListener("activate", (event) => {
  event.waitUntil(takeOver());
});

self.addEventListener("message", (event) => {
  const data = event.data;
  if (!data || !Array.isArray(data.save)) return;
  const source = event.source;
  const post = (message) => {
    if (source) source.postMessage(Object.assign({ id: data.id }, message));
  };
  event.waitUntil(
    saveGames(data.save, null, (done, total, failed) => post({ done: done, total: total, failed: failed }))
      .catch(() => ({ done: 0, total: 0, failed: 1, saved: [] }))
      .then((result) => post(Object.assign({ finished: true }, result))),
  );
});

// The caches of this site's workers, this one's first.
async function ourCaches() {
  const names = (await caches.keys()).filter((name) => name.startsWith(OURS) && name !== CACHE);
  return [CACHE].concat(names);
}

// A stored copy of `key`: this worker's, or one another language's worker saved.
async function storedCopy(key) {
  for (const name of await ourCaches()) {
    const found = await (await caches.open(name)).match(key);
    if (found) return found;
  }
  return null;
}

function escapeHtml(text) {
  return String(text).replace(/[&<>"']/g, (c) => "&#" + c.charCodeAt(0) + ";");
}

// The games saved in the language at `root`, from their markers: [{title, href}], by title.
async function savedGames(root) {
  const start = storedKey("", root);
  const found = new Map();
  for (const name of await ourCaches()) {
    const cache = await caches.open(name);
    for (const request of await cache.keys()) {
      const slug = request.url.startsWith(start) ? request.url.slice(start.length) : "";
      if (!GAME.test(slug) || found.has(slug)) continue;
      const about = await (await cache.match(request)).json().catch(() => null);
      const href = about && typeof about.url === "string" ? new URL(about.url, root) : null;
      if (!href || !href.href.startsWith(root) || typeof about.title !== "string") continue;
      found.set(slug, { title: about.title, href: href.href });
    }
  }
  return Array.from(found.values()).sort((a, b) => a.title.localeCompare(b.title));
}

// The offline page of the language a request falls in, listing that language's saved games
// (absolute links: the page is shown at any address).
async function offlinePage(url) {
  const root = ROOTS.filter((r) => url.startsWith(r)).sort((a, b) => b.length - a.length)[0] || SCOPE;
  const page = (await storedCopy(new URL(SETTINGS.offline, root).href)) || (await storedCopy(inScope(SETTINGS.offline)));
  if (!page) return null;
  const games = await savedGames(root);
  let html = await page.text();
  if (games.length) {
    const items = games.map((game) => '<li><a href="' + escapeHtml(game.href) + '">' + escapeHtml(game.title) + "</a></li>");
    html = html.replace("<section id=\"saved\" hidden>", "<section id=\"saved\">").replace("<!--rulesite:saved-->", items.join(""));
  }
  return new Response(html, { headers: { "Content-Type": "text/html; charset=utf-8" } });
}

// Material's own files carry a hash of their content in their names: a stored copy is current.
const IMMUTABLE = /\.[0-9a-f]{8,}\.min\.(?:js|css)$/;

async function networkFirst(request, navigation) {
  const cache = await caches.open(CACHE);
  const key = navigation ? cacheKey(request) : request.url;
  if (IMMUTABLE.test(new URL(key).pathname)) {
    const stored = await storedCopy(key);
    if (stored) return stored;
  }
  try {
    // Revalidated with the server (a 304 when unchanged), never taken from the HTTP cache
    // unasked: an updated page or script is what the next visit gets.
    const response = await fetch(request, { cache: "no-cache" });
    // Keep what is stored up to date; what is not stored stays out (only saved games are kept).
    if (response.ok && response.type === "basic" && (await cache.match(key))) {
      await cache.put(key, response.clone());
    }
    return response;
  } catch (error) {
    const stored = await storedCopy(key);
    if (stored) return stored;
    const offline = navigation ? await offlinePage(key) : null;
    if (offline) return offline;
    throw error;
  }
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET" || !handled(new URL(request.url))) return;
  event.respondWith(networkFirst(request, request.mode === "navigate"));
});
