// rulesite: the offline worker of one language's site (its scope is the folder it is served from:
// the site root for the default language, <lang>/ for the others).
//
// When a page of a game asks (sw-register.js posts {game: slug}), the worker stores that game's
// pages and everything they load, as the build listed them in offline.json. Every request goes
// to the network first and falls back to the stored copy, so a reader online always gets the
// current site and a stored copy is refreshed whenever it is fetched again; offline, stored pages
// open and any other page shows the offline page. Each build writes its own id into this file,
// so a changed site installs a new worker, which stores the same games afresh and deletes the
// caches of the old one. Nothing from data is evaluated or inserted into a page here.
"use strict";

// Filled in by the build (scripts/rulesite/offline.py): {build, lists, offline, skip}.
const SETTINGS = __RULESITE_OFFLINE__;
const SCOPE = self.registration.scope;
const PREFIX = "rulesite " + SCOPE + " ";
const CACHE = PREFIX + SETTINGS.build;
const GAME = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
// A stored game is marked in the cache by this key (no such file on the server), written last.
const STORED = "offline/stored/";

function inScope(path) {
  return new URL(path, SCOPE).href;
}

function storedKey(slug) {
  return inScope(STORED + slug);
}

// Requests this worker leaves to the browser: other origins, other languages' sites (they sit
// under this scope but have workers of their own), and the worker itself.
function handled(url) {
  if (url.origin !== self.location.origin || !url.href.startsWith(SCOPE)) return false;
  const path = url.pathname.slice(new URL(SCOPE).pathname.length);
  return path !== "sw.js" && !SETTINGS.skip.some((prefix) => path.startsWith(prefix));
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

// Store a game's pages and files; what cannot be fetched is copied from an older cache if one
// has it (a game stored last week stays readable offline after an update made while offline).
async function storeGame(slug, older) {
  if (!GAME.test(slug)) return false;
  const cache = await caches.open(CACHE);
  const listResponse = await fetchFresh(inScope(SETTINGS.lists)).catch(() => null);
  const lists = listResponse ? await listResponse.json().catch(() => null) : null;
  const own = lists && lists.games && lists.games[slug];
  if (!Array.isArray(own) || !Array.isArray(lists.shared)) return false;
  const files = lists.shared.concat(own).filter((file) => typeof file === "string");
  const urls = files.map(inScope).filter((url) => handled(new URL(url)));
  const results = await Promise.all(
    urls.map(async (url) => {
      try {
        await cache.put(url, await fetchFresh(url));
        return true;
      } catch (error) {
        const copy = older ? await older.match(url) : null;
        if (copy) await cache.put(url, copy);
        return Boolean(copy);
      }
    }),
  );
  if (!results.every(Boolean)) return false;
  // Last: a cache that marks a game stored holds all of that game.
  await cache.put(storedKey(slug), new Response(slug));
  return true;
}

self.addEventListener("install", (event) => {
  event.waitUntil(
    caches
      .open(CACHE)
      .then((cache) => cache.add(new Request(inScope(SETTINGS.offline), { cache: "no-cache" })))
      .then(() => self.skipWaiting()),
  );
});

// The games the old caches held are stored again for this build, then the old caches go.
async function takeOver() {
  const names = (await caches.keys()).filter((name) => name.startsWith(PREFIX) && name !== CACHE);
  for (const name of names) {
    const older = await caches.open(name);
    for (const request of await older.keys()) {
      if (request.url.startsWith(storedKey(""))) {
        await storeGame(request.url.slice(storedKey("").length), older);
      }
    }
    await caches.delete(name);
  }
  await self.clients.claim();
}

self.addEventListener("activate", (event) => {
  event.waitUntil(takeOver());
});

self.addEventListener("message", (event) => {
  const data = event.data;
  if (!data || typeof data.game !== "string") return;
  const source = event.source;
  event.waitUntil(
    storeGame(data.game, null)
      .catch(() => false)
      .then((stored) => {
        if (source) source.postMessage({ game: data.game, stored: stored });
      }),
  );
});

// Material's own files carry a hash of their content in their names: a stored copy is current.
const IMMUTABLE = /\.[0-9a-f]{8,}\.min\.(?:js|css)$/;

async function networkFirst(request, navigation) {
  const cache = await caches.open(CACHE);
  const key = navigation ? cacheKey(request) : request.url;
  if (IMMUTABLE.test(new URL(key).pathname)) {
    const stored = await cache.match(key);
    if (stored) return stored;
  }
  try {
    // Revalidated with the server (a 304 when unchanged), never taken from the HTTP cache
    // unasked: an updated page or script is what the next visit gets.
    const response = await fetch(request, { cache: "no-cache" });
    // Keep what is stored up to date; what is not stored stays out (only opened games are kept).
    if (response.ok && response.type === "basic" && (await cache.match(key))) {
      await cache.put(key, response.clone());
    }
    return response;
  } catch (error) {
    const stored = await cache.match(key);
    if (stored) return stored;
    const offline = navigation ? await cache.match(inScope(SETTINGS.offline)) : null;
    if (offline) return offline;
    throw error;
  }
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET" || !handled(new URL(request.url))) return;
  event.respondWith(networkFirst(request, request.mode === "navigate"));
});
