import { expect } from "chai";

import { parseListen } from "../../tasks/autopilot/service.js";
import { ERRORS } from "../../tasks/error-catalog.js";
import { isVipError } from "../../tasks/errors.js";

describe("stage:autopilot --listen", () => {
  it("binds 127.0.0.1 for a port alone, and the host it is told otherwise", () => {
    expect(parseListen("9464")).to.deep.equal({
      host: "127.0.0.1",
      port: 9464,
    });
    expect(parseListen("0.0.0.0:9464")).to.deep.equal({
      host: "0.0.0.0",
      port: 9464,
    });
    expect(parseListen("[::1]:9464")).to.deep.equal({
      host: "::1",
      port: 9464,
    });
    expect(parseListen("localhost:0")).to.deep.equal({
      host: "localhost",
      port: 0,
    });
  });

  it("refuses what is not a port, naming the option and an example", () => {
    for (const bad of [
      "",
      "http://127.0.0.1:9464",
      "9464x",
      "70000",
      "host:",
    ]) {
      let error: unknown;
      try {
        parseListen(bad);
      } catch (caught) {
        error = caught;
      }
      if (!isVipError(error, ERRORS.AUTOPILOT.SETUP.LISTEN_INVALID))
        expect.fail(`--listen "${bad}": ${String(error)}`);
      expect(error.params.value).to.equal(bad);
    }
  });
});
