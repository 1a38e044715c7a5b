// rulesite: the search worker (scripts/rulesite/engine/search_chunks.py says what it reads).
// It answers Material's search messages (0 setup → 1 ready; 2 query → 3 result) as Material's own
// worker does, but never holds the whole index: a query fetches the chunks of its words
// (search/chunks/<key>.json) and the parts of its best pages (search/pages/<page>-<part>.json).
// Every page of a language asks the same files for the same query: the results do not depend on
// the page. Offline, the games saved for reading are searched in their shards, in the cache.
"use strict";

var SEARCH = new URL("../search/", self.location.href).href;
var GROUPS = 10; // pages listed: Material shows ten, then more as the list scrolls
var DESCENDANTS = 6; // chunks fetched for a word typed shorter than the chunks' keys
var MAX_WORD = 8; // the longest Chinese word looked for when splitting a query
var SNIPPET = 150; // characters of text around the first match
var HAN = /[\u3400-\u9fff\uf900-\ufaff]/;
var HAN_RUNS = /[\u3400-\u9fff\uf900-\ufaff]+|[^\u3400-\u9fff\uf900-\ufaff]+/g;
var EDGES = /^[^\p{L}\p{N}_]+|[^\p{L}\p{N}_]+$/gu;

var meta = null;
var separator = null;
var keys = [];
var keySet = new Set();
var stop = new Set();
var chunks = new Map();
var parts = new Map();
var latest = 0;
var offline = null;

self.addEventListener("message", function (event) {
  var message = event.data || {};
  if (message.type === 0) {
    setup(message.data || {});
    self.postMessage({ type: 1 });
  } else if (message.type === 2) {
    var id = ++latest;
    search(String(message.data || "")).then(
      function (result) {
        if (id === latest) self.postMessage({ type: 3, data: result });
      },
      function (error) {
        console.warn("rulesite search: " + (error && error.message));
        if (id === latest) self.postMessage({ type: 3, data: { items: [] } });
      }
    );
  }
});

function setup(data) {
  var config = data.config || {};
  meta = config.rulesite || { chunks: [], stop: [], docs: 1, part: 48 };
  separator = new RegExp(config.separator || "[\\s\\-]+", "g");
  keys = meta.chunks.slice().sort();
  keySet = new Set(keys);
  stop = new Set(meta.stop);
}

function getJson(url) {
  return fetch(url, { credentials: "same-origin" }).then(function (response) {
    if (!response.ok) throw new Error(response.status + " " + url);
    return response.json();
  });
}

function chunkFile(key) {
  var hex = [];
  for (var char of key) hex.push(char.codePointAt(0).toString(16));
  return SEARCH + "chunks/" + hex.join("-") + ".json";
}

function chunk(key) {
  if (!chunks.has(key)) {
    chunks.set(key, getJson(chunkFile(key)).catch(function (error) {
      chunks.delete(key);
      throw error;
    }));
  }
  return chunks.get(key);
}

function part(name) {
  if (!parts.has(name)) {
    parts.set(name, getJson(SEARCH + "pages/" + name + ".json").catch(function (error) {
      parts.delete(name);
      throw error;
    }));
  }
  return parts.get(name);
}

// The first chunk of a word: its first character when Han, else its first two letters.
function base(word) {
  var first = String.fromCodePoint(word.codePointAt(0));
  return HAN.test(first) ? first : word.slice(0, 2);
}

// The chunks on the way to `word` (a cut chunk names its children in `more`), the deepest last.
function path(word) {
  var start = base(word);
  if (!keySet.has(start)) return Promise.resolve([]);
  var found = [];
  function walk(key) {
    return chunk(key).then(function (loaded) {
      found.push({ key: key, chunk: loaded });
      var next = word.charAt(key.length);
      if (next && (loaded.more || "").indexOf(next) !== -1) return walk(key + next);
      return found;
    });
  }
  return walk(start);
}

// The chunks that hold every word beginning with `word`: those on its way, and when the word is
// shorter than where the chunks are cut, the children of the last (a few at most).
function chunksFor(word) {
  if (word.length < base(word).length) {
    var longer = keys.filter(function (key) { return key.indexOf(word) === 0; });
    return longer.length <= DESCENDANTS ? Promise.all(longer.map(chunk)) : Promise.resolve([]);
  }
  return path(word).then(function (found) {
    var chunks = found.map(function (step) { return step.chunk; });
    var last = found[found.length - 1];
    if (!last || last.key !== word || !last.chunk.more) return chunks;
    var children = Array.from(last.chunk.more);
    if (children.length > DESCENDANTS) return chunks;
    return Promise.all(children.map(function (next) { return chunk(word + next); })).then(
      function (more) { return chunks.concat(more); }
    );
  });
}

function known(word) {
  if (stop.has(word)) return Promise.resolve(true);
  return path(word).then(
    function (found) {
      return found.some(function (step) {
        return Object.prototype.hasOwnProperty.call(step.chunk.words, word);
      });
    },
    function () {
      return false; // offline: the run is searched as typed (offlineSearch)
    }
  );
}

// A run of Han characters as words: at each place the longest word the index (or the stop
// list) knows, else one character; so 平票怎么算 is 平票 怎么 算.
function segment(run) {
  var words = [];
  function from(start) {
    if (start >= run.length) return Promise.resolve(words);
    var longest = Math.min(MAX_WORD, run.length - start);
    function tryLength(length) {
      if (length === 1) {
        words.push(run.slice(start, start + 1));
        return from(start + 1);
      }
      var word = run.slice(start, start + length);
      return known(word).then(function (yes) {
        if (!yes) return tryLength(length - 1);
        words.push(word);
        return from(start + length);
      });
    }
    return tryLength(longest);
  }
  return from(0);
}

// The query's words, and whether it is a question (question words left out, or three words or more:
// two are often one term, "war strength").
function queryWords(text) {
  var pieces = text.toLowerCase().split(separator);
  var runs = [];
  pieces.forEach(function (piece) {
    (piece.match(HAN_RUNS) || []).forEach(function (run) {
      run = run.replace(EDGES, "");
      if (run) runs.push(run);
    });
  });
  runs.forEach(function (run) {
    // Splitting a run asks for the chunks of its characters one after the other: ask for them
    // all at once first.
    if (!HAN.test(run)) return;
    for (var char of run) {
      if (keySet.has(char)) chunk(char).catch(function () {});
    }
  });
  return Promise.all(
    runs.map(function (run) {
      return HAN.test(run) ? segment(run) : Promise.resolve([run]);
    })
  ).then(function (lists) {
    var seen = new Set();
    var words = [];
    var dropped = false;
    lists.forEach(function (list) {
      list.forEach(function (word) {
        if (stop.has(word)) dropped = true;
        else if (!seen.has(word)) {
          seen.add(word);
          words.push(word);
        }
      });
    });
    return { words: words, runs: runs, question: dropped || words.length > 2 };
  });
}

function weightOf(value) {
  return (Math.pow(2, value / 8) - 1) / 100;
}

// Per query word, the index words it finds (itself, and the words it begins at half weight),
// each document's best.
function postings(word, question) {
  return chunksFor(word).then(function (found) {
    var best = new Map();
    var matched = [];
    found.forEach(function (loaded) {
      var words = loaded.words;
      Object.keys(words).forEach(function (candidate) {
        if (candidate.indexOf(word) !== 0) return;
        matched.push(candidate);
        var list = words[candidate];
        var df = list.length / 3;
        var idf = Math.log(1 + (meta.docs - df + 0.5) / (df + 0.5));
        var factor = candidate === word ? 1 : 0.5;
        var page = 0;
        for (var i = 0; i < list.length; i += 3) {
          page += list[i];
          var section = list[i + 1];
          var ruling = section < 0; // a ruling: weighs more when the query is a question
          if (ruling) section = -1 - section;
          var key = page + "-" + section;
          var score = weightOf(list[i + 2]) * idf * factor * (ruling && question ? meta.ruling || 1 : 1);
          if (!best.has(key) || best.get(key) < score) best.set(key, score);
        }
      });
    });
    return { word: word, scores: best, matched: matched };
  });
}

function rank(found) {
  var docs = new Map();
  found.forEach(function (term, index) {
    term.scores.forEach(function (score, key) {
      var doc = docs.get(key);
      if (!doc) {
        var at = key.indexOf("-");
        doc = { page: +key.slice(0, at), section: +key.slice(at + 1), score: 0, terms: {} };
        docs.set(key, doc);
      }
      doc.score += score;
      doc.terms[index] = true;
    });
  });
  var list = Array.from(docs.values());
  list.forEach(function (doc) {
    var share = Object.keys(doc.terms).length / found.length;
    var closeness = (doc.section === 0 ? 1 : 0) + share; // as Material weighs its results
    doc.score *= 1 + closeness * closeness;
  });
  list.sort(function (a, b) {
    return b.score - a.score || a.page - b.page || a.section - b.section;
  });
  var groups = new Map();
  list.forEach(function (doc) {
    if (!groups.has(doc.page)) {
      if (groups.size >= GROUPS) return;
      groups.set(doc.page, []);
    }
    groups.get(doc.page).push(doc);
  });
  return groups;
}

function escapeHtml(text) {
  return text.replace(/[&<>"']/g, function (c) {
    return { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c];
  });
}

function pattern(words) {
  var sorted = words.slice().sort(function (a, b) { return b.length - a.length; });
  var escaped = sorted.map(function (word) {
    return word.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  });
  return escaped.length ? new RegExp("(" + escaped.join("|") + ")", "gi") : null;
}

function marked(text, regex) {
  if (!regex) return escapeHtml(text);
  return text.split(regex).map(function (piece, index) {
    return index % 2 ? "<mark data-md-highlight>" + escapeHtml(piece) + "</mark>" : escapeHtml(piece);
  }).join("");
}

function snippet(text, regex) {
  if (!text) return "";
  var start = 0;
  if (regex) {
    regex.lastIndex = 0;
    var hit = text.search(regex);
    if (hit > SNIPPET / 3) start = hit - Math.floor(SNIPPET / 3);
  }
  var end = Math.min(text.length, start + SNIPPET);
  var cut = (start > 0 ? "…" : "") + text.slice(start, end) + (end < text.length ? "…" : "");
  return "<p>" + marked(cut, regex) + "</p>";
}

function shown(row, doc, terms, regex, own) {
  var title = row[1];
  if (own && row[3] && title.indexOf(row[3]) === -1) title = row[3] + " · " + title;
  return {
    location: row[0],
    title: marked(title, regex),
    text: snippet(row[2], regex),
    score: doc ? doc.score : 0,
    terms: terms
  };
}

function termsOf(doc, words) {
  var terms = {};
  words.forEach(function (word, index) {
    terms[word] = !!(doc && doc.terms[index]);
  });
  return terms;
}

function items(groups, words, regex) {
  var size = meta.part || 48;
  var wanted = new Set();
  groups.forEach(function (docs, page) {
    wanted.add(page + "-0");
    docs.forEach(function (doc) { wanted.add(page + "-" + Math.floor(doc.section / size)); });
  });
  var names = Array.from(wanted);
  return Promise.all(names.map(part)).then(function (loaded) {
    var rows = new Map();
    names.forEach(function (name, index) { rows.set(name, loaded[index].docs); });
    var result = [];
    groups.forEach(function (docs, page) {
      var row = function (section) {
        return rows.get(page + "-" + Math.floor(section / size))[section % size];
      };
      var list = docs.map(function (doc) {
        return shown(row(doc.section), doc, termsOf(doc, words), regex, doc.section === 0);
      });
      if (!docs.some(function (doc) { return doc.section === 0; })) {
        // Material lists a page before its sections, and names the page with them.
        var any = {};
        docs.forEach(function (doc) { Object.assign(any, doc.terms); });
        list.push(shown(row(0), null, termsOf({ terms: any }, words), regex, true));
      }
      result.push(list);
    });
    return result;
  });
}

function search(text) {
  if (!meta) return Promise.resolve({ items: [] });
  return queryWords(text).then(function (query) {
    var words = query.words;
    if (!words.length) return { items: [] };
    var found = words.map(function (word) { return postings(word, query.question); });
    return Promise.all(found).then(
      function (found) {
        var shownWords = words.slice();
        found.forEach(function (term) { shownWords = shownWords.concat(term.matched.slice(0, 20)); });
        var regex = pattern(shownWords);
        return items(rank(found), words, regex).then(function (list) {
          return { items: list };
        });
      },
      function (error) {
        return offlineSearch(query.runs.filter(function (run) { return !stop.has(run); }), error);
      }
    );
  });
}

// Offline: the chunks are not in the cache, but each saved game's shard is (engine/offline.py);
// its documents are searched for each piece of the query as typed (a run of Han characters
// whole, as it cannot be split without the chunks).
function offlineSearch(words, error) {
  if (!self.caches) throw error;
  if (!offline) offline = loadShards();
  return offline.then(function (docs) {
    if (!docs.length) throw error;
    var regex = pattern(words);
    var groups = new Map();
    var scored = [];
    docs.forEach(function (doc, index) {
      var text = (doc.title + " " + doc.text + " " + (doc.words || "") + " " + (doc.names || "")).toLowerCase();
      var terms = {};
      var score = 0;
      words.forEach(function (word) {
        var hit = text.indexOf(word) !== -1;
        terms[word] = hit;
        if (hit) score += (doc.title.toLowerCase().indexOf(word) !== -1 ? 10 : 1);
      });
      if (score > 0) scored.push({ doc: doc, index: index, score: score, terms: terms });
    });
    scored.sort(function (a, b) { return b.score - a.score || a.index - b.index; });
    scored.forEach(function (hit) {
      var page = hit.doc.location.split("#")[0];
      if (!groups.has(page)) {
        if (groups.size >= GROUPS) return;
        groups.set(page, []);
      }
      groups.get(page).push(hit);
    });
    var result = [];
    groups.forEach(function (hits, page) {
      var list = hits.map(function (hit) {
        return shown([hit.doc.location, clean(hit.doc.title), clean(hit.doc.text), ""], hit, hit.terms, regex, false);
      });
      if (!hits.some(function (hit) { return hit.doc.location === page; })) {
        var own = docs.find(function (doc) { return doc.location === page; });
        if (own) list.push(shown([own.location, clean(own.title), clean(own.text), ""], null, {}, regex, false));
      }
      result.push(list);
    });
    return { items: result };
  });
}

function clean(text) {
  return String(text || "").replace(/<[^>]*>/g, " ").replace(/\u200b/g, "").replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">").replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&amp;/g, "&")
    .replace(/\s+/g, " ").trim();
}

function loadShards() {
  return caches.keys().then(function (names) {
    return Promise.all(names.map(function (name) {
      return caches.open(name).then(function (cache) {
        return cache.keys().then(function (requests) {
          var shards = requests.filter(function (request) {
            return request.url.indexOf(SEARCH + "shards/") === 0;
          });
          return Promise.all(shards.map(function (request) {
            return cache.match(request).then(function (response) { return response.json(); });
          }));
        });
      });
    }));
  }).then(function (lists) {
    var docs = [];
    lists.forEach(function (shards) {
      shards.forEach(function (shard) { docs = docs.concat(shard.docs || []); });
    });
    return docs;
  });
}
