import { jsonForScript } from "./escape.js";
import type { RankedEntry } from "./model.js";

/** The id of the element holding the stage's scores as JSON. */
const DATA_ID = "stage-scores";

/**
 * The stage's every score for the lookup, as JSON in a non-executed script
 * element: `[address, score, rank, share]` rows, scores as decimal strings
 * (a browser's Number would round a uint64), all worked out here so the
 * browser only looks up.
 */
export function lookupData(entries: RankedEntry[], total: bigint): string {
  const rows = entries.map((e) => [
    e.address,
    e.score.toString(),
    e.rank,
    e.share,
  ]);
  const data = { count: entries.length, total: total.toString(), rows };
  return `<script type="application/json" id="${DATA_ID}">${jsonForScript(data)}</script>\n`;
}

/**
 * The lookup: reads the typed address, or the page's `#0x…`, and shows its
 * score, rank and share (or that the stage does not score it). Text only
 * ever goes in through `textContent`. The result's `data-state` says when
 * it is shown ("found", "unscored", "invalid"), for a reader's tools.
 */
const LOOKUP_SCRIPT = `(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("${DATA_ID}").textContent);
  var byAddress = new Map();
  data.rows.forEach(function (row) { byAddress.set(row[0].toLowerCase(), row); });
  var form = document.getElementById("lookup-form");
  var input = document.getElementById("lookup-address");
  var result = document.getElementById("lookup-result");
  function set(id, text) { document.getElementById(id).textContent = text; }
  function show(state, address, score, rank, share, note) {
    set("lookup-shown-address", address);
    set("lookup-score", score);
    set("lookup-rank", rank);
    set("lookup-share", share);
    set("lookup-note", note);
    result.hidden = false;
    result.setAttribute("data-state", state);
  }
  function lookUp(raw) {
    var text = raw.trim();
    if (!/^0x[0-9a-fA-F]{40}$/.test(text)) {
      show("invalid", text, "", "", "", "Not an address: 0x followed by 40 hex digits.");
      return false;
    }
    var row = byAddress.get(text.toLowerCase());
    if (row === undefined) {
      show("unscored", text, "0", "", "0%", "This stage does not score this address.");
    } else {
      show("found", row[0], row[1], row[2] + " of " + data.count, row[3] + "%", "");
    }
    return true;
  }
  function fromHash() {
    var text = "";
    try { text = decodeURIComponent(location.hash.slice(1)); } catch (e) { return; }
    if (text === "") return;
    input.value = text;
    lookUp(text);
  }
  form.addEventListener("submit", function (event) {
    event.preventDefault();
    if (lookUp(input.value)) {
      try { history.replaceState(null, "", "#" + input.value.trim()); } catch (e) {}
    }
  });
  window.addEventListener("hashchange", fromHash);
  fromHash();
})();
`;

/** The lookup's script element. */
export function lookupScript(): string {
  return `<script>${LOOKUP_SCRIPT}</script>\n`;
}

/** The lookup's form and its result, filled by the script. */
export function lookupForm(): string {
  return `<form class="lookup" id="lookup-form" autocomplete="off">
<label for="lookup-address" class="muted">Address</label>
<input id="lookup-address" name="address" placeholder="0x…" spellcheck="false">
<button type="submit">Look up</button>
</form>
<dl class="facts" id="lookup-result" hidden>
<dt>Address</dt><dd class="addr" id="lookup-shown-address"></dd>
<dt>Score</dt><dd class="mono" id="lookup-score"></dd>
<dt>Rank</dt><dd id="lookup-rank"></dd>
<dt>Share</dt><dd id="lookup-share"></dd>
<dt></dt><dd class="muted" id="lookup-note"></dd>
</dl>
<noscript><p class="muted">The lookup needs JavaScript;
the CSV beside this page has every score.</p></noscript>
`;
}
