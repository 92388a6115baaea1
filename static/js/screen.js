/* FloorDesk screens: what a room's TV shows besides the clock (templates/public/screen.html).
 *
 * clock.js runs the clock ([data-clock]: the countdown, the level, the blinds, the message) and
 * tells this script each time it draws (the "clock:render" event, with the state and the
 * seconds left). This script polls the board (data-board-url, with If-None-Match: 304 while the
 * tournament's version holds), turns the payouts page by page, lists the chip leaders, shows
 * hand-for-hand and the final result, counts down to the next break and, on a screen with
 * sound, chimes at each level change and one minute before it (Web Audio: no sound files).
 * When its polls have failed for data-offline-seconds the screen says so ("Offline: showing the
 * last update at 21:14"), and the clock keeps counting from what it has; the sign goes at the
 * first poll that answers again.
 */
(function () {
  "use strict";

  var FloorClock = window.FloorClock; // static/js/clock.js, loaded first: a time as the clock writes it

  function amount(value) {
    var n = Number(value);
    return value == null || isNaN(n) ? "" : n.toLocaleString("en-US", { maximumFractionDigits: 2 });
  }

  function ordinal(n) {
    var tens = n % 100;
    var suffix = tens >= 10 && tens <= 20 ? "th" : ({ 1: "st", 2: "nd", 3: "rd" })[n % 10] || "th";
    return n + suffix;
  }

  function clockTime(ms) {
    var at = new Date(ms);
    return FloorClock.pad(at.getHours()) + ":" + FloorClock.pad(at.getMinutes());
  }

  // The board's pages cut again into pages of `rows` (the sidebar's), first place first.
  function repage(pages, rows) {
    if (!rows) return pages;
    var lines = [].concat.apply([], pages);
    var out = [];
    for (var start = 0; start < lines.length; start += rows) out.push(lines.slice(start, start + rows));
    return out;
  }

  function el(tag, className, text) {
    var node = document.createElement(tag);
    if (className) node.className = className;
    if (text != null) node.textContent = text;
    return node;
  }

  // --- sound ------------------------------------------------------------------------------

  function Sound(button) {
    this.button = button;
    this.context = null;
    var self = this;
    if (button) button.addEventListener("click", function () { self.enable(); });
  }

  Sound.prototype.enable = function () {
    var Context = window.AudioContext || window.webkitAudioContext;
    if (!Context) {
      if (this.button) this.button.textContent = "This browser cannot play sound";
      return;
    }
    this.context = this.context || new Context();
    this.context.resume();
    if (this.button) this.button.hidden = true;
    document.body.dataset.sound = "on";
    this.play([[660, 0, 0.25]]); // a short note: the room hears that sound works
  };

  // notes: [frequency in Hz, start in seconds from now, length in seconds]
  Sound.prototype.play = function (notes) {
    var audio = this.context;
    if (!audio || audio.state !== "running") return;
    var start = audio.currentTime + 0.05;
    notes.forEach(function (note) {
      var oscillator = audio.createOscillator();
      var gain = audio.createGain();
      var at = start + note[1];
      oscillator.type = "sine";
      oscillator.frequency.value = note[0];
      gain.gain.setValueAtTime(0.0001, at);
      gain.gain.exponentialRampToValueAtTime(0.5, at + 0.03);
      gain.gain.exponentialRampToValueAtTime(0.0001, at + note[2]);
      oscillator.connect(gain);
      gain.connect(audio.destination);
      oscillator.start(at);
      oscillator.stop(at + note[2] + 0.05);
    });
  };

  Sound.prototype.levelChange = function () {
    this.play([[523.25, 0, 0.6], [659.25, 0.25, 0.6], [783.99, 0.5, 1.2]]);
  };

  Sound.prototype.oneMinute = function () {
    this.play([[880, 0, 0.2], [880, 0.35, 0.2]]);
  };

  // --- the screen ---------------------------------------------------------------------------

  function Screen(root) {
    this.root = root;
    this.board = JSON.parse(document.getElementById("board-data").textContent);
    this.url = root.dataset.boardUrl || "";
    this.pollMs = 1000 * Number(root.dataset.pollSeconds || 5);
    this.pageMs = 1000 * Number(root.dataset.pageSeconds || 8);
    this.etag = null;
    this.lastPoll = Date.now();
    this.lastAnswer = Date.now(); // the page itself is the last update until a poll answers
    this.offlineMs = 1000 * Number(root.dataset.offlineSeconds || 15);
    this.lastTurn = Date.now();
    this.group = 0;
    this.fetching = false;
    this.level = null;
    this.left = null;
    this.sound = "sound" in root.dataset ? new Sound(root.querySelector("[data-screen-sound]")) : null;
  }

  Screen.prototype.poll = function () {
    var self = this;
    if (self.fetching || !self.url) return;
    self.fetching = true;
    self.lastPoll = Date.now();
    FloorClock.fetchChanged(self.url, self.etag)
      .then(function (response) {
        if (response.status !== 304 && !response.ok) throw new Error("HTTP " + response.status);
        self.lastAnswer = Date.now();
        if (response.status === 304) return null;
        self.etag = response.headers.get("ETag");
        return response.json();
      })
      .then(function (board) {
        if (board) {
          self.board = board;
          self.renderBoard();
        }
      })
      .catch(function () { /* offline or refused: keep what we have; renderOffline says so */ })
      .then(function () { self.fetching = false; self.renderOffline(); });
  };

  Screen.prototype.renderOffline = function () {
    var sign = this.root.querySelector("[data-screen-offline]");
    if (!sign) return;
    var offline = Date.now() - this.lastAnswer >= this.offlineMs;
    if (offline) sign.textContent = "Offline: showing the last update at " + clockTime(this.lastAnswer);
    sign.hidden = !offline;
    this.root.classList.toggle("is-offline", offline);
  };

  // "200 / 400" big and "ante 400 (BB ante)" beside it (the label's parts, as the server cut them).
  Screen.prototype.renderBlinds = function (text) {
    var box = this.root.querySelector("[data-screen-blinds]");
    if (!box) return;
    text = text || "";
    var cut = text.indexOf(", ");
    box.querySelector(".screen__blinds-main").textContent = cut < 0 ? text : text.slice(0, cut);
    box.querySelector(".screen__ante").textContent = cut < 0 ? "" : text.slice(cut + 2);
  };

  Screen.prototype.renderPayouts = function () {
    var self = this;
    this.root.querySelectorAll("[data-screen-payouts]").forEach(function (box) {
      var pages = repage(self.board.payout_pages || [], Number(box.dataset.pageRows || 0));
      var shown = Number(box.dataset.pagesShown || 1);
      var groups = Math.max(1, Math.ceil(pages.length / shown));
      var group = self.group % groups;
      box.textContent = "";
      if (!pages.length) {
        box.appendChild(el("p", "screen__empty", "The payouts appear once players have entered."));
      }
      pages.slice(group * shown, group * shown + shown).forEach(function (page) {
        var list = el("ol", "screen__places");
        page.forEach(function (line) {
          var item = el("li", "screen__place" + (line.players.length ? " is-done" : ""));
          item.appendChild(el("span", "screen__place-no", ordinal(line.place)));
          item.appendChild(el("span", "screen__place-prize", amount(line.prize)));
          item.appendChild(el("span", "screen__place-who", line.players.join(", ")));
          list.appendChild(item);
        });
        box.appendChild(list);
      });
      var label = self.root.querySelector("[data-screen-page]");
      if (label) label.textContent = groups > 1 ? (group + 1) + " / " + groups : "";
    });
  };

  Screen.prototype.renderLeaders = function () {
    var list = this.root.querySelector("[data-screen-leaders]");
    if (!list) return;
    list.textContent = "";
    var rows = Number(list.dataset.rows || 0);
    var leaders = this.board.leaders || [];
    (rows ? leaders.slice(0, rows) : leaders).forEach(function (row) {
      var item = el("li");
      item.appendChild(el("span", "screen__leader-rank", String(row.rank)));
      item.appendChild(el("span", "screen__leader-name", row.name));
      item.appendChild(el("span", "screen__leader-chips", amount(row.chips)));
      list.appendChild(item);
    });
  };

  Screen.prototype.renderResult = function (finished) {
    var box = this.root.querySelector("[data-screen-result]");
    var result = this.board.result || [];
    if (!box) return;
    box.hidden = !(finished && result.length);
    if (box.hidden) return;
    var winner = result[0];
    box.querySelector("[data-screen-winner]").textContent = winner.name;
    box.querySelector("[data-screen-winner-prize]").textContent = amount(winner.prize);
    var list = box.querySelector("[data-screen-result-list]");
    list.textContent = "";
    result.slice(1).forEach(function (line) {
      var item = el("li");
      item.appendChild(el("span", "screen__place-no", ordinal(line.place)));
      item.appendChild(el("span", "screen__place-who", line.name));
      item.appendChild(el("span", "screen__place-prize", amount(line.prize)));
      list.appendChild(item);
    });
  };

  Screen.prototype.renderBoard = function () {
    this.renderPayouts();
    this.renderLeaders();
    this.renderResult(this.root.classList.contains("is-finished"));
  };

  Screen.prototype.breakText = function (state, now) {
    if (state.finished || (state.level && state.level.is_break)) return "";
    var seconds = state.next_break_at
      ? (Date.parse(state.next_break_at) - now) / 1000
      : state.seconds_to_next_break;
    return seconds == null || seconds < 0 ? "" : " \u00b7 Break in " + FloorClock.countdown(Math.ceil(seconds));
  };

  Screen.prototype.onClock = function (detail) {
    var state = detail.state;
    var root = this.root;
    root.classList.toggle("is-hand-for-hand", Boolean(state.hand_for_hand));
    var wasFinished = root.classList.contains("is-finished");
    root.classList.toggle("is-finished", Boolean(state.finished));
    if (wasFinished !== Boolean(state.finished)) this.renderResult(Boolean(state.finished));
    var h4h = root.querySelector("[data-screen-h4h]");
    if (h4h) h4h.textContent = state.hand_for_hand ? "Hand for hand" : "";
    var breakIn = root.querySelector("[data-screen-break]");
    if (breakIn) breakIn.textContent = this.breakText(state, detail.now);
    this.renderBlinds(state.blinds);
    this.renderOffline();
    this.sounds(state, detail.secondsLeft);
    if (Date.now() - this.lastTurn >= this.pageMs) {
      this.lastTurn = Date.now();
      this.group += 1;
      this.renderPayouts();
    }
    if (Date.now() - this.lastPoll >= this.pollMs) this.poll();
  };

  Screen.prototype.sounds = function (state, left) {
    var running = Boolean(state.ends_at) && !state.finished;
    if (this.sound) {
      if (this.level !== null && state.level_index !== this.level) this.sound.levelChange();
      else if (running && this.left !== null && this.left > 60 && left <= 60 && left > 50) {
        this.sound.oneMinute();
      }
    }
    this.level = state.level_index;
    this.left = running ? left : null;
  };

  document.addEventListener("DOMContentLoaded", function () {
    document.querySelectorAll("[data-screen]").forEach(function (root) {
      var screen = new Screen(root);
      root.addEventListener("clock:render", function (event) { screen.onClock(event.detail); });
      screen.renderBoard();
    });
  });
})();
