// The service worker, served at /sw.js by games/web/views/pwa.py, which puts SITE before this
// code: the version of the static files, their addresses, the offline page's, the icon.
// It keeps the site's static files in a cache named after their version and serves them from
// there. A page is always asked of the network; only when the network is gone does the offline
// page (kept in the player's language) answer instead. Nothing else is ever kept: no page, no
// board, no API answer, nothing of a player's (docs/OPERATING.md, "The installed app").
/* global SITE */
"use strict";

var PREFIX = "euchre-static-";
var CACHE = PREFIX + SITE.version;

// The offline page, asked for in ``language`` (or in the player's, from the cookie), kept
// under its own address; resolves to the language it is kept in.
function keepOffline(cache, language) {
  var url = SITE.offline + (language ? "?lang=" + encodeURIComponent(language) : "");
  return fetch(url, {cache: "reload", credentials: "same-origin"}).then(function (response) {
    if (!response.ok) return cache.match(SITE.offline);
    return cache.put(SITE.offline, response.clone()).then(function () { return response; });
  }).then(function (kept) {
    return kept ? kept.headers.get("Content-Language") : null;
  });
}

self.addEventListener("install", function (event) {
  event.waitUntil(caches.open(CACHE).then(function (cache) {
    // Past the browser's http cache: a file kept must be this deploy's.
    var files = SITE.files.map(function (url) { return new Request(url, {cache: "reload"}); });
    return cache.addAll(files).then(function () { return keepOffline(cache, null); });
  }).then(function () { return self.skipWaiting(); }));
});

// An earlier deploy's cache goes as this worker takes over.
self.addEventListener("activate", function (event) {
  event.waitUntil(caches.keys().then(function (names) {
    return Promise.all(names.filter(function (name) {
      return name.indexOf(PREFIX) === 0 && name !== CACHE;
    }).map(function (name) { return caches.delete(name); }));
  }).then(function () { return self.clients.claim(); }));
});

// Each page says its language (static/js/pwa.js): the offline page is kept again when the
// player changed language, and the page is told which one is kept.
self.addEventListener("message", function (event) {
  var data = event.data || {};
  if (data.type !== "language") return;
  event.waitUntil(caches.open(CACHE).then(function (cache) {
    return cache.match(SITE.offline).then(function (kept) {
      var language = kept && kept.headers.get("Content-Language");
      return language === data.language ? language : keepOffline(cache, data.language);
    });
  }).then(function (language) {
    if (event.source) event.source.postMessage({type: "offline-ready", language: language});
  }));
});

function offlinePage() {
  return caches.open(CACHE).then(function (cache) {
    return cache.match(SITE.offline);
  }).then(function (page) { return page || Response.error(); });
}

self.addEventListener("fetch", function (event) {
  var request = event.request;
  if (request.method !== "GET") return;
  var url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.mode === "navigate") {
    event.respondWith(fetch(request).catch(offlinePage));
    return;
  }
  if (SITE.files.indexOf(url.pathname) === -1) return;  // the network's, never kept
  event.respondWith(caches.open(CACHE).then(function (cache) {
    return cache.match(url.pathname);
  }).then(function (kept) { return kept || fetch(request); }));
});

// Web Push (games/services' notifications, sent by the task worker): the payload is JSON,
// {"title", "body", "url" (a path of this site), "tag"}.
function sameSite(path) {
  try {
    var url = new URL(path || "/", self.location.origin);
    if (url.origin === self.location.origin) return url.href;
  } catch (error) { /* not an address: the site's front page */ }
  return self.location.origin + "/";
}

self.addEventListener("push", function (event) {
  var data = {};
  try {
    data = event.data ? event.data.json() : {};
  } catch (error) {
    data = {};
  }
  event.waitUntil(self.registration.showNotification(String(data.title || ""), {
    body: String(data.body || ""),
    tag: data.tag ? String(data.tag) : undefined,
    renotify: false,
    icon: SITE.icon,
    data: {url: sameSite(data.url)},
  }));
});

// A click: the window already at that page comes forward; else a window of the site goes
// there; else a new one opens.
self.addEventListener("notificationclick", function (event) {
  event.notification.close();
  var url = sameSite(event.notification.data && event.notification.data.url);
  event.waitUntil(self.clients.matchAll({type: "window", includeUncontrolled: true})
    .then(function (windows) {
      var same = windows.filter(function (client) { return client.url.split("#")[0] === url; });
      if (same.length) return same[0].focus();
      var site = windows.filter(function (client) {
        return new URL(client.url).origin === self.location.origin && "navigate" in client;
      });
      if (!site.length) return self.clients.openWindow(url);
      return site[0].focus().then(function (client) {
        return client.navigate(url);
      }).catch(function () { return self.clients.openWindow(url); });
    }));
});
