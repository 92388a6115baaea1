/* The phone page's clock (templates/public/standings.html): clock.js keeps the level, the time
 * and the next level current; this script shows the blinds and the ante apart and counts down
 * to the next break, from the same feed (its "clock:render" event, every quarter second), written
 * as clock.js writes a time (its FloorClock.countdown). */
(function () {
  "use strict";

  var countdown = window.FloorClock.countdown; // static/js/clock.js, loaded first

  function set(root, selector, text) {
    var el = root.querySelector(selector);
    if (el && el.textContent !== text) el.textContent = text;
  }

  function render(root, detail) {
    var state = detail.state;
    var parts = (state.blinds || "").split(", ");
    set(root, "[data-phone-blinds]", parts[0] || "");
    var ante = parts.slice(1).join(", ");
    set(root, "[data-phone-ante]", ante ? " \u00b7 " + ante.charAt(0).toUpperCase() + ante.slice(1) : "");
    var line = root.querySelector("[data-phone-break-line]");
    if (!line) return;
    var left = null;
    if (state.next_break_at) {
      left = (Date.parse(state.next_break_at) - detail.now) / 1000;
    } else if (detail.state.seconds_to_next_break != null && !state.ends_at) {
      left = detail.state.seconds_to_next_break; // the clock stands: the time it will take
    }
    line.hidden = left == null || (state.level && state.level.is_break);
    if (left != null) set(root, "[data-phone-break]", countdown(Math.floor(left)));
  }

  document.addEventListener("DOMContentLoaded", function () {
    document.querySelectorAll("[data-phone-clock]").forEach(function (root) {
      root.addEventListener("clock:render", function (event) { render(root, event.detail); });
    });
  });
})();
