import { mkdtemp, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";

import { expect } from "chai";

import { ERRORS } from "../../tasks/error-catalog.js";
import { VipError, isVipError } from "../../tasks/errors.js";
import { ActivityStore } from "../../tasks/indexer/store.js";
import { Deadline, PolicySandbox } from "../../tasks/scoring/sandbox.js";

// The engine under the admission: even SQL that admission would refuse
// cannot reach a file, the network or the engine's settings from here.
describe("the policy sandbox: the engine's own bounds", () => {
  let dir: string;
  let file: string;
  let tempDir: string;
  before(async () => {
    dir = await mkdtemp(path.join(tmpdir(), "vip-sandbox-"));
    file = path.join(dir, "chain-1.duckdb");
    tempDir = await mkdtemp(path.join(dir, "policy-"));
    (await ActivityStore.open(file)).close();
  });
  after(async () => rm(dir, { recursive: true, force: true }));

  const failure = async (sandbox: PolicySandbox, sql: string) =>
    sandbox.connection.run(sql).then(
      () => "ran",
      (e: unknown) => (e instanceof Error ? e.message : String(e)),
    );

  it("reads no file, reaches no network, loads nothing and cannot be unlocked", async () => {
    const sandbox = await PolicySandbox.open(
      file,
      { timeoutSeconds: 10, memoryMb: 128 },
      { tempDir },
    );
    try {
      expect(
        await failure(sandbox, "select * from read_text('/etc/hostname')"),
      ).to.match(/Permission Error/);
      expect(
        await failure(
          sandbox,
          "select * from read_csv('http://127.0.0.1:9/x.csv')",
        ),
      ).to.match(/Permission Error/);
      expect(await failure(sandbox, "copy (select 1) to 'out.csv'")).to.match(
        /Permission Error/,
      );
      expect(
        await failure(sandbox, "set enable_external_access = true"),
      ).to.match(/locked/);
      expect(await failure(sandbox, "set memory_limit = '100GB'")).to.match(
        /locked/,
      );
      expect(await failure(sandbox, "load httpfs")).to.not.equal("ran");
      const settings = await sandbox.connection.runAndReadAll(
        "select current_setting('TimeZone'), current_setting('memory_limit'), current_setting('temp_directory')",
      );
      const [zone, memory, temp] = settings.getRowsJson()[0] ?? [];
      expect(zone).to.equal("UTC");
      expect(memory).to.match(/^12[0-9](\.\d+)? MiB$/);
      // Its temporary folder is its own, under the data folder, private.
      // Its temporary files go to the run's private folder.
      expect(temp).to.equal(tempDir);
      expect((await stat(tempDir)).mode & 0o077).to.equal(0);
    } finally {
      sandbox.close();
    }
  });

  it("stops a query at its deadline and says which bound it met", async () => {
    const sandbox = await PolicySandbox.open(
      file,
      { timeoutSeconds: 1, memoryMb: 128 },
      { tempDir },
    );
    try {
      const error = await sandbox
        .runBounded(
          "select count(*) from range(1000000000000)",
          new Deadline(1, "slow.sql"),
        )
        .then(
          () => undefined,
          (e: unknown) => e,
        );
      expect(error).to.be.instanceOf(VipError);
      expect(
        isVipError(error, ERRORS.SCORING.RUN.POLICY_TIMEOUT),
        String(error),
      ).to.equal(true);
      expect((error as VipError).params).to.deep.equal({
        file: "slow.sql",
        seconds: 1,
      });
      // The connection answers again after the interrupt.
      const after = await sandbox.connection.runAndReadAll("select 42");
      expect(after.getRowsJson()).to.deep.equal([[42]]);
    } finally {
      sandbox.close();
    }
  });
});
