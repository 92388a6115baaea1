/* The place page of a waiting list (templates/public/list_place.html): when the polled part
 * turns into a call, the phone says so every way the browser allows: the tab's title, a short
 * beep (WebAudio, no sound file), a vibration where there is one, and a notification if the
 * player allowed them (the "Alert me" button asks). The call's time left counts down. */
(function () {
  "use strict";

  var title = document.title;
  var alerted = false;
  var audio = null;

  function countdown(seconds) {
    seconds = Math.max(0, Math.floor(seconds));
    return Math.floor(seconds / 60) + ":" + String(seconds % 60).padStart(2, "0");
  }

  function unlockAudio() {
    // Browsers start sound only after a tap: the first tap on the page makes the context.
    var Context = window.AudioContext || window.webkitAudioContext;
    if (!audio && Context) audio = new Context();
    if (audio && audio.state === "suspended") audio.resume();
  }

  function beep() {
    if (!audio) unlockAudio();
    if (!audio) return;
    [0, 0.35].forEach(function (at) {
      var tone = audio.createOscillator();
      var gain = audio.createGain();
      tone.frequency.value = 880;
      gain.gain.value = 0.2;
      tone.connect(gain).connect(audio.destination);
      tone.start(audio.currentTime + at);
      tone.stop(audio.currentTime + at + 0.2);
    });
  }

  function alertCall(call) {
    var text = call.textContent.trim();
    document.title = "Seat ready! " + title;
    document.documentElement.dataset.called = "1";
    try { beep(); } catch (error) { /* no sound: the title and the page still say it */ }
    if (navigator.vibrate) navigator.vibrate([300, 150, 300]);
    if (window.Notification && Notification.permission === "granted") {
      try { new Notification("Your seat is ready", { body: text, tag: "floordesk-call" }); }
      catch (error) { /* some phones show notifications only from a service worker */ }
    }
  }

  function check() {
    var call = document.querySelector("[data-place-root] [data-call]");
    if (call && !alerted) {
      alerted = true;
      alertCall(call);
    } else if (!call && alerted) {
      alerted = false;
      document.title = title;
      delete document.documentElement.dataset.called;
    }
  }

  function tick() {
    document.querySelectorAll("[data-call-left]").forEach(function (el) {
      var left = (Date.parse(el.dataset.holdUntil) - Date.now()) / 1000;
      var text = left > 0 ? countdown(left) : "time is up";
      if (el.textContent !== text) el.textContent = text;
    });
  }

  function offerNotifications() {
    var ask = document.querySelector("[data-alerts-ask]");
    var said = document.querySelector("[data-alerts-said]");
    if (!ask) return;
    if (!window.Notification) {
      if (said) said.textContent = "The page beeps and its title changes when you are called.";
      return;
    }
    if (Notification.permission === "granted") {
      if (said) said.textContent = "Alerts are on.";
      return;
    }
    ask.hidden = false;
    ask.addEventListener("click", function () {
      unlockAudio();
      Notification.requestPermission().then(function (answer) {
        ask.hidden = answer === "granted";
        if (said) said.textContent = answer === "granted" ? "Alerts are on." : "Notifications are off: keep this page open.";
      });
    });
  }

  document.addEventListener("DOMContentLoaded", function () {
    offerNotifications();
    document.addEventListener("pointerdown", unlockAudio, { once: true });
    check();
    tick();
    setInterval(tick, 500);
  });
  document.addEventListener("htmx:afterSwap", function () { check(); tick(); });
})();
