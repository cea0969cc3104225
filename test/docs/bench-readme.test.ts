/**
 * bench/README.md's figures, and the chart it shows, are what bench/readme.ts writes from the
 * committed result files, so a figure typed by hand, or results committed without their figures or
 * chart, fail here.
 */

import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadDist, REPO_ROOT } from "../support/dist.js";

const { FIGURES_END, FIGURES_START, figuresMarkdown, withFigures } =
  loadDist<typeof import("../../bench/readme.js")>("bench/readme.js");
const { readBenchResults, stacksRunLabels } =
  loadDist<typeof import("../../bench/result-files.js")>("bench/result-files.js");
const { benchChart } = loadDist<typeof import("../../bench/chart.js")>("bench/chart.js");

describe("bench/README.md", () => {
  it("holds exactly the figures of bench/results/*.json: run node dist/bench/readme.js", () => {
    const readme = readFileSync(join(REPO_ROOT, "bench", "README.md"), "utf8");
    const figures = figuresMarkdown(readBenchResults(join(REPO_ROOT, "bench", "results")));
    expect(readme).toBe(withFigures(readme, figures));
    expect(figures).toContain("| runpod-dynamic | 200 |");
  });

  it("shows exactly the chart of bench/results/*.json, 5b and 5e among its panels", () => {
    const chart = benchChart(readBenchResults(join(REPO_ROOT, "bench", "results")));
    expect(readFileSync(join(REPO_ROOT, "bench", "results", "fleet.svg"), "utf8")).toBe(chart);
    expect([chart.includes("5e: requests/pod"), chart.includes("a key each")]).toEqual([true, true]);
  });

  it("labels 5b's runs by their keys, numbered where those keys ran more than once (--runs N)", () => {
    const results = readBenchResults(join(REPO_ROOT, "bench", "results"));
    const one = results.stacks?.stacks;
    const four = results.stacksFour?.stacks;
    expect(one && four).toBeTruthy();
    if (!one || !four) return;
    expect(stacksRunLabels([one, one, four])).toEqual(["one key, run 1", "one key, run 2", "a key each"]);
    expect(stacksRunLabels([one, four, four])).toEqual(["one key", "a key each, run 1", "a key each, run 2"]);
  });

  it("keeps the prose around the block and refuses a page without the markers", () => {
    const page = `# Bench\n\nprose\n\n${FIGURES_START}\n\nold | figures\n\n${FIGURES_END}\n\nafter\n`;
    expect(withFigures(page, "new")).toBe(
      `# Bench\n\nprose\n\n${FIGURES_START}\n\nnew\n\n${FIGURES_END}\n\nafter\n`,
    );
    expect(() => withFigures("# Bench\n", "new")).toThrow(/has no figures block/);
  });
});
