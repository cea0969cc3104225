#!/usr/bin/env node
// Checks that a release tag agrees with the package it would publish, then prints the tag's
// CHANGELOG section (the GitHub release notes). Run from the package root:
//   node .ci/release-notes.mjs v0.3.0
// The tag must be v<package.json version>; CHANGELOG.md must have a dated "## <version> - <date>"
// section; when GITHUB_REPOSITORY is set (in a workflow), package.json's repository must name it,
// because npm refuses provenance for a package whose repository is not the one that built it.
import { readFileSync } from "node:fs";

function fail(message) {
  process.stderr.write(`release: ${message}\n`);
  process.exit(1);
}

const tag = process.argv[2];
if (!tag || !/^v\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$/.test(tag)) {
  fail(`the tag must look like v1.2.3 (got ${tag === undefined ? "nothing" : JSON.stringify(tag)})`);
}
const version = tag.slice(1);
const pkg = JSON.parse(readFileSync("package.json", "utf8"));
if (pkg.version !== version) fail(`tag ${tag} but package.json's version is ${pkg.version}`);

const repository = typeof pkg.repository === "string" ? pkg.repository : pkg.repository?.url;
const slug = /github\.com[/:]([^/]+\/[^/]+?)(\.git)?$/.exec(repository ?? "")?.[1];
if (!slug) fail(`package.json's repository must be a GitHub URL (got ${JSON.stringify(repository)})`);
const running = process.env.GITHUB_REPOSITORY;
if (running && running.toLowerCase() !== slug.toLowerCase()) {
  fail(`package.json's repository is ${slug} but this workflow runs in ${running}`);
}

const lines = readFileSync("CHANGELOG.md", "utf8").split("\n");
const start = lines.findIndex((l) => l.startsWith(`## ${version} `) || l === `## ${version}`);
if (start < 0) fail(`CHANGELOG.md has no "## ${version} - <date>" section`);
if (!/^## \S+ - \d{4}-\d{2}-\d{2}$/.test(lines[start])) {
  fail(`CHANGELOG.md's heading "${lines[start]}" must be "## ${version} - YYYY-MM-DD" for a release`);
}
const next = lines.findIndex((l, i) => i > start && l.startsWith("## "));
const body = lines
  .slice(start + 1, next < 0 ? undefined : next)
  .join("\n")
  .trim();
if (!body) fail(`CHANGELOG.md's section for ${version} is empty`);
process.stdout.write(`${body}\n`);
