/* FloorDesk desk pages: the few buttons that act in the browser alone.
 *
 * The Content-Security-Policy runs no inline handler (onclick=), so such buttons say what they
 * do in a data attribute and this script, loaded on every page, answers their clicks:
 * - [data-print]: prints the page (bag lists, seat cards);
 * - [data-split-eliminator]: adds an empty copy of the eliminator picker just before it, for a
 *   bust shared by several players (templates/desk/_bust_row.html);
 * - [data-remove-row]: removes its table row (a bust row the floor no longer wants);
 * - [data-select-on-focus]: a field whose text is selected when it takes the focus, so that
 *   typing replaces it (the registration desk's name after a refusal).
 * One listener on the document also serves buttons that htmx swaps in later.
 */
(function () {
  "use strict";

  function splitEliminator(button) {
    var picks = button.previousElementSibling;
    var select = picks && picks.querySelector("select");
    if (!select) return;
    var copy = select.cloneNode(true);
    copy.value = "";
    picks.appendChild(copy);
  }

  document.addEventListener("click", function (event) {
    var target = event.target instanceof Element ? event.target : null;
    if (!target) return;
    if (target.closest("[data-print]")) {
      window.print();
      return;
    }
    var split = target.closest("[data-split-eliminator]");
    if (split) {
      splitEliminator(split);
      return;
    }
    var remove = target.closest("[data-remove-row]");
    if (remove) {
      var row = remove.closest("tr");
      if (row) row.remove();
    }
  });

  function selectField(field) {
    if (field instanceof Element && field.matches("[data-select-on-focus]")) field.select();
  }

  document.addEventListener("focusin", function (event) { selectField(event.target); });
  // A field with autofocus may take the focus before this deferred script runs.
  document.addEventListener("DOMContentLoaded", function () { selectField(document.activeElement); });
})();
