/* FloorDesk dealer tablet: the service worker (served by dealer.views.offline at /deal/sw.js,
 * scope /deal/). It keeps the last copy of each tablet page opened, and the static files those
 * pages use, so that a reload while the Wi-Fi is down still shows the tablet: its queue of taps
 * (localStorage, static/js/tablet.js) is drawn on it and sent when the service answers again.
 *
 * - A tablet page (/deal/table/<pk>/) is read from the network first; a 200 answer that is the
 *   page itself (not the sign-in page a redirect leads to) replaces the stored copy. Without an
 *   answer (no network, or 502/503/504: the proxy or the service's outage page), the stored
 *   copy is shown.
 * - A static file (/static/...) is read from the network first, and stored; the stored copy
 *   without an answer.
 * - Anything else (the writes, the poll, the sheets) is not touched: it goes to the network.
 * - A tablet page answered with a redirect (signed out) empties the store: a signed-out tablet
 *   shows no table.
 */
"use strict";

var STORE = "floordesk-tablet-v1";
var TABLET_PAGE = /^\/deal\/table\/\d+\/$/;

self.addEventListener("install", function () { self.skipWaiting(); });

self.addEventListener("activate", function (event) {
  event.waitUntil(caches.keys().then(function (names) {
    return Promise.all(names.filter(function (name) {
      return name.indexOf("floordesk-tablet-") === 0 && name !== STORE;
    }).map(function (name) { return caches.delete(name); }));
  }).then(function () { return self.clients.claim(); }));
});

var NO_ANSWER = [502, 503, 504]; // the proxy's "no answer", the service's outage page

function stored(request) {
  return caches.open(STORE).then(function (store) { return store.match(request.url); });
}

function networkFirst(request, keep) {
  return fetch(request).then(function (response) {
    if (keep(response)) {
      var copy = response.clone();
      caches.open(STORE).then(function (store) { store.put(request.url, copy); });
    } else if (response.redirected || response.type === "opaqueredirect") {
      caches.delete(STORE);
    } else if (NO_ANSWER.indexOf(response.status) >= 0) {
      return stored(request).then(function (copy) { return copy || response; });
    }
    return response;
  }, function (error) {
    return stored(request).then(function (copy) { if (copy) return copy; throw error; });
  });
}

function plainOk(response) {
  return response.ok && response.type === "basic" && !response.redirected;
}

self.addEventListener("fetch", function (event) {
  var request = event.request;
  if (request.method !== "GET") return;
  var url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.mode === "navigate" && TABLET_PAGE.test(url.pathname)) {
    event.respondWith(networkFirst(request, plainOk));
  } else if (url.pathname.indexOf("/static/") === 0) {
    event.respondWith(networkFirst(request, plainOk));
  }
});
