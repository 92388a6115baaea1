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
 * - The card picker keeps to the number of cards due; sheets (undo, procedures, history) close.
 * No amount is computed here: every number on the page comes from the server.
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
  var GUARDED = "form[data-write] button[type=submit]";

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
    var form = writeForm(elt);
    if (!form) return;
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
  });

  document.addEventListener("htmx:beforeRequest", function (evt) {
    var elt = source(evt);
    if (isPoll(elt)) {
      if (evt.detail.xhr) evt.detail.xhr.writesSent = writesSent;
      return;
    }
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
    if (isPoll(elt)) {
      if (status === 0 || status >= 500) setSync("offline", "Offline");
      else setSync("ok", "Live");
      return;
    }
    var form = writeForm(elt);
    if (!form) return;
    writing = Math.max(0, writing - 1);
    if (!writing) document.body.classList.remove("is-writing");
    var key = elt.dataset.tapKey;
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

  window.addEventListener("online", function () { setSync("ok", "Live"); });
  window.addEventListener("offline", function () { setSync("offline", "Offline"); });
})();
