import { readdir } from "node:fs/promises";
import path from "node:path";

import { exists } from "@nomicfoundation/hardhat-utils/fs";

import { ERRORS } from "../error-catalog.js";
import { VipError } from "../errors.js";
import { readManifest, type ReportManifest } from "./manifest.js";
import { readPolicyText, type PolicyText } from "./policy-file.js";
import { readScoreFile, type ScoreFile } from "../scores/read.js";
import { finalScoreFile, liveScoreFile } from "../scores/score-files.js";
import { manifestFile } from "../scoring/publish.js";

/**
 * One stage's files, found and checked before any score is read: its score
 * file's path, its manifest and the policy the manifest names.
 */
export interface StageSource {
  stage: bigint;
  /** Whether the stage's file is its final one (`stage-N.final.csv`). */
  final: boolean;
  scoresPath: string;
  /** Absent when no `stage-N.manifest.json` lies beside the file. */
  manifest?: { path: string; value: ReportManifest; bytes: Buffer };
  /** The policy the manifest names; present whenever the manifest is. */
  policy?: PolicyText;
}

export const SCORE_FILE = /^stage-(0|[1-9]\d*)(\.final)?\.csv$/;

/** The stages that have a score file in `dir`, in order. */
async function stagesIn(dir: string): Promise<bigint[]> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    throw new VipError(ERRORS.REPORT.SITE.SCORES_DIR_UNREADABLE, { dir });
  }
  const stages = new Set<bigint>();
  for (const name of names) {
    const match = SCORE_FILE.exec(name);
    if (match?.[1] !== undefined) stages.add(BigInt(match[1]));
  }
  if (stages.size === 0)
    throw new VipError(ERRORS.REPORT.SITE.NO_SCORE_FILES, { dir });
  return [...stages].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

/**
 * A stage's score file (the final one once there is one, else the live
 * one), its manifest and the policy the manifest names, checked: a
 * manifest that is not one, a policy missing or not the one the manifest
 * names (by sha256) is refused. The scores themselves are read later, one
 * stage at a time (`readStageScores`).
 */
async function stageSource(
  scoresDir: string,
  policyPath: string,
  stage: bigint,
): Promise<StageSource> {
  const finalPath = finalScoreFile(scoresDir, stage);
  const final = await exists(path.resolve(finalPath));
  const scoresPath = final ? finalPath : liveScoreFile(scoresDir, stage);
  const manifestPath = manifestFile(scoresDir, stage);
  const manifest = await readManifest(manifestPath);
  if (manifest === undefined) return { stage, final, scoresPath };
  const policy = await readPolicyText(policyPath, manifest.value, manifestPath);
  return {
    stage,
    final,
    scoresPath,
    manifest: { path: manifestPath, ...manifest },
    policy,
  };
}

/**
 * The stage's scores, read and validated (a malformed file is refused with
 * the reader's own error, every problem with its line), and checked against
 * the manifest: one that does not describe the file by name, stage,
 * sha256, count and total is refused naming both.
 */
export async function readStageScores(source: StageSource): Promise<ScoreFile> {
  const scores = await readScoreFile(source.scoresPath, { allowEmpty: true });
  if (source.manifest !== undefined)
    checkManifest(
      source.manifest.value,
      source.manifest.path,
      scores,
      source.stage,
    );
  return scores;
}

function checkManifest(
  manifest: ReportManifest,
  manifestPath: string,
  scores: ScoreFile,
  stage: bigint,
): void {
  const name = path.basename(scores.path);
  const total = scores.table.totalScore().toString();
  const problem =
    manifest.stage !== stage.toString()
      ? `it is the manifest of stage ${manifest.stage}`
      : manifest.output.file !== name
        ? `it names the file ${manifest.output.file}`
        : manifest.output.sha256 !== scores.sha256
          ? `the file's sha256 is ${scores.sha256}, the manifest's ${manifest.output.sha256}`
          : manifest.output.addresses !== scores.table.length
            ? `the file holds ${scores.table.length} addresses, ` +
              `the manifest says ${manifest.output.addresses}`
            : manifest.output.total !== total
              ? `the file's total is ${total}, the manifest's ${manifest.output.total}`
              : undefined;
  if (problem !== undefined)
    throw new VipError(ERRORS.REPORT.SITE.MANIFEST_MISMATCH, {
      manifest: manifestPath,
      file: scores.path,
      problem,
    });
}

/**
 * Every stage's sources in `scoresDir`, in stage order, each manifest and
 * policy checked.
 */
export async function stageSources(
  scoresDir: string,
  policyPath: string,
): Promise<StageSource[]> {
  const sources: StageSource[] = [];
  for (const stage of await stagesIn(scoresDir))
    sources.push(await stageSource(scoresDir, policyPath, stage));
  return sources;
}
