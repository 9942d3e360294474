import { expect } from "chai";

import { isOlderVersion } from "../../tasks/indexer/node-version.js";

describe("minievm versions: older than v1.1.9, whose JSON-RPC never indexed logs of Cosmos-native transactions", () => {
  const cases: [string, boolean | undefined][] = [
    ["v1.0.0-rc.0-kami", true],
    ["v1.0.2", true],
    ["v1.1.8", true],
    ["v1.1.9-rc.1", true],
    ["v0.9.99", true],
    ["v1.1.9", false],
    ["1.1.9", false],
    ["v1.1.9+build.7", false],
    ["v1.1.10", false],
    ["v1.2.14", false],
    ["v1.3.0-alpha.3", false],
    ["v2.0.0", false],
    ["main", undefined],
    ["v1.2", undefined],
    ["", undefined],
  ];
  for (const [version, older] of cases)
    it(`${JSON.stringify(version)}: ${older === undefined ? "not a version" : older ? "older" : "not older"}`, () => {
      expect(isOlderVersion(version, "v1.1.9")).to.equal(older);
    });
});
