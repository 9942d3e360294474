/**
 * The lookup as it runs in the reader's browser, after `NUMBERS_JS` and
 * `SHARDS_JS`: reads the typed address (or the page's `#0x…`), loads its
 * shard of every stage of the site, and shows its score, rank and share in
 * this page's stage, then a row per stage, each stage whose score is below
 * vesting's minimum of an earlier stage's score marked (`VESTING_JS`:
 * later < ⌊earlier / 2⌋, in BigInt). Text only ever goes in through `textContent`. The
 * result's `data-state` says what is shown ("loading", "found",
 * "unscored", "invalid", "failed"), for a reader's tools.
 */
export const LOOKUP_JS = `
var site = window.vipSite;
var form = document.getElementById("lookup-form");
var input = document.getElementById("lookup-address");
var result = document.getElementById("lookup-result");
var details = document.getElementById("lookup-details");
var here = form.getAttribute("data-stage");
var latest = 0;
function byId(id) { return document.getElementById(id); }
function set(id, text) { var node = byId(id); if (node) node.textContent = text; }
function element(tag, text, className) {
  var node = document.createElement(tag);
  if (text !== undefined) node.textContent = text;
  if (className) node.className = className;
  return node;
}
function state(name, status, showDetails) {
  set("lookup-status", status);
  details.hidden = !showDetails;
  result.hidden = false;
  result.setAttribute("data-state", name);
}
/** The earlier stages whose vesting minimum each stage's score is below. */
function belowMinimum(scores) {
  return scores.map(function (score, index) {
    var earlier = [];
    for (var j = 0; j < index; j++)
      if (fallsBelowVestingMinimum(scores[j], score)) earlier.push(site.stages[j].stage);
    return earlier;
  });
}
function stageList(stages) {
  var names = stages.map(function (stage) { return "stage " + stage; });
  return names.length === 1 ? names[0] : names.slice(0, -1).join(", ") + " and " + names[names.length - 1];
}
function historyRow(stage, row, score, earlier, address) {
  var tr = element("tr");
  var link = element("a", "Stage " + stage.stage, "nowrap");
  link.href = stage.page + "#" + address;
  var first = element("td");
  first.appendChild(link);
  tr.appendChild(first);
  if (stage.stage === here) {
    tr.className = "here";
    link.setAttribute("aria-current", "page");
  }
  tr.appendChild(element("td", groupThousands(score.toString()), "num"));
  tr.appendChild(element("td", shareText(score, BigInt(stage.total)), "num"));
  tr.appendChild(element("td", row ? groupThousands(row.rank) + " of " + groupThousands(String(stage.count)) : "not scored", row ? "num" : "muted"));
  tr.setAttribute("data-stage", stage.stage);
  if (earlier.length === 0) return [tr];
  tr.className += " below-minimum";
  tr.setAttribute("data-below-minimum", earlier.join(" "));
  var note = element("tr", undefined, "vesting-mark");
  var cell = element("td", "Below vesting's minimum for " + stageList(earlier) +
    " (half that stage's score, rounded down)" +
    ": " + (earlier.length === 1 ? "that stage's reward vests" : "those stages' rewards vest") +
    " only in part.");
  cell.colSpan = 4;
  note.appendChild(cell);
  return [tr, note];
}
function showHistory(rows, address) {
  var scores = rows.map(function (row) { return row ? BigInt(row.score) : 0n; });
  var marks = belowMinimum(scores);
  var body = byId("lookup-history-rows");
  body.textContent = "";
  site.stages.forEach(function (stage, index) {
    historyRow(stage, rows[index], scores[index], marks[index], address)
      .forEach(function (tr) { body.appendChild(tr); });
  });
}
function showStage(rows, address) {
  var index = site.stages.findIndex(function (stage) { return stage.stage === here; });
  var stage = site.stages[index];
  var row = rows[index];
  set("lookup-shown-address", address);
  set("explain-address", address);
  if (!row) {
    set("lookup-score", "0");
    set("lookup-rank", "not scored");
    set("lookup-share", "0\\u00a0%");
    return false;
  }
  set("lookup-score", groupThousands(row.score));
  set("lookup-rank", groupThousands(row.rank) + " of " + groupThousands(String(stage.count)));
  set("lookup-share", shareText(BigInt(row.score), BigInt(stage.total)));
  return true;
}
function show(rows, address) {
  showHistory(rows, address);
  var anywhere = rows.some(function (row) { return row !== null; });
  if (here === null) {
    state(anywhere ? "found" : "unscored",
      anywhere ? address : "No stage of this report scores " + address + ".", true);
    return;
  }
  var found = showStage(rows, address);
  state(found ? "found" : "unscored",
    found ? "" : "Stage " + here + " does not score " + address + ".", true);
}
function lookUp(raw) {
  var text = raw.trim();
  var token = ++latest;
  result.setAttribute("data-address", text);
  if (!/^0x[0-9a-fA-F]{40}$/.test(text)) {
    set("lookup-shown-address", text);
    state("invalid", "Not an address: " + JSON.stringify(text) + ". An address is 0x followed by 40 hex digits.", false);
    return false;
  }
  var hex = text.slice(2).toLowerCase();
  state("loading", "Looking up 0x" + hex + "\\u2026", false);
  Promise.all(site.stages.map(function (stage) { return findRow(stage, hex); })).then(
    function (rows) { if (token === latest) show(rows, "0x" + hex); },
    function (error) {
      if (token === latest) state("failed", "The lookup's data could not be loaded (" + error.message + "): the site is missing files.", false);
    });
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
var copy = byId("copy-explain");
if (copy) copy.addEventListener("click", function () {
  var command = byId("explain-command");
  var range = document.createRange();
  range.selectNodeContents(command);
  var selection = window.getSelection();
  selection.removeAllRanges();
  selection.addRange(range);
  var copied = function () { copy.textContent = "Copied"; };
  if (navigator.clipboard) navigator.clipboard.writeText(command.textContent).then(copied, function () {});
});
window.addEventListener("hashchange", fromHash);
fromHash();
`;
