// Runs the theme's search worker (templates/theme/assets/search-worker.js) in Node against a built
// language site, as Material would talk to it: setup with the site's search_index.json, then one
// query after the other. Online, its fetches read the site's files; offline, every fetch fails
// and the Cache API holds the shards of the games named (as a saved game's are).
//
//   node search-worker.js WORKER LANG_DIR online|offline SLUG,SLUG... < queries.json
//
// Prints, per query, the result links in the order Material lists them (each page, then its
// sections) with what each shows: [[location, {word: found}, title HTML, text HTML], ...].
"use strict";
const fs = require("fs");
const path = require("path");

const [worker, site, mode, slugs] = process.argv.slice(2);
const ROOT = "http://site.test/";
const queries = JSON.parse(fs.readFileSync(0, "utf-8"));

function file(url) {
  const relative = decodeURIComponent(new URL(url).pathname.slice(1));
  return JSON.parse(fs.readFileSync(path.join(site, relative), "utf-8"));
}

function response(data) {
  return { ok: true, status: 200, json: () => Promise.resolve(data) };
}

global.fetch = (url) =>
  mode === "online"
    ? Promise.resolve().then(() => response(file(url)))
    : Promise.reject(new TypeError("Failed to fetch"));

const saved = (slugs || "").split(",").filter(Boolean).map((slug) => ({
  url: ROOT + "search/shards/" + slug + ".json",
}));
global.caches = {
  keys: () => Promise.resolve(["rulesite test"]),
  open: () =>
    Promise.resolve({
      keys: () => Promise.resolve(saved),
      match: (request) => Promise.resolve(response(file(request.url))),
    }),
};

let answer = null;
global.self = {
  location: { href: ROOT + "assets/search-worker.js" },
  caches: global.caches,
  addEventListener: (type, listener) => { self.listener = listener; },
  postMessage: (message) => { if (message.type === 3 && answer) answer(message.data); },
};
require(path.resolve(worker));

function ask(text) {
  return new Promise((resolve) => {
    answer = resolve;
    self.listener({ data: { type: 2, data: text } });
  });
}

function links(result) {
  const list = [];
  for (const group of result.items) {
    const parent = group.findIndex((doc) => doc.location.indexOf("#") === -1);
    const docs = group.slice();
    const [article] = docs.splice(parent, 1);
    for (const doc of [article, ...docs]) list.push([doc.location, doc.terms, doc.title, doc.text]);
  }
  return list;
}

(async () => {
  self.listener({ data: { type: 0, data: file(ROOT + "search/search_index.json") } });
  const out = {};
  for (const text of queries) out[text] = links(await ask(text));
  process.stdout.write(JSON.stringify(out));
})();
