/* Hands entered without signal (issue 13): an outbox in IndexedDB, sent when the connection
   is back. No framework; the meeting page includes templates/pwa/outbox.html, whose
   <section data-outbox> carries the meeting, the user, the hand URL and the page's words.

   - Offline (navigator.onLine false), saving the hand form does not reach htmx's request:
     its fields, the hand number it was entered as (expected_hand) and its idempotency key go
     into the outbox; the sheet shows it at once as "not yet sent" (its figures "after sync":
     the browser does not replay; readme-notes/offline.md says why), and the form starts the
     next hand. A request that fails on the way (htmx:sendError) goes into the outbox too: the
     server may have saved it, and its idempotency key makes sending it again harmless.
   - Sync on page load and on the `online` event (Background Sync is not in every browser):
     the hands in the order entered, each to the same endpoint with its own key and number.
     200: sent. 409 (another phone entered that number meanwhile): the hand stays, marked,
     and the sync stops there. The card shows both versions side by side (the server
     describes them: views/pwa.py outbox_compare) and the scorekeeper chooses: keep it as the
     next hand (it and the hands after it renumbered from the sheet's next number), replace
     theirs with it (a correction of their hand at the version shown), or discard it (the
     same game). The choice is a record's `choice` and goes to the server in the queue's
     order, with the hand's key (views/pwa.py outbox_choice), so the evening's history says
     what was chosen, and a choice sent twice is carried out once. 400: the server's problems
     are shown; the hand stays until discarded or put back in the form. Nothing is ever
     dropped without a tap, nothing sent twice.
   - After a sync the table is fetched again from the server: its replay is the truth. */
"use strict";

(function () {
  var box = document.querySelector("[data-outbox]");
  if (!box || !window.indexedDB) return;
  var MEETING = box.dataset.outbox, USER = box.dataset.outboxUser, HAND_URL = box.dataset.handUrl;
  var COMPARE_URL = box.dataset.compareUrl, CHOICE_URL = box.dataset.choiceUrl;
  var T = box.dataset;  // the page's words, data-text-*
  var DB_NAME = "kartenliga-outbox", STORE = "hands";
  var syncing = false, lastAttempt = null, pending = 0;
  var compared = {}, comparing = {};  // the server's side-by-side of a conflict, by key and number

  function qa(root, sel) { return Array.prototype.slice.call(root.querySelectorAll(sel)); }
  function fill(text, values) { return text.replace(/\{(\w+)\}/g, function (m, k) { return values[k] !== undefined ? values[k] : m; }); }
  function newKey() {
    if (window.crypto && crypto.randomUUID) return crypto.randomUUID();
    var b = crypto.getRandomValues(new Uint8Array(16));
    b[6] = (b[6] & 15) | 64; b[8] = (b[8] & 63) | 128;
    var h = Array.prototype.map.call(b, function (x) { return (x + 256).toString(16).slice(1); }).join("");
    return h.slice(0, 8) + "-" + h.slice(8, 12) + "-" + h.slice(12, 16) + "-" + h.slice(16, 20) + "-" + h.slice(20);
  }

  /* --- IndexedDB: one store, records in the order entered (seq) -------------------------- */
  var dbPromise = null;
  function db() {
    if (!dbPromise) {
      dbPromise = new Promise(function (resolve, reject) {
        var open = indexedDB.open(DB_NAME, 1);
        open.onupgradeneeded = function () { open.result.createObjectStore(STORE, { keyPath: "seq", autoIncrement: true }); };
        open.onsuccess = function () { resolve(open.result); };
        open.onerror = function () { reject(open.error); };
      });
    }
    return dbPromise;
  }
  function tx(mode, work) {
    return db().then(function (d) {
      return new Promise(function (resolve, reject) {
        var t = d.transaction(STORE, mode), store = t.objectStore(STORE), out;
        out = work(store);
        t.oncomplete = function () { resolve(out && out.result !== undefined ? out.result : out); };
        t.onerror = function () { reject(t.error); };
      });
    });
  }
  function mine() {
    return tx("readonly", function (s) { return s.getAll(); }).then(function (all) {
      return all.filter(function (r) { return r.meeting === MEETING && r.user === USER; })
        .sort(function (a, b) { return a.seq - b.seq; });
    });
  }
  function put(record) { return tx("readwrite", function (s) { return s.put(record); }); }
  function remove(seq) { return tx("readwrite", function (s) { return s.delete(seq); }); }

  /* --- Entering offline --------------------------------------------------------------- */
  function handForm(elt) { return elt && elt.closest ? elt.closest("#hand-form") : null; }
  function fields(form) {
    var out = [];
    new FormData(form).forEach(function (value, name) { if (name !== "csrfmiddlewaretoken") out.push([name, String(value)]); });
    return out;
  }
  function labelOf(form, el) {
    var label = el.closest("label") || (el.id && form.querySelector("label[for='" + el.id + "']"));
    return label ? label.textContent.replace(/\s+/g, " ").trim() : "";
  }
  // The hand as the sheet's why view will say it once stored (hand-words.js: its game's
  // describe, with the words the form carries); a form without them: what was ticked and typed.
  function summary(form) {
    var said = window.kartenligaHandWords ? window.kartenligaHandWords(form) : null;
    if (said) return said.map(function (line) { return line[0] + ": " + line[1]; }).join(" · ");
    var parts = [];
    qa(form, "input, select").forEach(function (el) {
      if (!el.name || el.name === "csrfmiddlewaretoken" || el.name === "expected_hand" || el.name === "idempotency_key" || el.name === "sheet_mark") return;
      if (el.type === "checkbox" || el.type === "radio") { if (el.checked) parts.push(labelOf(form, el) || el.value); }
      else if (el.type === "hidden") { if (el.value && el.closest(".ann-list")) parts.push(el.parentNode.textContent.replace(/\s+/g, " ").trim() || el.value); }
      else if (el.tagName === "SELECT") { if (el.value) parts.push((labelOf(form, el) + " " + el.options[el.selectedIndex].text).trim()); }
      else if (el.value) parts.push((labelOf(form, el) + " " + el.value).trim());
    });
    var line = parts.filter(Boolean).join(" · ");
    return line.length > 140 ? line.slice(0, 139) + "…" : line;
  }
  function attempt(form) {
    return {
      meeting: MEETING, user: USER, fields: fields(form), summary: summary(form),
      number: parseInt(form.querySelector("[name=expected_hand]").value, 10),
      key: form.querySelector("[name=idempotency_key]").value || newKey(),
      state: "waiting", errors: [], entered: new Date().toISOString(),
    };
  }
  function queue(form, record) {
    if (!record.key) record.key = newKey();
    return mine().then(function (records) {
      // The same form sent twice (a retry, a double tap) is one hand.
      if (records.some(function (r) { return r.key === record.key; })) return;
      return put(record);
    }).then(function () {
      try { localStorage.removeItem("kartenliga:draft:" + form.dataset.draftKey); } catch (e) { /* none kept */ }
      nextForm(form, record.number + 1);
      return render();
    });
  }
  // The form for the hand after it: as the server first sent it, with the next number and a
  // fresh key. Who deals and sits out next, the browser cannot know: "after sync".
  function nextForm(form, number) {
    var fresh = null;
    var html = window.kartenligaPristineForm;
    if (html) {
      var holder = document.createElement("div");
      holder.innerHTML = html;
      fresh = holder.firstElementChild;
    }
    if (!fresh) { form.reset(); fresh = form; } else form.replaceWith(fresh);
    var old = parseInt(fresh.querySelector("[name=expected_hand]").value, 10);
    fresh.querySelector("[name=expected_hand]").value = number;
    fresh.querySelector("[name=idempotency_key]").value = newKey();
    renumber(fresh.querySelector("h2"), old, number);
    renumber(fresh.querySelector("button[type=submit]"), old, number);
    renumber(document.getElementById("next-title"), shownIn(document.getElementById("next-title")), number);
    qa(fresh, ".form-errors, .errorlist").forEach(function (e) { e.remove(); });
    qa(document, ".next-line").forEach(function (line) { line.textContent = T.textNextAfterSync; });
    qa(document, "[data-hand-next]").forEach(function (panel) { panel.classList.add("outbox-stale"); });
    if (fresh !== form && window.htmx) window.htmx.process(fresh);
  }
  // A page from the cache (a reload offline) shows the form as it was when cached: it
  // continues after the last hand waiting, with a key of its own.
  function followOutbox(records) {
    var form = document.getElementById("hand-form");
    if (!form || !records.length) return;
    var input = form.querySelector("[name=expected_hand]"), key = form.querySelector("[name=idempotency_key]");
    var shown = parseInt(input.value, 10), last = records[records.length - 1].number;
    if (records.some(function (r) { return r.key === key.value; })) key.value = newKey();
    if (navigator.onLine || shown > last) return;
    input.value = last + 1;
    renumber(form.querySelector("h2"), shown, last + 1);
    renumber(form.querySelector("button[type=submit]"), shown, last + 1);
    renumber(document.getElementById("next-title"), shownIn(document.getElementById("next-title")), last + 1);
    qa(document, ".next-line").forEach(function (line) { line.textContent = T.textNextAfterSync; });
  }
  function shownIn(el) {
    var m = el && el.textContent.match(/\d+/);
    return m ? parseInt(m[0], 10) : null;
  }
  function renumber(el, from, to) {
    if (!el || from === null || isNaN(from)) return;
    var walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    var re = new RegExp("(^|\\D)" + from + "(?!\\d)");
    while (walker.nextNode()) {
      var node = walker.currentNode;
      if (re.test(node.nodeValue)) { node.nodeValue = node.nodeValue.replace(re, "$1" + to); return; }
    }
  }

  document.addEventListener("htmx:beforeRequest", function (event) {
    var form = handForm(event.detail.elt);
    if (!form) return;
    lastAttempt = attempt(form);
    // Behind hands still waiting, a new one waits too: the hands reach the server in order.
    if (navigator.onLine && !pending) return;
    event.preventDefault();
    queue(form, lastAttempt).then(sync);
  });
  // Online by the browser's word, yet the request never got an answer (a dead hotspot).
  document.addEventListener("htmx:sendError", function (event) {
    var form = handForm(event.detail.elt);
    if (!form || !lastAttempt) return;
    queue(form, lastAttempt);
  });
  // The form as the server sent it, to start the next hand from it (never one with an answer
  // to a conflict or problems in it).
  document.addEventListener("htmx:beforeSwap", function (event) {
    var xhr = event.detail.xhr;
    if (!xhr || xhr.status !== 200) return;
    var doc = new DOMParser().parseFromString(xhr.responseText, "text/html");
    var form = doc.getElementById("hand-form");
    if (form) window.kartenligaPristineForm = form.outerHTML;
  });

  /* --- Showing the outbox ------------------------------------------------------------ */
  function el(tag, attrs, text) {
    var e = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) { e.setAttribute(k, attrs[k]); });
    if (text !== undefined) e.textContent = text;
    return e;
  }
  function rowsOnSheet(records) {
    qa(document, "[data-outbox-row], table.outbox-sheet").forEach(function (r) { r.remove(); });
    var sheet = document.getElementById("sheet");
    if (!sheet) return;
    // "No hands yet" is not true of a sheet with hands waiting.
    qa(sheet, ":scope > p.muted").forEach(function (p) { p.hidden = records.length > 0; });
    if (!records.length) return;
    var tbody = sheet.querySelector("table.sheet tbody");
    var width = tbody ? qa(sheet, "table.sheet thead th").length - 1 : 1;
    if (!tbody) {
      var table = el("table", { class: "sheet outbox-sheet" });
      tbody = el("tbody");
      table.appendChild(tbody);
      var title = sheet.querySelector("h2");
      title.parentNode.insertBefore(table, title.nextSibling);
    }
    records.forEach(function (r) {
      var tr = el("tr", { class: "outbox-row outbox-" + r.state, "data-outbox-row": r.key, id: "outbox-" + r.key });
      tr.appendChild(el("th", { scope: "row" }, String(r.number)));
      var td = el("td", { colspan: String(Math.max(1, width)) });
      td.appendChild(el("span", { class: "badge pending" }, r.state === "waiting" ? T.textNotSent : r.state === "conflict" ? T.textConflictBadge : T.textRefusedBadge));
      td.appendChild(document.createTextNode(" "));
      td.appendChild(el("span", { class: "outbox-summary" }, r.summary || ""));
      td.appendChild(el("span", { class: "after-sync muted" }, " · " + T.textAfterSync));
      tr.appendChild(td);
      tbody.appendChild(tr);
    });
  }
  function panel(records) {
    box.textContent = "";
    box.hidden = false;
    var status = el("p", { class: "outbox-status " + (navigator.onLine ? "is-online" : "is-offline"), "data-outbox-status": navigator.onLine ? "online" : "offline" });
    status.appendChild(el("span", { class: "outbox-dot", "aria-hidden": "true" }));
    status.appendChild(el("span", {}, navigator.onLine ? T.textOnline : T.textOffline));
    if (records.length) {
      status.appendChild(el("span", { class: "outbox-count", "data-outbox-count": String(records.length) },
        " · " + fill(records.length === 1 ? T.textWaitingOne : T.textWaitingMany, { n: records.length })));
    }
    if (syncing) status.appendChild(el("span", {}, " · " + T.textSending));
    box.appendChild(status);
    var stuck = records.filter(function (r) { return r.state !== "waiting"; })[0];
    if (!stuck) return;
    var card = el("div", { class: "alert alert-conflict outbox-choice", role: "alert", "data-outbox-choice": stuck.key });
    var versions = null;
    if (stuck.state === "conflict") {
      card.appendChild(el("strong", {}, fill(T.textConflict, { number: stuck.number })));
      var help = el("p", {}, T.textConflictHelp + " ");
      help.appendChild(el("a", { href: "#hand-" + stuck.number }, fill(T.textTheirs, { number: stuck.number })));
      card.appendChild(help);
      versions = el("div", { class: "outbox-versions" });
      var shown = compared[stuck.key + ":" + stuck.number];
      if (shown) versions.innerHTML = shown;  // the server's own page part, escaped there
      else if (shown === false) versions.appendChild(el("p", { class: "outbox-mine" }, T.textYours + " " + (stuck.summary || "")));
      else { versions.appendChild(el("p", { class: "muted" }, T.textComparing)); compare(stuck); }
      card.appendChild(versions);
    } else {
      card.appendChild(el("strong", {}, fill(T.textRefused, { number: stuck.number })));
      var list = el("ul");
      stuck.errors.forEach(function (m) { list.appendChild(el("li", {}, m)); });
      card.appendChild(list);
    }
    if (!versions) card.appendChild(el("p", { class: "outbox-mine" }, T.textYours + " " + (stuck.summary || "")));
    var actions = el("p", { class: "actions" });
    if (stuck.state === "conflict") {
      actions.appendChild(el("button", { type: "button", "data-outbox-keep": stuck.key }, T.textKeep));
      // Only once their hand (and the version of it) is on the card: that is what is replaced.
      var theirs = versions.querySelector("[data-theirs-hand]");
      var replace = el("button", { type: "button", class: "secondary", "data-outbox-replace": stuck.key }, T.textReplace);
      if (!theirs) replace.disabled = true;
      actions.appendChild(replace);
    } else actions.appendChild(el("button", { type: "button", "data-outbox-edit": stuck.key }, T.textPutBack));
    actions.appendChild(el("button", { type: "button", class: "secondary", "data-outbox-discard": stuck.key }, T.textDiscard));
    card.appendChild(actions);
    box.appendChild(card);
    inSight(card, stuck.key + ":" + stuck.number + ":" + (versions && versions.querySelector(".outbox-compare") ? "both" : ""));
  }
  // The card sits above the form, where the phone is seldom scrolled to when the connection
  // comes back: it is brought into sight once when it appears and once more when both
  // versions are on it (below the sticky top bar: scroll-padding-top), never again after.
  var sighted = {};
  function inSight(card, id) {
    if (sighted[id]) return;
    sighted[id] = true;
    var bar = document.querySelector(".topbar");
    var top = bar ? bar.getBoundingClientRect().bottom : 0, r = card.getBoundingClientRect();
    if (r.top < top || r.bottom > window.innerHeight) card.scrollIntoView({ block: "start" });
  }
  function render() {
    return mine().then(function (records) {
      pending = records.length;
      panel(records); rowsOnSheet(records); followOutbox(records);
      return records;
    });
  }

  /* --- Sending --------------------------------------------------------------------- */
  function csrf() {
    var input = document.querySelector("[name=csrfmiddlewaretoken]");
    if (input) return input.value;
    try { return JSON.parse(document.body.getAttribute("hx-headers"))["X-CSRFToken"]; } catch (e) { return ""; }
  }
  function problems(doc) {
    return qa(doc, ".errorlist li, .alert-error li, .alert-error strong").map(function (e) { return e.textContent.trim(); })
      .filter(function (m, i, all) { return m && all.indexOf(m) === i; });
  }
  // The hand's own fields, for the server's form reading of its game.
  function handFields(record) {
    var body = new URLSearchParams();
    record.fields.forEach(function (f) { if (f[0] !== "expected_hand" && f[0] !== "idempotency_key") body.append(f[0], f[1]); });
    return body;
  }
  // A hand is sent as entered, or with the scorekeeper's choice after a conflict.
  function send(record) {
    var body = handFields(record);
    body.append("expected_hand", String(record.number));
    body.append("idempotency_key", record.key);
    body.append("csrfmiddlewaretoken", csrf());
    if (record.choice) {
      body.append("choice", record.choice);
      body.append("entered_as", String(record.enteredAs || record.number));
      if (record.choice === "replace") { body.append("hand", String(record.hand)); body.append("version", String(record.version)); }
    }
    return fetch(record.choice ? CHOICE_URL : HAND_URL, {
      method: "POST", body: body, credentials: "same-origin",
      headers: { "HX-Request": "true", "X-CSRFToken": csrf() },
    });
  }
  function sync() {
    if (syncing) return Promise.resolve();
    if (!navigator.onLine) return render();
    syncing = true;
    var sent = 0, changed = false;
    function step() {
      return mine().then(function (records) {
        var next = records[0];
        if (!next || next.state !== "waiting") return;
        return send(next).then(function (response) {
          if (response.redirected) return;  // logged out: kept until the scorekeeper logs in again
          if (response.ok) { sent += 1; changed = true; return remove(next.seq).then(step); }
          if (response.status === 409 || response.status === 400) {
            return response.text().then(function (html) {
              var doc = new DOMParser().parseFromString(html, "text/html");
              next.state = response.status === 409 ? "conflict" : "refused";
              next.errors = response.status === 400 ? problems(doc) : [];
              // A choice the sheet overtook (the number taken again, their hand changed since
              // it was shown) is asked again, beside the sheet as it is now.
              delete next.choice;
              delete compared[next.key + ":" + next.number];
              changed = true;
              return put(next);
            });
          }
          // 5xx, 403: kept, tried again on the next load or reconnect.
        }, function () { /* still no connection: kept */ });
      });
    }
    return render().then(step).then(function () {
      syncing = false;
      if (changed) keepPage();
      return changed ? refresh() : render();
    }, function () { syncing = false; return render(); });
  }
  // The table as the server replays it now, swapped in by htmx so every script sees it.
  function refresh() {
    if (!window.htmx || !document.getElementById("at-table")) return render();
    return Promise.resolve(window.htmx.ajax("GET", window.location.pathname, { target: "#at-table", select: "#at-table", swap: "outerHTML" }))
      .then(function () {
        var form = document.getElementById("hand-form");
        if (form) window.kartenligaPristineForm = form.outerHTML;
        return render();
      }, render);
  }

  /* --- The scorekeeper's choice --------------------------------------------------------- */
  function sheetNext() {
    var input = document.querySelector("#hand-form [name=expected_hand]");
    return input ? parseInt(input.value, 10) : null;
  }
  function keep(key) {
    // Renumbered from the sheet as the server shows it now; the hands entered after it follow.
    return refresh().then(mine).then(function (records) {
      var at = records.findIndex(function (r) { return r.key === key; });
      var next = sheetNext();
      if (at < 0 || next === null) return;
      var shift = next - records[at].number;
      return Promise.all(records.slice(at).map(function (r) {
        if (r.key === key) { r.choice = "keep"; r.enteredAs = r.enteredAs || r.number; }
        r.number += shift; r.state = "waiting"; r.errors = [];
        return put(r);
      }));
    }).then(sync);
  }
  // Theirs is wrong: the waiting hand takes its place, at the version shown beside it.
  function replace(key) {
    return mine().then(function (records) {
      var r = records.filter(function (x) { return x.key === key; })[0];
      var theirs = box.querySelector("[data-outbox-choice='" + key + "'] [data-theirs-hand]");
      if (!r || !theirs) return;
      r.choice = "replace"; r.enteredAs = r.enteredAs || r.number; r.state = "waiting"; r.errors = [];
      r.hand = parseInt(theirs.dataset.theirsHand, 10);
      r.version = parseInt(theirs.dataset.theirsVersion, 10);
      return put(r);
    }).then(sync);
  }
  // The same game as theirs: a hand whose number was taken is discarded on the server, so
  // that the history shows it and who discarded it; one the server refused goes here.
  function discard(key) {
    return mine().then(function (records) {
      var r = records.filter(function (x) { return x.key === key; })[0];
      if (!r) return null;
      if (r.state !== "conflict") return remove(r.seq);
      r.choice = "discard"; r.enteredAs = r.enteredAs || r.number; r.state = "waiting"; r.errors = [];
      return put(r);
    }).then(sync);
  }
  // Both versions side by side, as the server describes them (it reads the waiting hand's
  // fields as its form would); shown at the next render.
  function compare(record) {
    var id = record.key + ":" + record.number;
    if (comparing[id] || !navigator.onLine || !COMPARE_URL) return;
    comparing[id] = true;
    var query = handFields(record);
    query.append("entered_as", String(record.number));
    fetch(COMPARE_URL + "?" + query.toString(), { credentials: "same-origin", headers: { "HX-Request": "true" } })
      .then(function (response) { return response.ok && !response.redirected ? response.text() : null; })
      .then(function (html) {
        comparing[id] = false;
        // Not to be had (a server error): the card says what the browser knows of it.
        compared[id] = html || false;
        render();
      }, function () { comparing[id] = false; });
  }
  // A hand the server refused: back into the form of the next hand to be put right.
  function putBack(key) {
    return refresh().then(mine).then(function (records) {
      var r = records.filter(function (x) { return x.key === key; })[0];
      var form = document.getElementById("hand-form");
      if (!r || !form) return;
      var ticked = {};
      r.fields.forEach(function (f) { ticked[f[0] + "\u0000" + f[1]] = true; });
      qa(form, "input, select, textarea").forEach(function (input) {
        if (!input.name || input.name === "csrfmiddlewaretoken" || input.name === "expected_hand") return;
        if (input.type === "checkbox" || input.type === "radio") input.checked = !!ticked[input.name + "\u0000" + input.value];
        else if (input.name !== "ann") {
          var f = r.fields.filter(function (x) { return x[0] === input.name; })[0];
          if (f) input.value = f[1];
        }
      });
      r.fields.forEach(function (f) {
        if (f[0] !== "ann") return;
        var b = form.querySelector(".dk-announce [data-ann=\"" + f[1].replace(/"/g, "") + "\"]");
        if (b) b.click();
      });
      form.dispatchEvent(new Event("change", { bubbles: true }));
      return remove(r.seq);
    }).then(render);
  }
  box.addEventListener("click", function (event) {
    var b = event.target.closest("button");
    if (!b) return;
    b.disabled = true;
    if (b.dataset.outboxKeep) keep(b.dataset.outboxKeep);
    else if (b.dataset.outboxReplace) replace(b.dataset.outboxReplace);
    else if (b.dataset.outboxDiscard) discard(b.dataset.outboxDiscard);
    else if (b.dataset.outboxEdit) putBack(b.dataset.outboxEdit);
  });

  // The copy of this page the service worker keeps is the one opened last; after a hand saved
  // online (or a sync) it is fetched again, so that a reload offline later starts from the
  // sheet as it is, not from the evening's start (its hands would all come back as taken).
  var keepTimer = null;
  function keepPage() {
    if (!window.caches || !navigator.serviceWorker || !navigator.serviceWorker.controller) return;
    clearTimeout(keepTimer);
    keepTimer = setTimeout(function () {
      var path = window.location.pathname;
      fetch(path, { credentials: "same-origin" }).then(function (response) {
        if (!response.ok || response.redirected) return;
        return caches.open("kartenliga-pages").then(function (cache) { return cache.put(path, response); });
      }).catch(function () { /* offline again: the older copy stays */ });
    }, 300);
  }
  // (Told by the request's path: the form that sent it may have been swapped out already,
  // htmx then names another element.)
  document.addEventListener("htmx:afterRequest", function (event) {
    var info = event.detail.pathInfo || {};
    if (event.detail.successful && (info.requestPath || "").split("?")[0] === HAND_URL) keepPage();
  });

  window.addEventListener("online", sync);
  // A send that failed while the browser thought it was online (a hotspot without uplink)
  // fires no "online" event later: try again now and then while hands wait.
  setInterval(function () { if (pending && navigator.onLine) sync(); }, 30000);
  window.addEventListener("offline", render);
  // htmx swapped the table (a hand saved online): the waiting hands go back under the sheet.
  document.addEventListener("htmx:afterSettle", function (event) {
    if (event.detail.elt && event.detail.elt.id === "at-table" || document.getElementById("at-table") && !syncing) render();
  });
  window.kartenligaOutbox = { sync: sync, list: mine };
  if (!window.kartenligaPristineForm) {
    var form = document.getElementById("hand-form");
    if (form) window.kartenligaPristineForm = form.outerHTML;
  }
  sync();
})();
