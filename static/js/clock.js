/* FloorDesk clock: counts a level down in the browser and keeps it in step with the server.
 *
 * Each [data-clock] element holds its payload in a <script type="application/json"> child
 * (the clock feed, as /api/tournaments/<id>/clock/ answers it). While the clock runs the payload has `ends_at`;
 * standing still (paused, not started) it has `remaining_seconds`. The browser's clock may be wrong, so
 * the countdown is corrected by the server's time given in data-server-now (ms since the epoch).
 * With data-clock-url the element polls that URL with If-None-Match: 304 means nothing changed.
 *
 * The time written as a clock writes it is this file's, for the pages' other scripts too
 * (screen.js, phone.js): `window.FloorClock.countdown(seconds)` and `FloorClock.pad(n)`, and so
 * is a poll with an ETag (`FloorClock.fetchChanged(url, etag)`: the screen's board polls so).
 * Each page loads clock.js first (templates/base.html), so they find it.
 */
(function () {
  "use strict";

  var clocks = [];

  function pad(n) { return n < 10 ? "0" + n : String(n); }

  // Whole seconds as "m:ss", or "h:mm:ss" from an hour; the caller rounds (up while a level
  // counts down, so that 0:00 is its end; down for time past it).
  function countdown(seconds) {
    seconds = Math.max(0, seconds);
    var h = Math.floor(seconds / 3600);
    var m = Math.floor((seconds % 3600) / 60);
    var s = seconds % 60;
    return h ? h + ":" + pad(m) + ":" + pad(s) : m + ":" + pad(s);
  }

  // A poll of a feed with its ETag: the server answers 304 while it has not changed.
  function fetchChanged(url, etag) {
    var headers = { Accept: "application/json" };
    if (etag) headers["If-None-Match"] = etag;
    return fetch(url, { headers: headers, cache: "no-store", credentials: "same-origin" });
  }

  window.FloorClock = { countdown: countdown, pad: pad, fetchChanged: fetchChanged };

  function number(value) {
    var n = Number(value);
    return isNaN(n) ? String(value) : n.toLocaleString("en-US", { maximumFractionDigits: 2 });
  }

  function statusText(state) {
    if (state.finished) return "Finished";
    if (state.hand_for_hand) return "Hand for hand"; // RP-8: stopped, but not a pause
    if (state.status === "paused") return "Paused";
    if (state.status === "not_started") return "Not started";
    return "";
  }

  function Clock(root) {
    this.root = root;
    this.state = JSON.parse(root.querySelector("script[type='application/json']").textContent);
    this.skew = Number(root.dataset.serverNow || Date.now()) - Date.now();
    this.url = root.dataset.clockUrl || "";
    this.pollMs = 1000 * Number(root.dataset.pollSeconds || 5);
    this.etag = null;
    this.lastPoll = Date.now();
    this.fetching = false;
  }

  Clock.prototype.secondsLeft = function () {
    var state = this.state;
    if (state.ends_at) {
      return (Date.parse(state.ends_at) - (Date.now() + this.skew)) / 1000;
    }
    return state.remaining_seconds == null ? 0 : state.remaining_seconds;
  };

  Clock.prototype.render = function () {
    var state = this.state;
    var root = this.root;
    var left = this.secondsLeft();
    var time = root.querySelector("[data-clock-time]");
    var overtime = state.ends_at && left <= 0 && state.is_last_level;
    if (time) {
      time.textContent = overtime ? "+" + countdown(Math.floor(-left)) : countdown(Math.ceil(left));
      time.classList.toggle("is-overtime", Boolean(overtime));
      time.classList.toggle("is-low", Boolean(state.ends_at && left > 0 && left <= 60));
      time.classList.toggle("is-still", !state.ends_at);
    }
    root.querySelectorAll("[data-clock-field]").forEach(function (el) {
      var value = state[el.dataset.clockField];
      if (el.dataset.clockField === "next_blinds" && !value) value = "last level";
      el.textContent = value == null ? "" : value;
    });
    root.querySelectorAll("[data-clock-number]").forEach(function (el) {
      el.textContent = number(state[el.dataset.clockNumber]);
    });
    var status = root.querySelector("[data-clock-status]");
    if (status) status.textContent = statusText(state);
    root.classList.toggle("is-break", Boolean(state.level && state.level.is_break));
    // For a page that shows more than the clock (static/js/screen.js): the state and the time.
    root.dispatchEvent(new CustomEvent("clock:render", {
      detail: { state: state, secondsLeft: left, now: Date.now() + this.skew }
    }));
    // A level just ended: ask the server for the next one now rather than at the next poll.
    var due = state.ends_at && left <= 0 && !state.is_last_level;
    if (this.url && (due ? Date.now() - this.lastPoll > 1500 : Date.now() - this.lastPoll > this.pollMs)) {
      this.poll();
    }
  };

  Clock.prototype.poll = function () {
    var self = this;
    if (self.fetching) return;
    self.fetching = true;
    self.lastPoll = Date.now();
    fetchChanged(self.url, self.etag)
      .then(function (response) {
        var date = Date.parse(response.headers.get("Date") || "");
        if (!isNaN(date) && Math.abs(date - (Date.now() + self.skew)) > 2000) {
          self.skew = date - Date.now(); // only a coarse correction: Date has whole seconds
        }
        if (response.status === 304 || !response.ok) return null;
        self.etag = response.headers.get("ETag");
        return response.json();
      })
      .then(function (state) { if (state) self.state = state; })
      .catch(function () { /* offline: keep counting with what we have */ })
      .then(function () { self.fetching = false; self.render(); });
  };

  function start(scope) {
    (scope || document).querySelectorAll("[data-clock]").forEach(function (root) {
      if (root.dataset.clockStarted) return;
      root.dataset.clockStarted = "1";
      var clock = new Clock(root);
      clocks.push(clock);
      clock.render();
    });
  }

  function tick() {
    clocks = clocks.filter(function (clock) { return clock.root.isConnected; });
    clocks.forEach(function (clock) { clock.render(); });
  }

  document.addEventListener("DOMContentLoaded", function () { start(document); });
  document.addEventListener("htmx:load", function (event) { start(event.target); });
  setInterval(tick, 250);
})();
