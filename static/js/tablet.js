/* FloorDesk dealer tablet: the little the server cannot do for it.
 *
 * - Every write (a form with data-write) carries a client id made here, one per tap. The id is
 *   kept for the same tap (the same form values) until the server has answered, so a request
 *   sent again after a Wi-Fi drop gets the original answer instead of a second entry.
 * - A tap within a hand is answered with the regions it changed (the table, the pots, the
 *   log's new line, the dock), each swapped in by its id; the tablet's new ETag and version come
 *   after them in the `tablet:state` event and are copied onto #tablet here. Other answers are
 *   the whole tablet.
 * - Answers 400 and 409 carry the re-rendered tablet (the engine's sentence, or "the hand
 *   changed on another device" with the current state): they are swapped in like a 200.
 * - The poll (#poll) sends the tablet's ETag in If-None-Match; a 304 leaves the page alone.
 *   A poll's answer is dropped when a tap was sent after the poll asked, or is still on its
 *   way: it may show the table from before the tap, and swapping it in would also take the
 *   tapping form off the page, so the tap's own answer would land nowhere.
 * - Exactly once: a tap is ignored while another write is on its way, and a button of a write
 *   form (the action bar, the board, the showdown, a procedure's confirm, undo, reopen, the start
 *   button) ignores taps for a guard time after it was drawn (data-tap-guard-ms on this script,
 *   settings.TABLET_TAP_GUARD_MS). A tap's answer draws the next player's bar where the finger
 *   still is: without the guard, the second tap of a double tap lands on it. The buttons are
 *   disabled meanwhile (a disabled button gets no click, so no submit), however they are
 *   redrawn: a tap's answer, the poll, a refusal, a sheet opened.
 *   A sheet's buttons and choices (the procedure sheet's picks, "Pick again", undo, history) are
 *   guarded the same way, and a second tap on a sheet's button before its step is drawn is
 *   ignored: a double tap on a pick no longer lands on the step drawn under the finger.
 * - The card picker keeps to the number of cards due; sheets (undo, procedures, history) close.
 * No amount is computed here: every number on the page comes from the server.
 *
 * Riding out the Wi-Fi (the offline queue, docs/architecture.md "The tablet offline"):
 * - A tap of the hand (the action endpoint: betting, board, show) that gets no answer (a network
 *   error, a timeout, 502/503/504) is not lost: it goes into a queue with its client id, its
 *   fields and the version it was made against, saved in localStorage under the table (the
 *   queue of one hand at a time), so a reload keeps it.
 * - While taps wait, the server's bar is hidden (it is drawn for a hand the taps have moved on)
 *   and an offline bar takes its place: the dealer picks who acts (the next seat round the
 *   table is offered first, a suggestion only), then Fold, Check, Call, All-in, Bet or Raise to
 *   a typed amount, or "Board dealt". Each tap is queued with the seat as `expected_seat` and the
 *   version after the taps before it (each recorded tap moves the version on by one): the
 *   service judges it on replay, so a wrong guess is refused, never recorded as another
 *   player's action. The pot and the bar's facts are marked "last known"; nothing is computed.
 * - The queue's lines show in the hand's log, marked "pending - not yet sent".
 * - The head is sent alone, then the next once it is answered: at once after a tap, then after
 *   1, 2, 4, 8, 15 s, on the `online` event and after any poll the server answered. A tap
 *   already recorded (its answer was lost) is answered its first answer by the service (same
 *   client id), never applied twice. When the queue is empty, the tablet is read again.
 * - A refusal on replay (400, 409: another device changed the hand; 401, 403) stops the queue:
 *   the tablet says which tap and the service's sentence, shows the hand as it is now, keeps
 *   the later taps unsent (shown, with "Discard the unsent taps") and offers Undo. Taps of the
 *   hand wait until the dealer has discarded them; nothing after the refused tap is sent.
 * - While taps wait, other writes (undo, procedures, a new hand) need the server's answer first
 *   and are not sent; after a refusal, the corrections (undo) are.
 */
(function () {
  "use strict";

  var pending = {}; // what was tapped (form values) -> the client id used for it
  var writing = 0;
  var writesSent = 0; // taps sent since the page opened: a poll asked before one is outdated
  var lastFailed = null;
  var script = document.currentScript;
  var guardMs = Number(script && script.dataset.tapGuardMs);
  if (!(guardMs >= 0)) guardMs = 350;
  // Buttons drawn just now take no tap for the guard time: a write's buttons, every button and
  // choice of a sheet (the procedure sheet's picks, undo, history), and the offline bar's.
  var GUARDED = "form[data-write] button[type=submit], #sheet button, #sheet input[type=radio]," +
    " #sheet input[type=checkbox], [data-offline-bar] button";
  var sheetLoading = false; // a sheet's step asked for and not answered yet

  function newId() {
    var bytes = new Uint8Array(16);
    (window.crypto || window.msCrypto).getRandomValues(bytes);
    bytes[6] = (bytes[6] & 0x0f) | 0x40;
    bytes[8] = (bytes[8] & 0x3f) | 0x80;
    var hex = Array.prototype.map.call(bytes, function (b) { return (b + 0x100).toString(16).slice(1); }).join("");
    return hex.slice(0, 8) + "-" + hex.slice(8, 12) + "-" + hex.slice(12, 16) + "-" + hex.slice(16, 20) + "-" + hex.slice(20);
  }

  function tapKey(path, formData) {
    var parts = [];
    formData.forEach(function (value, name) {
      if (name !== "client_id") parts.push(name + "=" + value);
    });
    return path + "?" + parts.sort().join("&");
  }

  function writeForm(elt) {
    return elt && elt.closest ? elt.closest("form[data-write]") : null;
  }

  // The element that made the request (htmx fires some events on an ancestor once the element
  // itself was swapped out).
  function source(evt) {
    var config = evt.detail.requestConfig;
    return (config && config.elt) || evt.detail.elt;
  }

  function isPoll(elt) {
    return elt && elt.hasAttribute && elt.hasAttribute("data-poll");
  }

  function setSync(state, text) {
    var sync = document.getElementById("sync");
    if (!sync) return;
    sync.dataset.state = state;
    sync.querySelector(".sync__text").textContent = text;
  }

  function net(show, text, retry) {
    var bar = document.getElementById("net");
    if (!bar) return;
    bar.hidden = !show;
    if (text) bar.querySelector("[data-net-text]").textContent = text;
    bar.querySelector("[data-net-retry]").hidden = !retry;
  }

  function closeSheet() {
    var sheet = document.getElementById("sheet");
    if (sheet) sheet.innerHTML = "";
  }

  document.addEventListener("htmx:configRequest", function (evt) {
    var elt = evt.detail.elt;
    if (isPoll(elt)) {
      if (writing > 0 || document.hidden) { evt.preventDefault(); return; }
      var tablet = document.getElementById("tablet");
      if (tablet && tablet.dataset.etag) evt.detail.headers["If-None-Match"] = tablet.dataset.etag;
      return;
    }
    // A choice the tap guard holds disabled for a moment is still the dealer's answer: a disabled
    // input is left out of a form's data, so it is put back (a sheet asks again on each change).
    var asking = elt.closest ? elt.closest("form") : null;
    if (asking) {
      asking.querySelectorAll("input[data-tap-guard]:checked").forEach(function (input) {
        if (input.name && evt.detail.formData.getAll(input.name).indexOf(input.value) < 0) {
          evt.detail.formData.append(input.name, input.value);
        }
      });
    }
    if (evt.detail.target && evt.detail.target.id === "sheet" && elt.tagName === "BUTTON") {
      // A second tap on a sheet's button before its step is drawn is the same tap.
      if (sheetLoading) { evt.preventDefault(); return; }
    }
    var form = writeForm(elt);
    if (!form) return;
    if (queueHolds(evt)) { evt.preventDefault(); return; }
    // One write at a time: a tap while the last one is on its way would be made against the
    // table before its answer (the buttons take no pointer events then: tablet.css).
    if (writing > 0) { evt.preventDefault(); return; }
    // Cards go in the order they were tapped (the order dealt), not the picker's order.
    var picker = form.querySelector("[data-picker]");
    if (picker && picker._order && picker._order.length) {
      evt.detail.formData.delete("cards");
      picker._order.forEach(function (input) {
        if (input.checked) evt.detail.formData.append("cards", input.value);
      });
    }
    var key = tapKey(evt.detail.path, evt.detail.formData);
    var id = pending[key] || newId();
    pending[key] = id;
    evt.detail.formData.set("client_id", id);
    elt.dataset.tapKey = key;
    elt._tap = evt.detail.path === actionUrl ? tapOf(form, id, evt.detail.formData) : null;
  });

  document.addEventListener("htmx:beforeRequest", function (evt) {
    var elt = source(evt);
    if (isPoll(elt)) {
      if (evt.detail.xhr) evt.detail.xhr.writesSent = writesSent;
      return;
    }
    if (evt.detail.target && evt.detail.target.id === "sheet") sheetLoading = true;
    if (!writeForm(elt)) return;
    writing += 1;
    writesSent += 1;
    document.body.classList.add("is-writing");
    net(false);
  });

  document.addEventListener("htmx:beforeSwap", function (evt) {
    var xhr = evt.detail.xhr;
    var status = xhr.status;
    if (status === 304) { evt.detail.shouldSwap = false; return; }
    if (isPoll(source(evt)) && (writing > 0 || xhr.writesSent !== writesSent)) {
      evt.detail.shouldSwap = false; // the tap's answer draws the tablet; the next poll follows
      return;
    }
    if (status === 400 || status === 409) {
      evt.detail.shouldSwap = true;
      evt.detail.isError = false;
    } else if (status === 403) {
      net(true, "This table is not assigned to you: only its dealer or a director may enter actions.", false);
    } else if (status >= 500) {
      net(true, "The server had a problem: the entry may not be recorded. Send it again.", true);
    }
  });

  document.addEventListener("htmx:afterRequest", function (evt) {
    var elt = source(evt);
    var xhr = evt.detail.xhr;
    var status = xhr ? xhr.status : 0;
    if (evt.detail.target && evt.detail.target.id === "sheet") sheetLoading = false;
    if (isPoll(elt)) {
      if (status === 0 || status >= 500) setSync("offline", "Offline");
      else setSync("ok", "Live");
      if (status > 0 && status < 500) { retryMs = 0; flush(); } // the service answers again
      syncQueue();
      return;
    }
    var form = writeForm(elt);
    if (!form) return;
    writing = Math.max(0, writing - 1);
    if (!writing) document.body.classList.remove("is-writing");
    var key = elt.dataset.tapKey;
    if (elt._tap && NO_ANSWER.indexOf(status) >= 0) {
      // No answer to a tap of the hand: it goes into the queue with its client id, and the
      // dealer goes on tapping (the offline bar).
      if (key) delete pending[key];
      net(false);
      enqueue(elt._tap);
      elt._tap = null;
      later();
      return;
    }
    if (status === 0 || status >= 500) {
      // No answer (or a server error): keep the id, so sending again cannot enter it twice.
      lastFailed = { form: form, submitter: form.querySelector("[data-last-tap]") };
      setSync("offline", "Offline");
      if (status === 0) net(true, "No answer from the server: the entry was not confirmed.", true);
      return;
    }
    if (key) delete pending[key];
    lastFailed = null;
    setSync("ok", "Live");
    if (form.isConnected && form.closest("#sheet") && (status === 200 || status === 400 || status === 409)) closeSheet();
  });

  // A tap's answer swapped its regions in: the tablet now shows this hand at this version (the
  // poll sends the ETag in If-None-Match). Fired after the swap (HX-Trigger-After-Swap).
  document.addEventListener("tablet:state", function (evt) {
    var tablet = document.getElementById("tablet");
    var state = evt.detail || {};
    if (!tablet) return;
    tablet.dataset.hand = String(state.hand);
    tablet.dataset.version = String(state.version);
    tablet.className = tablet.className.replace(/\btablet--(?!readonly\b)[a-z_]+/, "tablet--" + state.phase);
    tablet.dataset.etag = state.etag; // last: whoever waits for a new ETag sees the new state
  });

  // Remember the button tapped, so "Send again" taps the same one.
  document.addEventListener("click", function (evt) {
    var button = evt.target.closest && evt.target.closest("form[data-write] button[type=submit]");
    if (button) {
      button.form.querySelectorAll("[data-last-tap]").forEach(function (b) { b.removeAttribute("data-last-tap"); });
      button.setAttribute("data-last-tap", "");
    }
    if (evt.target.closest && evt.target.closest("[data-net-retry]")) {
      var failed = lastFailed;
      net(false);
      if (failed && failed.form.isConnected) {
        if (failed.submitter && failed.submitter.isConnected) failed.submitter.click();
        else failed.form.requestSubmit();
      } else {
        net(true, "The tablet was refreshed meanwhile: check the latest entries and tap again if needed.", false);
      }
      return;
    }
    if (evt.target.closest && evt.target.closest("[data-sheet-close]")) { closeSheet(); return; }
    if (evt.target.classList && evt.target.classList.contains("sheet")) closeSheet();
  });

  document.addEventListener("keydown", function (evt) {
    if (evt.key === "Escape") closeSheet();
  });

  // The card picker: at most data-max cards; a further tap replaces the earliest pick.
  function pickerUpdate(picker) {
    var form = picker.closest("form");
    var checked = (picker._order || []).filter(function (input) { return input.checked; });
    var text = checked.map(function (input) {
      return input.parentNode.querySelector("span").textContent.trim();
    }).join(" ");
    if (form) form.querySelectorAll("[data-picked]").forEach(function (el) { el.textContent = text; });
  }

  // Capture phase: the pick is kept to data-max before a form that asks on each change (the
  // procedure sheet) reads its cards. A picker drawn with cards ticked (the sheet drawn again
  // with the cards named) starts from them.
  document.addEventListener("change", function (evt) {
    var input = evt.target;
    var picker = input.closest && input.closest("[data-picker]");
    if (!picker || input.type !== "checkbox") return;
    var max = Number(picker.dataset.max || 0);
    if (!picker._order) {
      picker._order = Array.prototype.filter.call(
        picker.querySelectorAll("input[type=checkbox]:checked"),
        function (el) { return el !== input; }
      );
    }
    var order = picker._order;
    if (input.checked) {
      order.push(input);
      while (max && order.length > max) order.shift().checked = false;
    } else {
      picker._order = order.filter(function (el) { return el !== input; });
    }
    pickerUpdate(picker);
  }, true);

  // The tap guard: the buttons of write forms drawn just now take no tap for `guardMs`. Only the
  // buttons this guard disabled are enabled again (the server draws some disabled).
  function release(buttons) {
    buttons.forEach(function (button) {
      if (!button.hasAttribute("data-tap-guard")) return;
      button.removeAttribute("data-tap-guard");
      button.disabled = false;
    });
  }

  function guard(node) {
    var form = node.closest && node.closest("form[data-write]");
    var root = form || node;
    if (!root.querySelectorAll) return;
    var buttons = Array.prototype.filter.call(root.querySelectorAll(GUARDED), function (button) {
      return !button.disabled;
    });
    if (root.matches && root.matches(GUARDED) && !root.disabled) buttons.push(root);
    if (!buttons.length) return;
    buttons.forEach(function (button) {
      button.disabled = true;
      button.setAttribute("data-tap-guard", "");
    });
    setTimeout(function () { release(buttons); }, guardMs);
  }

  if (guardMs > 0) {
    // Mutation records are handled before the next input event is: a tap that follows the
    // redraw finds the buttons disabled already.
    new MutationObserver(function (records) {
      records.forEach(function (record) {
        record.addedNodes.forEach(function (node) {
          if (node.nodeType === 1) guard(node);
        });
      });
    }).observe(document.documentElement, { childList: true, subtree: true });
    guard(document.body); // the page itself is a drawing too
  }

  // --- the offline queue ---------------------------------------------------------------------
  // A tap of the hand (the action endpoint) that gets no answer is kept here, in order, with its
  // client id, and saved in localStorage under the table (one hand's queue at a time). The
  // queue's head is sent as soon as the service answers again; each tap goes out alone, after
  // the one before it was answered. See the header comment.
  var queueBox = document.getElementById("queue");
  var actionUrl = queueBox ? queueBox.dataset.actionUrl : null;
  var STORE = "floordesk:tablet-queue:" + (queueBox ? queueBox.dataset.table : "") + ":";
  var NO_ANSWER = [0, 502, 503, 504];
  var BACKOFF_MS = [1000, 2000, 4000, 8000, 15000];
  var REPLAY_TIMEOUT_MS = 10000;
  var queue = { hand: "", items: [], halted: null };
  var sending = false;
  var retryMs = 0;
  var retryTimer = null;
  var pickedSeat = null; // the seat the dealer picked on the offline bar (else the guess)

  function storedKeys() {
    var keys = [];
    try {
      for (var i = 0; i < localStorage.length; i++) {
        var key = localStorage.key(i);
        if (key && key.indexOf(STORE) === 0) keys.push(key);
      }
    } catch (e) { /* no storage: the queue lives as long as the page */ }
    return keys;
  }

  function loadQueue() {
    storedKeys().forEach(function (key) {
      try {
        var stored = JSON.parse(localStorage.getItem(key));
        if (stored && stored.items && stored.items.length && !queue.items.length) queue = stored;
      } catch (e) { localStorage.removeItem(key); }
    });
  }

  function saveQueue() {
    var key = STORE + queue.hand;
    try {
      storedKeys().forEach(function (k) { if (k !== key) localStorage.removeItem(k); });
      if (queue.items.length) localStorage.setItem(key, JSON.stringify(queue));
      else localStorage.removeItem(key);
    } catch (e) { /* full or refused: the page still holds the queue */ }
  }

  function field(fields, name) {
    for (var i = 0; i < fields.length; i++) if (fields[i][0] === name) return fields[i][1];
    return "";
  }

  function words(node) {
    return node ? node.textContent.replace(/\s+/g, " ").trim() : "";
  }

  function seatName(seat) {
    var box = document.querySelector("#tablet-felt .seat-box[data-seat='" + seat + "']");
    return words(box && box.querySelector(".seat-box__name"));
  }

  // What the log's pending line says of a tap: the seat and the button's own words.
  function describe(seat, label) {
    return seat ? "Seat " + seat + " " + seatName(seat) + " \u00b7 " + label : label;
  }

  // A tap of a server-drawn form, as the queue keeps it (without the CSRF token: the page's
  // own is used when it is sent).
  function tapOf(form, id, formData) {
    var fields = [];
    formData.forEach(function (value, name) {
      if (name !== "csrfmiddlewaretoken" && typeof value === "string") fields.push([name, value]);
    });
    var seat = field(fields, "expected_seat") || field(fields, "seat");
    var label = words(form.querySelector("[data-last-tap]")) || field(fields, "action");
    return { id: id, fields: fields, seat: seat, action: field(fields, "action"), text: describe(seat, label) };
  }

  function csrfToken() {
    var input = document.querySelector("input[name=csrfmiddlewaretoken]");
    return input ? input.value : "";
  }

  // A write while taps wait: a tap of the hand joins the queue (behind the others); anything
  // else needs the service's answer first. After a refusal, taps of the hand wait until the
  // dealer has dealt with the unsent ones.
  function queueHolds(evt) {
    if (!queue.items.length) return false;
    if (evt.detail.path === actionUrl) {
      if (queue.halted) {
        net(true, "Discard the unsent taps first (below), then enter the hand as it is now.", false);
      } else {
        var form = writeForm(evt.detail.elt);
        enqueue(tapOf(form, newId(), evt.detail.formData));
        flush();
      }
      return true;
    }
    if (queue.halted) return false; // undo and the other corrections go to the service
    net(true, "Taps are waiting to be sent: this needs the server's answer first.", false);
    return true;
  }

  function enqueue(tap) {
    if (!queue.items.length) queue.hand = field(tap.fields, "hand");
    queue.items.push(tap);
    pickedSeat = null;
    saveQueue();
    drawQueue();
  }

  // The version a tap entered offline is made against: the version shown, moved on by one for
  // each tap before it (every recorded tap moves it on by one). The service refuses it if the
  // hand moved otherwise (another device): the replay stops there.
  function nextVersion() {
    var last = queue.items[queue.items.length - 1];
    if (last) return String(Number(field(last.fields, "version")) + 1);
    var tablet = document.getElementById("tablet");
    return tablet ? tablet.dataset.version : "0";
  }

  function later() {
    clearTimeout(retryTimer);
    var step = BACKOFF_MS.indexOf(retryMs) + 1;
    retryMs = BACKOFF_MS[Math.min(step, BACKOFF_MS.length - 1)];
    retryTimer = setTimeout(flush, retryMs);
  }

  // Send the queue's head; its answer decides the rest (`replayed`).
  function flush() {
    if (sending || queue.halted || !queue.items.length || !actionUrl) return;
    clearTimeout(retryTimer);
    retryTimer = null;
    var tap = queue.items[0];
    var body = new URLSearchParams();
    tap.fields.forEach(function (f) { body.append(f[0], f[1]); });
    body.set("client_id", tap.id);
    sending = true;
    var abort = window.AbortController ? new AbortController() : null;
    var timer = setTimeout(function () { if (abort) abort.abort(); }, REPLAY_TIMEOUT_MS);
    fetch(actionUrl, {
      method: "POST",
      body: body,
      credentials: "same-origin",
      redirect: "manual",
      headers: { "HX-Request": "true", "X-CSRFToken": csrfToken() },
      signal: abort ? abort.signal : undefined,
    }).then(function (response) {
      var status = response.type === "opaqueredirect" ? 401 : response.status;
      return response.text().then(function (text) { return { status: status, text: text }; });
    }).catch(function () {
      return { status: 0, text: "" };
    }).then(function (answer) {
      clearTimeout(timer);
      sending = false;
      replayed(tap, answer);
    });
  }

  // The service's sentence in a refusal (the tablet it answers with carries it as its notice).
  function refusalText(answer) {
    var doc = new DOMParser().parseFromString(answer.text || "", "text/html");
    var notice = doc.querySelector("[data-testid=notice]");
    if (notice) return words(notice);
    if (answer.status === 401) return "You were signed out: sign in again (the taps stay on this tablet).";
    if (answer.status === 403) return "This table is not assigned to you.";
    return words(doc.body) || "The server refused it (" + answer.status + ").";
  }

  function replayed(tap, answer) {
    var status = answer.status;
    if (queue.items[0] !== tap) return; // discarded meanwhile
    if (status === 200) {
      queue.items.shift();
      retryMs = 0;
      saveQueue();
      if (queue.items.length) { drawQueue(); flush(); } else backOnline();
      return;
    }
    if (NO_ANSWER.indexOf(status) >= 0 || status >= 500) {
      setSync("offline", "Offline");
      syncQueue();
      later();
      return;
    }
    // Refused (400, 409: the hand changed on another device; 401, 403): stop here. Nothing
    // after this tap is sent; the dealer sees which tap, why, and the hand as it is now.
    queue.halted = { text: tap.text, reason: refusalText(answer) };
    saveQueue();
    refreshTablet();
    drawQueue();
  }

  function refreshTablet() {
    var poll = document.getElementById("poll");
    if (poll && window.htmx) htmx.ajax("GET", poll.getAttribute("hx-get"), { target: "#tablet", swap: "outerHTML" });
  }

  function backOnline() {
    queue = { hand: "", items: [], halted: null };
    saveQueue();
    setSync("ok", "Live");
    drawQueue();
    refreshTablet();
  }

  function discardQueue() {
    queue = { hand: "", items: [], halted: null };
    saveQueue();
    net(false);
    drawQueue();
    refreshTablet();
  }

  function syncQueue() {
    if (queue.halted) setSync("offline", "Stopped: a tap was refused");
    else if (queue.items.length) setSync("offline", "Offline \u00b7 " + queue.items.length + " pending");
  }

  function el(tag, className, text) {
    var node = document.createElement(tag);
    if (className) node.className = className;
    if (text) node.textContent = text;
    return node;
  }

  function button(text, className, data) {
    var b = el("button", "tbtn " + className, text);
    b.type = "button";
    Object.keys(data).forEach(function (key) { b.setAttribute("data-" + key, data[key]); });
    return b;
  }

  function lastKnownMark() {
    var mark = el("span", "last-known", "last known");
    mark.setAttribute("data-testid", "last-known");
    mark.title = "What the server showed before the connection dropped; it checks every tap when it is sent.";
    return mark;
  }

  // The hand's log: a pending line per queued tap, the newest first, above the service's lines.
  function drawPending() {
    document.querySelectorAll("#tablet-log .is-pending").forEach(function (li) { li.remove(); });
    if (!queue.items.length) return;
    var list = document.getElementById("tablet-log-list");
    var region = document.getElementById("tablet-log");
    if (!list && region) {
      var section = el("section", "log");
      section.setAttribute("aria-label", "Latest entries");
      section.appendChild(el("h2", "log__title", "Latest entries"));
      list = el("ol", "log__list");
      list.id = "tablet-log-list";
      section.appendChild(list);
      region.appendChild(section);
    }
    if (!list) return;
    queue.items.forEach(function (tap, i) {
      var li = el("li", "is-pending", tap.text + " ");
      li.setAttribute("data-testid", "pending-line");
      var mark = queue.halted ? (i === 0 ? "refused: not recorded" : "not sent") : "pending \u00b7 not yet sent";
      li.appendChild(el("span", "pending-mark", mark));
      list.insertBefore(li, list.firstChild);
    });
  }

  function drawLastKnown(offline) {
    document.querySelectorAll("#tablet .last-known").forEach(function (mark) { mark.remove(); });
    if (!offline) return;
    document.querySelectorAll("#tablet .felt__pot, #tablet #tablet-pots .pots").forEach(function (node) {
      node.appendChild(lastKnownMark());
    });
  }

  // The players who may act, as the last tablet drawn showed them (around the table in order).
  function seatsShown() {
    var gone = {};
    queue.items.forEach(function (tap) {
      if (tap.action === "fold" || tap.action === "all_in") gone[tap.seat] = true;
    });
    var boxes = document.querySelectorAll("#tablet-felt .seat-box[data-seat]");
    return Array.prototype.filter.call(boxes, function (box) {
      return !box.matches(".is-empty, .is-folded, .is-out, .is-busted") && !gone[box.dataset.seat];
    }).map(function (box) {
      return { seat: box.dataset.seat, name: seatName(box.dataset.seat), allIn: box.matches(".is-all-in") };
    }).sort(function (a, b) { return a.seat - b.seat; });
  }

  // Only a suggestion, never a rule: the next seat round the table after the last tap's. The
  // dealer may pick another; the service checks it (expected_seat) when the tap is sent.
  function guessSeat(seats) {
    var can = seats.filter(function (s) { return !s.allIn; });
    if (!can.length) return null;
    var last = null;
    for (var i = queue.items.length - 1; i >= 0 && last === null; i--) {
      if (queue.items[i].seat) last = Number(queue.items[i].seat);
      else break; // a board: the first to act is after the button
    }
    if (last === null) {
      var button = document.querySelector("#tablet-felt .seat-box .mark--button");
      var box = button && button.closest(".seat-box");
      if (!queue.items.length && document.querySelector("#tablet-felt .seat-box[aria-current]")) {
        return document.querySelector("#tablet-felt .seat-box[aria-current]").dataset.seat;
      }
      last = box ? Number(box.dataset.seat) : 0;
    }
    var next = can.filter(function (s) { return Number(s.seat) > last; })[0] || can[0];
    return next.seat;
  }

  // The seat picked to act, shown on the felt too (the server's "to act" is from before).
  function showPick() {
    document.querySelectorAll("#tablet-felt .seat-box[data-seat]").forEach(function (box) {
      box.classList.toggle("is-offline-pick", box.dataset.seat === pickedSeat);
    });
  }

  function drawOfflineBar(dock) {
    var seats = seatsShown();
    if (!pickedSeat || !seats.some(function (s) { return s.seat === pickedSeat; })) pickedSeat = guessSeat(seats);
    showPick();
    var bar = el("div", "offline-bar");
    bar.setAttribute("data-offline-bar", "");
    bar.setAttribute("data-testid", "offline-bar");
    var head = el("p", "offline-bar__head");
    head.appendChild(el("strong", "", "Offline: "));
    head.appendChild(document.createTextNode(
      queue.items.length + " pending, kept on this tablet and sent in order when the server answers." +
      " It checks each tap then."));
    bar.appendChild(head);
    var who = el("div", "offline-bar__seats");
    who.setAttribute("role", "group");
    who.setAttribute("aria-label", "Who acts");
    who.appendChild(el("span", "offline-bar__label", "Who acts?"));
    seats.forEach(function (s) {
      var b = button(s.seat + " " + s.name, "tbtn--choice" + (s.seat === pickedSeat ? " is-picked" : ""), { "offline-seat": s.seat });
      b.setAttribute("aria-pressed", String(s.seat === pickedSeat));
      who.appendChild(b);
    });
    bar.appendChild(who);
    var acts = el("div", "offline-bar__actions");
    acts.appendChild(button("Fold", "tbtn--fold", { "offline-action": "fold" }));
    acts.appendChild(button("Check", "tbtn--call", { "offline-action": "check" }));
    acts.appendChild(button("Call", "tbtn--call", { "offline-action": "call" }));
    acts.appendChild(button("All-in", "tbtn--allin", { "offline-action": "all_in" }));
    var amount = el("input", "offline-bar__amount");
    amount.type = "number";
    amount.inputMode = "numeric";
    amount.placeholder = "chips";
    amount.setAttribute("aria-label", "Amount to bet or raise to");
    amount.setAttribute("data-offline-amount", "");
    acts.appendChild(amount);
    acts.appendChild(button("Bet", "tbtn--raise", { "offline-action": "bet" }));
    acts.appendChild(button("Raise to", "tbtn--raise", { "offline-action": "raise" }));
    acts.appendChild(button("Board dealt (cards later)", "tbtn--ghost", { "offline-action": "deal_board_unknown" }));
    bar.appendChild(acts);
    var known = el("p", "offline-bar__known");
    known.appendChild(lastKnownMark());
    var facts = dock.querySelector(".actionbar__who");
    var sizes = dock.querySelector(".actionbar__label");
    var pot = document.querySelector("#tablet .felt__pot strong");
    known.appendChild(document.createTextNode(
      (facts ? " " + words(facts) : "") + (sizes ? " \u00b7 " + words(sizes) : "") +
      (pot ? " \u00b7 pot " + words(pot) : "") + " (before the pending taps)"));
    bar.appendChild(known);
    dock.insertBefore(bar, dock.firstChild);
  }

  function drawHalted(dock) {
    var box = el("div", "offline-bar offline-bar--halted");
    box.setAttribute("data-offline-bar", "");
    box.setAttribute("data-testid", "queue-halted");
    box.setAttribute("role", "alert");
    var first = el("p", "offline-bar__head");
    first.appendChild(el("strong", "", "Not recorded: "));
    first.appendChild(document.createTextNode(queue.halted.text + " was refused. " + queue.halted.reason));
    box.appendChild(first);
    var rest = queue.items.length - 1;
    box.appendChild(el("p", "", (rest ? rest + " later tap" + (rest > 1 ? "s were" : " was") + " not sent (in the log). " : "") +
      "Check the hand as it is now: correct it with Undo if needed, then enter what is still missing."));
    var actions = el("div", "offline-bar__actions");
    actions.appendChild(button("Discard the unsent taps", "tbtn--danger", { "queue-discard": "" }));
    actions.appendChild(button("Undo / correct", "tbtn--ghost", { "queue-undo": "" }));
    box.appendChild(actions);
    dock.insertBefore(box, dock.firstChild);
  }

  function drawQueue() {
    var offline = queue.items.length > 0 && !queue.halted;
    document.body.classList.toggle("is-offline", offline);
    document.querySelectorAll("[data-offline-bar]").forEach(function (node) { node.remove(); });
    drawPending();
    drawLastKnown(offline);
    var dock = document.getElementById("tablet-dock");
    if (dock && offline) drawOfflineBar(dock);
    if (dock && queue.halted) drawHalted(dock);
    syncQueue();
  }

  function offlineTap(action) {
    var fields = [["hand", queue.hand || document.getElementById("tablet").dataset.hand],
      ["version", nextVersion()], ["action", action]];
    var label = { fold: "Fold", check: "Check", call: "Call", all_in: "All-in", bet: "Bet", raise: "Raise to" }[action];
    var seat = "";
    if (action === "deal_board_unknown") {
      label = "Board dealt (cards not entered)";
    } else {
      seat = pickedSeat;
      if (!seat) { net(true, "Pick the player who acts.", false); return; }
      fields.push(["seat", seat], ["expected_seat", seat]);
    }
    if (action === "bet" || action === "raise") {
      var input = document.querySelector("[data-offline-amount]");
      var amount = input ? input.value.trim() : "";
      if (!/^[0-9]+$/.test(amount)) { net(true, "Type the amount first, then tap " + label + ".", false); return; }
      fields.push(["amount", amount]);
      label += " " + amount;
    }
    net(false);
    enqueue({ id: newId(), fields: fields, seat: seat, action: action, text: describe(seat, label) });
    flush();
  }

  document.addEventListener("click", function (evt) {
    var target = evt.target.closest ? evt.target.closest("button") : null;
    if (!target || target.disabled) return;
    if (target.hasAttribute("data-offline-seat")) {
      pickedSeat = target.getAttribute("data-offline-seat");
      target.parentNode.querySelectorAll("[data-offline-seat]").forEach(function (b) {
        var on = b === target;
        b.classList.toggle("is-picked", on);
        b.setAttribute("aria-pressed", String(on));
      });
      showPick();
    } else if (target.hasAttribute("data-offline-action")) {
      offlineTap(target.getAttribute("data-offline-action"));
    } else if (target.hasAttribute("data-queue-discard")) {
      discardQueue();
    } else if (target.hasAttribute("data-queue-undo")) {
      var url = queueBox && queueBox.dataset.undoUrl;
      if (url) htmx.ajax("GET", url, { target: "#sheet", swap: "innerHTML" });
    }
  });

  // A redraw of the tablet (the poll, a refusal) takes the pending lines and marks away: put
  // them back.
  document.addEventListener("htmx:afterSettle", function () {
    if (!queue.items.length) return;
    var drawn = document.querySelector("#tablet-dock [data-offline-bar]") &&
      document.querySelector("#tablet-log .is-pending");
    if (!drawn) drawQueue();
  });

  loadQueue();
  if (queue.items.length) { drawQueue(); flush(); }

  // The service worker keeps the last copy of this page, so a reload during an outage still
  // shows the tablet (templates/dealer/tablet_sw.js).
  if (queueBox && queueBox.dataset.serviceWorker && navigator.serviceWorker) {
    var worker = queueBox.dataset.serviceWorker;
    navigator.serviceWorker.register(worker, { scope: worker.replace(/[^/]*$/, "") })
      .catch(function () { /* no worker: a reload during an outage shows the browser's page */ });
  }

  window.addEventListener("online", function () { setSync("ok", "Live"); retryMs = 0; flush(); syncQueue(); });
  window.addEventListener("offline", function () { setSync("offline", "Offline"); syncQueue(); });
})();
