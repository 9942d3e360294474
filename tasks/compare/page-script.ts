/**
 * The filter of the every-address table: hides each row whose address (its
 * first cell, in any case) does not hold the typed text. It writes no text
 * into the page, only hides rows, and says how many are shown.
 */
const FILTER_SCRIPT = `(function () {
  "use strict";
  var input = document.getElementById("address-filter");
  var shown = document.getElementById("filter-shown");
  var rows = Array.prototype.slice.call(
    document.querySelectorAll("#every-address tbody tr"));
  function apply() {
    var text = input.value.trim().toLowerCase();
    var count = 0;
    rows.forEach(function (row) {
      var match = row.cells[0].textContent.toLowerCase().indexOf(text) !== -1;
      row.hidden = !match;
      if (match) count++;
    });
    shown.textContent = String(count);
  }
  input.addEventListener("input", apply);
  input.form.addEventListener("submit", function (event) { event.preventDefault(); });
  apply();
})();
`;

export function filterScript(): string {
  return `<script>${FILTER_SCRIPT}</script>\n`;
}

/** The filter's box and its count of rows shown, filled by the script. */
export function filterForm(count: number): string {
  return `<form class="lookup" autocomplete="off">
<label for="address-filter" class="muted">Filter by address</label>
<input id="address-filter" placeholder="0x…" spellcheck="false">
</form>
<p class="muted"><span id="filter-shown">${count}</span> of ${count} shown.</p>
`;
}
