import { SHARD_CALLBACK } from "../shards.js";

/**
 * `shards.ts`'s shard of an address and its file, as the lookup computes
 * them in the browser, and the loading of a shard: a script element (what a
 * page may load from `file://` under its Content-Security-Policy), whose
 * file calls `vipShard` with its rows. Kept equal to the TypeScript by
 * test/report/browser-scripts.test.ts, which runs this text.
 */
export const SHARDS_JS = `
function shardOf(hex, bits) {
  var hash = 0x811c9dc5;
  for (var i = 0; i < 40; i += 2)
    hash = Math.imul(hash ^ parseInt(hex.substr(i, 2), 16), 0x01000193);
  hash ^= hash >>> 16;
  hash = Math.imul(hash, 0x85ebca6b);
  hash ^= hash >>> 13;
  hash = Math.imul(hash, 0xc2b2ae35);
  hash ^= hash >>> 16;
  return (hash >>> 0) & (Math.pow(2, bits) - 1);
}
function shardFile(stage, bits, shard) {
  var digits = Math.max(1, Math.ceil(bits / 4));
  return "data/stage-" + stage + "/" + shard.toString(16).padStart(digits, "0") + ".js";
}
var loadedShards = {};
var waitingShards = {};
window.${SHARD_CALLBACK} = function (stage, shard, text) {
  var rows = new Map();
  if (text !== "")
    text.split("\\n").forEach(function (line) {
      var fields = line.split(",");
      rows.set(fields[0], { score: fields[1], rank: fields[2] });
    });
  var resolve = waitingShards[stage + "/" + shard];
  delete waitingShards[stage + "/" + shard];
  if (resolve) resolve(rows);
};
function loadShard(stage, bits, shard) {
  var file = shardFile(stage, bits, shard);
  if (!loadedShards[file])
    loadedShards[file] = new Promise(function (resolve, reject) {
      var key = stage + "/" + shard;
      waitingShards[key] = resolve;
      var script = document.createElement("script");
      script.src = file;
      script.onerror = function () {
        delete loadedShards[file];
        reject(new Error("could not load " + file));
      };
      // A script runs before its load event: one that did not hand over
      // its rows (a cut file) would leave the lookup waiting for ever.
      script.onload = function () {
        if (!waitingShards[key]) return;
        delete waitingShards[key];
        delete loadedShards[file];
        reject(new Error(file + " holds no shard"));
      };
      document.head.appendChild(script);
    });
  return loadedShards[file];
}
/** The row of \`hex\` (40 lowercase digits) in a stage of the site, or null. */
function findRow(stage, hex) {
  return loadShard(stage.stage, stage.bits, shardOf(hex, stage.bits)).then(
    function (rows) { return rows.get(hex) || null; });
}
`;
