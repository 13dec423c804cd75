{% load static %}/* Kartenliga's service worker (issue 13), rendered by leagues/views/pwa.py.

   Network first, the cache only as a fallback: online, every page and file comes fresh from
   the server, so nobody ever scores on a stale sheet; offline, the meeting pages this phone
   opened (sheet and entry form, house rules, history), the start page and the static files
   come from the cache, and any other page shows the offline page.
   Hands entered offline are not kept here but in IndexedDB by static/js/outbox.js, which
   sends them from the page: an update of this worker cannot lose them. POSTs are never
   touched here. */
"use strict";

const VERSION = "{{ version }}";
const SHELL = "kartenliga-shell-" + VERSION;  // what this version needs; dropped with it
const PAGES = "kartenliga-pages";  // pages and files met online; kept across versions
const MAX_PAGES = 120;
const OFFLINE_URL = "{{ offline_url }}";
const STATIC_PREFIX = "{% get_static_prefix %}";
const SHELL_FILES = [
  OFFLINE_URL,
  "{{ manifest_url }}",
  "{% static 'css/kartenliga.css' %}",
  "{% static 'css/entry.css' %}",
  "{% static 'css/offline.css' %}",
  "{% static 'css/at-table.css' %}",
  "{% static 'vendor/htmx-2.0.11.min.js' %}",
  "{% static 'js/kartenliga.js' %}",
  "{% static 'js/hand-forms.js' %}",
  "{% static 'js/dk-entry.js' %}",
  "{% static 'js/race-entry.js' %}",
  "{% static 'js/hand-words.js' %}",
  "{% static 'js/outbox.js' %}",
  "{% static 'js/at-table.js' %}",
  "{% static 'js/sw-register.js' %}",
  "{% static 'img/favicon.svg' %}",
  "{% static 'icons/icon-192.png' %}",
];
// The pages kept for offline reading: "my leagues" (the app's start) and a meeting's sheet,
// house rules and history.
const KEPT_PAGES = /^\/(l\/[^/]+\/m\/\d+\/((house-rules|history)\/)?)?$/;

self.addEventListener("install", (event) => {
  event.waitUntil(
    caches.open(SHELL).then((cache) => cache.addAll(SHELL_FILES.map((url) => new Request(url, { cache: "reload" })))).then(() => self.skipWaiting())
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches.keys()
      .then((names) => Promise.all(names.filter((n) => n.startsWith("kartenliga-shell-") && n !== SHELL).map((n) => caches.delete(n))))
      .then(() => self.clients.claim())
  );
});

self.addEventListener("message", (event) => {
  // Logging out: the pages kept for this user go with the session.
  if (event.data && event.data.type === "forget-pages") event.waitUntil(caches.delete(PAGES));
});

function keep(request, response) {
  if (!response || !response.ok || response.redirected || response.type !== "basic") return;
  const copy = response.clone();
  caches.open(PAGES).then(async (cache) => {
    await cache.put(request, copy);
    const keys = await cache.keys();
    for (const old of keys.slice(0, Math.max(0, keys.length - MAX_PAGES))) await cache.delete(old);
  });
}

async function fromCache(request) {
  const options = { ignoreVary: true, ignoreSearch: false };
  return (await caches.match(request, { ...options, cacheName: PAGES })) || (await caches.match(request, { ...options, cacheName: SHELL }));
}

async function page(request) {
  const url = new URL(request.url);
  const path = url.pathname;
  try {
    const response = await fetch(request);
    if (KEPT_PAGES.test(path) && !url.search) keep(request, response);
    return response;
  } catch (error) {
    const cached = await fromCache(new Request(url.origin + path));
    return cached || (await caches.match(OFFLINE_URL, { ignoreVary: true, cacheName: SHELL })) || Response.error();
  }
}

async function file(request) {
  try {
    const response = await fetch(request);
    keep(request, response);
    return response;
  } catch (error) {
    return (await fromCache(request)) || Response.error();
  }
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.mode === "navigate") event.respondWith(page(request));
  else if (url.pathname.startsWith(STATIC_PREFIX) || url.pathname === "{{ manifest_url }}") event.respondWith(file(request));
});
