/* On every page (issue 13): registers the service worker (templates/pwa/sw.js, served at
   /sw.js so it controls the whole site), and keeps the page honest without a connection:
   what needs the server (a form that posts, other than the hand form, which has its outbox;
   a link to a page this phone never kept) is switched off while offline, and on again online.
   Loaded first of the page's scripts: it keeps the hand form as the server sent it, before
   any script fills in a half-entered hand, for static/js/outbox.js to start the next hand. */
"use strict";

(function () {
  var me = document.currentScript;
  var form = document.getElementById("hand-form");
  if (form) window.kartenligaPristineForm = form.outerHTML;

  if ("serviceWorker" in navigator && window.isSecureContext && me && me.dataset.sw) {
    navigator.serviceWorker.register(me.dataset.sw, { scope: "/", updateViaCache: "none" }).catch(function () {
      /* no worker (a private window): the site works online as before */
    });
  }
  if (me && me.dataset.css) {
    var link = document.createElement("link");
    link.rel = "stylesheet";
    link.href = me.dataset.css;
    document.head.appendChild(link);
  }
  var NEEDS = (me && me.dataset.needsConnection) || "";

  function qa(root, sel) { return Array.prototype.slice.call(root.querySelectorAll(sel)); }
  function kept(url) {
    if (!window.caches) return Promise.resolve(false);
    return caches.match(url, { ignoreVary: true, ignoreSearch: false }).then(function (r) { return !!r; }, function () { return false; });
  }
  function offlineState() {
    var off = !navigator.onLine;
    document.documentElement.classList.toggle("is-offline", off);
    qa(document, "form").forEach(function (f) {
      if (f.id === "hand-form" || (f.getAttribute("method") || "get").toLowerCase() !== "post") return;
      qa(f, "button, input[type=submit]").forEach(function (b) {
        if (off && !b.disabled) { b.disabled = true; b.dataset.offlineOff = "1"; b.title = NEEDS; }
        else if (!off && b.dataset.offlineOff) { b.disabled = false; delete b.dataset.offlineOff; b.removeAttribute("title"); }
      });
    });
    qa(document, "a[href]").forEach(function (a) {
      var href = a.getAttribute("href");
      if (!href || href.charAt(0) === "#" || a.origin !== location.origin) return;
      if (!off) { a.classList.remove("offline-unavailable"); a.removeAttribute("aria-disabled"); return; }
      kept(a.href.split("#")[0]).then(function (yes) {
        if (yes || navigator.onLine) return;
        a.classList.add("offline-unavailable");
        a.setAttribute("aria-disabled", "true");
        a.title = NEEDS;
      });
    });
  }
  // A tap on something switched off offline does nothing (htmx's hx-get links included).
  document.addEventListener("click", function (event) {
    var a = event.target.closest && event.target.closest("a.offline-unavailable");
    if (a && !navigator.onLine) { event.preventDefault(); event.stopImmediatePropagation(); }
  }, true);
  document.addEventListener("htmx:beforeRequest", function (event) {
    var elt = event.detail.elt;
    if (!navigator.onLine && elt && elt.closest && elt.closest("a.offline-unavailable")) event.preventDefault();
  });
  window.addEventListener("online", offlineState);
  window.addEventListener("offline", offlineState);
  document.addEventListener("htmx:load", function () { if (!navigator.onLine) offlineState(); });

  // Logging out: the pages kept for offline reading go with the session.
  document.addEventListener("submit", function (event) {
    var action = event.target.getAttribute("action") || "";
    if (/\/logout\/?$/.test(action) && navigator.serviceWorker && navigator.serviceWorker.controller) {
      navigator.serviceWorker.controller.postMessage({ type: "forget-pages" });
    }
  });

  // The offline page lists the pages this phone kept.
  function listKept() {
    var list = document.querySelector("[data-offline-pages]");
    if (!list || !window.caches) return;
    caches.open("kartenliga-pages").then(function (cache) {
      return cache.keys().then(function (requests) {
        var pages = requests.filter(function (r) { return /\/$/.test(new URL(r.url).pathname); });
        return Promise.all(pages.map(function (r) {
          return cache.match(r).then(function (res) { return res.text(); }).then(function (html) {
            var title = new DOMParser().parseFromString(html, "text/html").title || r.url;
            return { url: r.url, title: title };
          });
        }));
      });
    }).then(function (pages) {
      pages.forEach(function (p) {
        var li = document.createElement("li"), a = document.createElement("a");
        a.href = p.url; a.textContent = p.title;
        li.appendChild(a); list.appendChild(li);
      });
    }, function () { /* nothing kept */ });
  }

  function start() { offlineState(); listKept(); }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start); else start();
})();
