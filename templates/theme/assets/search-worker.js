// rulesite: the search worker (scripts/rulesite/engine/search_chunks.py says what it reads).
// It answers Material's search messages (0 setup → 1 ready; 2 query → 3 result) as Material's own
// worker does, but never holds the whole index: a query fetches the chunks of its words
// (search/chunks/<key>.json) and the parts of its best pages (search/pages/<page>-<part>.json).
// Every page of a language asks the same files for the same query: the results do not depend on
// the page. Offline, the games saved for reading are searched in their shards, in the cache.
// Both ways a query is read alike (queryWords: Han runs split into the words the index knows,
// question words left out) and ranked alike (rank); only where the words are looked up differs
// (the `online` source, `offlineSource`).
//
// What the theme shows of a result is HTML (Material appends title and text with innerHTML): every
// text from the index goes through escapeHtml (marked, snippet); the "Missing" words are escaped
// by Material itself.
"use strict";

var SEARCH = new URL("../search/", self.location.href).href;
var GROUPS = 10; // pages listed: Material shows ten, then more as the list scrolls
var DESCENDANTS = 6; // chunks fetched for a word typed shorter than the chunks' keys
var MAX_WORD = 8; // the longest Chinese word looked for when splitting a query
var SNIPPET = 150; // characters of text around the first match
var MATCHED = 20; // index words per query word that the results highlight
var WORD_STEP = 20; // characters a snippet's start may move on to begin with a whole word
var K1 = 1.2, B = 0.75; // BM25's constants, as the chunks are weighed (search_chunks.py)
var HAN = /[\u3400-\u9fff\uf900-\ufaff]/;
var HAN_RUNS = /[\u3400-\u9fff\uf900-\ufaff]+|[^\u3400-\u9fff\uf900-\ufaff]+/g;
var EDGES = /^[^\p{L}\p{N}_]+|[^\p{L}\p{N}_]+$/gu;

var meta = null;
var fields = {};
var separator = null;
var keys = [];
var keySet = new Set();
var stop = new Set();
var cut = null;
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
  fields = {};
  Object.keys(config.fields || { title: {}, text: {} }).forEach(function (name) {
    fields[name] = ((config.fields || {})[name] || {}).boost || 1;
  });
  separator = new RegExp(config.separator || "[\\s\\-]+", "g");
  keys = meta.chunks.slice().sort();
  keySet = new Set(keys);
  stop = new Set(meta.stop);
  cut = meta.cut || null; // an index written before it named them: walked, chunk by chunk
}

function search(text) {
  if (!meta) return Promise.resolve({ items: [] });
  return answer(online, text).catch(function (error) {
    // A chunk could not be fetched: offline (or the site went away). The saved games' shards.
    return offlineSource(error).then(function (source) { return answer(source, text); });
  });
}

// The query read, its words looked up in `source`, the pages ranked, and what they show.
function answer(source, text) {
  return queryWords(text, source).then(function (query) {
    if (!query.words.length) return { items: [] };
    var looked = query.words.map(function (word) { return source.postings(word, query.question); });
    return Promise.all(looked).then(function (found) {
      var shownWords = query.words.slice();
      found.forEach(function (term) { shownWords = shownWords.concat(term.matched.slice(0, MATCHED)); });
      var groups = rank(found);
      return source.rows(groups).then(function (row) {
        return { items: items(groups, query, pattern(shownWords), row) };
      });
    });
  });
}

// --- the query ------------------------------------------------------------------------------

// A run of Han characters as words: at each place the longest word `knows` says is a word (the
// index's words online, the saved games' words offline, or a stop word), else one character; so
// 平票怎么算 is 平票 怎么 算 (or 平 票 怎么 算 where 平票 is no word of the index).
function segment(run, knows) {
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
      return knows(word).then(function (yes) {
        if (!yes) return tryLength(length - 1);
        words.push(word);
        return from(start + length);
      });
    }
    return tryLength(longest);
  }
  return from(0);
}

// What is typed, as runs: of Han characters, and of the rest, each without its punctuation.
function runsOf(text) {
  var runs = [];
  text.toLowerCase().split(separator).forEach(function (piece) {
    (piece.match(HAN_RUNS) || []).forEach(function (run) {
      run = run.replace(EDGES, "");
      if (run) runs.push(run);
    });
  });
  return runs;
}

// The query's words (Han runs split by what `source` knows, question words left out); whether
// it is a question (question words left out, or three words or more: two are often one term,
// "war strength"); and its pieces: the single characters a longer run of Han characters fell
// into (算, or 平 and 票 of an unknown 平票), which a hit's "Missing" line leaves out (termsOf).
function queryWords(text, source) {
  var runs = runsOf(text);
  if (source.prepare) source.prepare(runs);
  return Promise.all(
    runs.map(function (run) {
      return HAN.test(run) ? segment(run, source.knows) : Promise.resolve([run]);
    })
  ).then(function (lists) {
    var seen = new Set();
    var words = [];
    var pieces = new Set();
    var dropped = false;
    lists.forEach(function (list, index) {
      list.forEach(function (word) {
        if (stop.has(word)) dropped = true;
        else if (!seen.has(word)) {
          seen.add(word);
          words.push(word);
          if (word.length === 1 && runs[index].length > 1 && HAN.test(word)) pieces.add(word);
        }
      });
    });
    return { words: words, pieces: pieces, question: dropped || words.length > 2 };
  });
}

// --- online: the chunks ---------------------------------------------------------------------

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

// `object[key]` when the object has it itself; never what every object inherits (a word such as
// "constructor" names no chunk and no word of the index).
function own(object, key) {
  return Object.prototype.hasOwnProperty.call(object, key) ? object[key] : undefined;
}

// The first chunk of a word: its first character when Han, else its first two letters.
function base(word) {
  var first = String.fromCodePoint(word.codePointAt(0));
  return HAN.test(first) ? first : word.slice(0, 2);
}

// The chunks on the way to `word` (a cut chunk names its children in `more`), the deepest last.
// The index names every cut chunk's children (`cut`): then only the deepest is fetched, the one
// that holds the word and every word it begins (the chunks before it hold shorter words only).
function path(word) {
  var start = base(word);
  if (!keySet.has(start)) return Promise.resolve([]);
  if (cut) {
    var key = start;
    while (key.length < word.length && (own(cut, key) || "").indexOf(word.charAt(key.length)) !== -1) {
      key += word.charAt(key.length);
    }
    return chunk(key).then(function (loaded) { return [{ key: key, chunk: loaded }]; });
  }
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

function weightOf(value) {
  return (Math.pow(2, value / 8) - 1) / 100;
}

function idfOf(df, docs) {
  return Math.log(1 + (docs - df + 0.5) / (df + 0.5));
}

var online = {
  // Splitting a run asks for the chunks of its characters one after the other: ask for them
  // all at once first.
  prepare: function (runs) {
    runs.forEach(function (run) {
      if (!HAN.test(run)) return;
      for (var char of run) {
        if (keySet.has(char)) chunk(char).catch(function () {});
      }
    });
  },
  // Whether the index has `word` (a chunk that cannot be fetched fails the query: offline).
  knows: function (word) {
    if (stop.has(word)) return Promise.resolve(true);
    return path(word).then(function (found) {
      return found.some(function (step) {
        return own(step.chunk.words, word) !== undefined;
      });
    });
  },
  // The index words `word` finds (itself, and the words it begins at half weight), each
  // document's best.
  postings: function (word, question) {
    return chunksFor(word).then(function (found) {
      var best = new Map();
      var matched = [];
      found.forEach(function (loaded) {
        var words = loaded.words;
        Object.keys(words).forEach(function (candidate) {
          if (candidate.indexOf(word) !== 0) return;
          matched.push(candidate);
          var list = words[candidate];
          var idf = idfOf(list.length / 3, meta.docs);
          var factor = candidate === word ? 1 : 0.5;
          var page = 0;
          for (var i = 0; i < list.length; i += 3) {
            page += list[i];
            var section = list[i + 1];
            var ruling = section < 0; // a ruling: weighs more when the query is a question
            if (ruling) section = -1 - section;
            var score = weightOf(list[i + 2]) * idf * factor * (ruling && question ? meta.ruling || 1 : 1);
            keep(best, page + "-" + section, score);
          }
        });
      });
      return { word: word, scores: best, matched: matched };
    });
  },
  // What each ranked page's documents show: the parts they are in.
  rows: function (groups) {
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
      return function (page, section) {
        var docs = rows.get(page + "-" + Math.floor(section / size));
        return docs && docs[section % size];
      };
    });
  }
};

function keep(best, key, score) {
  if (!best.has(key) || best.get(key) < score) best.set(key, score);
}

// --- offline: the saved games' shards ---------------------------------------------------------

// Offline the chunks are not in the cache, but each saved game's shard is (engine/offline.py):
// its documents, indexed here as the chunks are (the same fields and weights, BM25), so a query
// is split, weighed and shown as online, over the saved games only.
function offlineSource(error) {
  if (!self.caches) return Promise.reject(error);
  if (!offline) offline = loadShards().then(indexShards);
  return offline.then(
    function (source) {
      if (source.docs === 0) {
        offline = null; // a game saved later is found next time
        throw error;
      }
      return source;
    },
    function () {
      offline = null; // the cache could not be read: try again next time
      throw error;
    }
  );
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
    var seen = new Set();
    var shards = [];
    lists.forEach(function (list) {
      list.forEach(function (shard) {
        var docs = (shard && shard.docs) || [];
        if (!docs.length || seen.has(docs[0].location)) return; // a game in two caches: once
        seen.add(docs[0].location);
        shards.push(docs);
      });
    });
    return shards;
  });
}

// The words of an index text as the index's tokenizer has them (search_split.Tokenizer): markup
// out, split on the index's separator (Chinese came split by zero-width spaces), trimmed of
// punctuation, lower-cased; question words out, as the chunks leave them out.
function tokens(text) {
  var words = [];
  unescaped(String(text || "").replace(/<[^>]*>/g, " ")).split(separator).forEach(function (word) {
    word = word.replace(EDGES, "").toLowerCase();
    if (word && !stop.has(word)) words.push(word);
  });
  return words;
}

// An index text's character references as characters (what a hit shows is escaped again).
function unescaped(text) {
  var named = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: "\u00a0" };
  return text.replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi, function (all, name) {
    if (name.charAt(0) !== "#") return named[name.toLowerCase()] || all;
    var code = name.charAt(1).toLowerCase() === "x" ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
    return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : all;
  });
}

function clean(text) {
  return unescaped(String(text || "").replace(/<[^>]*>/g, " ").replace(/\u200b/g, ""))
    .replace(/\s+/g, " ").trim();
}

// The saved documents by page, each page's own first, as the chunks number them; per word the
// documents that have it, weighed per field as the chunks are.
function indexShards(shards) {
  var pages = [];
  var counts = [];
  var places = [];
  shards.forEach(function (docs) {
    var game = gameOf(docs);
    var numbers = new Map();
    docs.forEach(function (doc) {
      var page = doc.location.split("#")[0];
      if (!numbers.has(page)) {
        numbers.set(page, pages.length);
        pages.push([]);
      }
      var number = numbers.get(page);
      var row = [doc.location, clean(doc.title), clean(doc.text), game];
      places.push({ page: number, section: pages[number].length, ruling: !!doc.ruling });
      pages[number].push(row);
      counts.push(fieldCounts(doc));
    });
  });
  var postings = weighed(counts, places);
  return {
    docs: counts.length,
    words: Array.from(postings.keys()).sort(),
    knows: function (word) {
      return Promise.resolve(stop.has(word) || postings.has(word));
    },
    postings: function (word, question) {
      var best = new Map();
      var matched = [];
      var list = this.words;
      for (var at = lowerBound(list, word); at < list.length && list[at].indexOf(word) === 0; at += 1) {
        var candidate = list[at];
        var found = postings.get(candidate);
        var idf = idfOf(found.length, counts.length);
        var factor = candidate === word ? 1 : 0.5;
        matched.push(candidate);
        found.forEach(function (hit) {
          var place = places[hit.doc];
          var score = hit.value * idf * factor * (place.ruling && question ? meta.ruling || 1 : 1);
          keep(best, place.page + "-" + place.section, score);
        });
      }
      return Promise.resolve({ word: word, scores: best, matched: matched });
    },
    rows: function () {
      return Promise.resolve(function (page, section) { return pages[page] && pages[page][section]; });
    }
  };
}

// A shard's game, as a hit names it: the title of the page every other page of it is under.
function gameOf(docs) {
  var own = docs.find(function (doc) {
    return doc.location.indexOf("#") === -1 && docs.every(function (other) {
      return other.location.indexOf(doc.location) === 0;
    });
  });
  return own ? clean(own.title) : "";
}

function fieldCounts(doc) {
  var result = {};
  Object.keys(fields).forEach(function (name) {
    var value = doc[name];
    if (!value) return;
    var counted = new Map();
    tokens(Array.isArray(value) ? value.join(" ") : value).forEach(function (word) {
      counted.set(word, (counted.get(word) || 0) + 1);
    });
    if (counted.size) result[name] = counted;
  });
  return result;
}

// Word → [{doc, value}]: each document's BM25 over its fields, times each field's boost.
function weighed(counts, places) {
  var lengths = {};
  counts.forEach(function (byField) {
    Object.keys(byField).forEach(function (name) {
      var total = 0;
      byField[name].forEach(function (tf) { total += tf; });
      (lengths[name] = lengths[name] || []).push(total);
    });
  });
  var average = {};
  Object.keys(lengths).forEach(function (name) {
    average[name] = lengths[name].reduce(function (a, b) { return a + b; }, 0) / lengths[name].length;
  });
  var postings = new Map();
  counts.forEach(function (byField, doc) {
    var scores = new Map();
    Object.keys(byField).forEach(function (name) {
      var counted = byField[name];
      var size = 0;
      counted.forEach(function (tf) { size += tf; });
      size /= average[name];
      counted.forEach(function (tf, word) {
        var value = tf * (K1 + 1) / (tf + K1 * (1 - B + B * size));
        scores.set(word, (scores.get(word) || 0) + fields[name] * value);
      });
    });
    scores.forEach(function (value, word) {
      if (!postings.has(word)) postings.set(word, []);
      postings.get(word).push({ doc: doc, value: value });
    });
  });
  return postings;
}

function lowerBound(list, word) {
  var low = 0;
  var high = list.length;
  while (low < high) {
    var middle = (low + high) >> 1;
    if (list[middle] < word) low = middle + 1;
    else high = middle;
  }
  return low;
}

// --- ranking and what a hit shows (both ways) -----------------------------------------------

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

// The query's words in a text, to mark: a word of letters or digits only where a word begins
// there (search matches the start of a word: "ties" is not marked inside "quantities"); a Han
// word anywhere (Chinese text has no spaces between words).
function pattern(words) {
  var sorted = words.slice().sort(function (a, b) { return b.length - a.length; });
  var escaped = sorted.map(function (word) {
    var literal = word.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    return HAN.test(word.charAt(0)) ? literal : "(?<![\\p{L}\\p{N}])" + literal;
  });
  return escaped.length ? new RegExp("(" + escaped.join("|") + ")", "giu") : null;
}

// `text` as HTML: escaped, with the query's words marked.
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
    if (hit > SNIPPET / 3) start = wordStart(text, hit - Math.floor(SNIPPET / 3), hit);
  }
  var end = Math.min(text.length, start + SNIPPET);
  var cut = (start > 0 ? "…" : "") + text.slice(start, end) + (end < text.length ? "…" : "");
  return "<p>" + marked(cut, regex) + "</p>";
}

// Where a snippet cut at `at` begins: in a word of letters (not Han, where every character
// stands alone), at the next word when one begins soon enough before the match at `hit`.
function wordStart(text, at, hit) {
  if (HAN.test(text.charAt(at - 1)) || !/[\p{L}\p{N}]/u.test(text.charAt(at - 1))) return at;
  var space = text.slice(at, Math.min(hit, at + WORD_STEP)).search(/\s/);
  return space === -1 ? at : at + space + 1;
}

// One result as Material's worker gives it: `row` is [location, title, text, game], plain text.
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

// Which query words a hit has, as Material shows them: the found ones go into its link's ?h=
// (the highlight on landing), the missing ones into its "Missing" line. A piece (one character
// of a longer Han run: 算 of 平票怎么算) is listed only when found: missing, it says nothing a
// reader could act on.
function termsOf(doc, query) {
  var terms = {};
  query.words.forEach(function (word, index) {
    var found = !!(doc && doc.terms[index]);
    if (found || !query.pieces.has(word)) terms[word] = found;
  });
  return terms;
}

function items(groups, query, regex, row) {
  var result = [];
  groups.forEach(function (docs, page) {
    var list = docs.map(function (doc) {
      return shown(row(page, doc.section), doc, termsOf(doc, query), regex, doc.section === 0);
    });
    var own = row(page, 0);
    if (own && !docs.some(function (doc) { return doc.section === 0; })) {
      // Material lists a page before its sections, and names the page with them.
      var any = {};
      docs.forEach(function (doc) { Object.assign(any, doc.terms); });
      list.push(shown(own, null, termsOf({ terms: any }, query), regex, true));
    }
    result.push(list);
  });
  return result;
}
