/* Loaded on every page shown to someone not signed in (base.html): after a sign-out, or a
 * session that ran out, this device keeps no copy of a dealer's tablet page for offline use
 * (the service worker's store, templates/dealer/tablet_sw.js, whose names begin with
 * "floordesk-tablet-"). The tablet's queue of unsent taps (localStorage) is kept: the next
 * dealer of that table sends it, and the server checks each tap as any other. */
(function () {
  "use strict";
  if (!window.caches) return;
  caches.keys().then(function (names) {
    names.forEach(function (name) {
      if (name.indexOf("floordesk-tablet-") === 0) caches.delete(name);
    });
  });
})();
