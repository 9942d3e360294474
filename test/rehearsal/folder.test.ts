import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";

import { expect } from "chai";

import { ERRORS } from "../../tasks/error-catalog.js";
import { freshRehearsalFolders } from "../../tasks/rehearsal/folder.js";
import { refusal } from "../helpers/failure.js";

describe("the rehearsal's folder in the project", () => {
  let project: string;
  beforeEach(async () => {
    project = await mkdtemp(path.join(tmpdir(), "vip-rehearsal-folder-"));
  });
  afterEach(async () => {
    await rm(project, { recursive: true, force: true });
  });
  const root = () => path.join(project, "vip-rehearsal");

  it("is made with its parts and a marker that says it is the rehearsal's", async () => {
    const folders = await freshRehearsalFolders(project);
    expect(folders.root).to.equal(root());
    expect(existsSync(path.join(root(), ".vip-rehearsal"))).to.equal(true);
    for (const dir of [folders.journal, folders.scores, folders.correction])
      expect(existsSync(dir), dir).to.equal(true);
  });

  it("is emptied when an earlier run made it: the rerun starts as the first did", async () => {
    const first = await freshRehearsalFolders(project);
    await writeFile(path.join(first.journal, "stage-15.jsonl"), "{}\n");
    const again = await freshRehearsalFolders(project);
    expect(await readdir(again.journal)).to.deep.equal([]);
  });

  it("is taken when it exists empty", async () => {
    await mkdir(root());
    await freshRehearsalFolders(project);
    expect(existsSync(path.join(root(), ".vip-rehearsal"))).to.equal(true);
  });

  it("refuses a folder of that name holding someone's files, and deletes none of them", async () => {
    await mkdir(root());
    const theirs = path.join(root(), "notes.txt");
    await writeFile(theirs, "mine\n");
    const error = await refusal(
      freshRehearsalFolders(project),
      ERRORS.REHEARSE.GENERAL.FOLDER_NOT_REHEARSALS,
    );
    expect(error.params.folder).to.equal(root());
    expect(await readdir(root())).to.deep.equal(["notes.txt"]);
  });
});
