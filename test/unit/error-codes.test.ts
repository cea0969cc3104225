/**
 * Every error class has a stable code of its own and is recognised by it: a program and the
 * provider host can load two copies of a module, so `instanceof` would miss an error made by the
 * other copy. The scan below keeps `instanceof` and duck-typed fields out of the code that decides.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { loadDist, REPO_ROOT } from "../support/dist.js";

type Errors = typeof import("../../provider/client/errors.js");
type WaitFailures = typeof import("../../provider/host/wait-failure.js");
type ContainerWatch = typeof import("../../provider/host/pod-health.js");
type Placement = typeof import("../../provider/host/placement.js");
type Jobs = typeof import("../../provider/program/jobs.js");
type ApiJobs = typeof import("../../provider/client/api/jobs.js");

/** Each module loaded the way the provider host loads it, and again as a second copy would be. */
function load() {
  return {
    errors: loadDist<Errors>("provider/client/errors.js"),
    waitFailures: loadDist<WaitFailures>("provider/host/wait-failure.js"),
    containers: loadDist<ContainerWatch>("provider/host/pod-health.js"),
    placement: loadDist<Placement>("provider/host/placement.js"),
    jobs: loadDist<Jobs>("provider/program/jobs.js"),
    apiJobs: loadDist<ApiJobs>("provider/client/api/jobs.js"),
  };
}

const m = load();
const { ERROR_CODES, FAILURE_CODES, RunpodApiError } = m.errors;
const job = { id: "job-1", status: "IN_QUEUE" };

/** One of each error class, the code it must carry, and the guard that recognises it. */
const CASES: [string, Error, string, (err: unknown) => boolean][] = [
  [
    "WaitFailure",
    new m.waitFailures.WaitFailure("pod-1", "CLOSED", undefined, undefined, "closed"),
    FAILURE_CODES.WAIT_FAILED,
    m.waitFailures.isWaitFailure,
  ],
  [
    "ContainerFailure",
    new m.containers.ContainerFailure("pod-1", "crashLoop", ["exit 1"], "crash loop"),
    FAILURE_CODES.CONTAINER_FAILED,
    m.containers.isContainerFailure,
  ],
  [
    "JobFailedError",
    new m.jobs.JobFailedError("ep-1", { ...job, status: "FAILED" }),
    FAILURE_CODES.JOB_FAILED,
    m.jobs.isJobFailed,
  ],
  [
    "JobWaitTimeoutError",
    new m.apiJobs.JobWaitTimeoutError("ep-1", job as never, 1000),
    ERROR_CODES.JOB_WAIT_TIMEOUT,
    m.apiJobs.isJobWaitTimeout,
  ],
  [
    "PlacementError",
    new m.placement.PlacementError(
      new RunpodApiError({ code: ERROR_CODES.PAYMENT_REQUIRED, message: "402", status: 402 }),
      "balance exhausted",
      [],
    ),
    ERROR_CODES.PLACEMENT_FAILED,
    m.placement.isPlacementError,
  ],
];

describe("error codes", () => {
  it("every code is distinct, API answers and other failures alike", () => {
    const all = [...Object.values(ERROR_CODES), ...Object.values(FAILURE_CODES)];
    expect(new Set(all).size).toBe(all.length);
  });

  it.each(CASES)("%s carries its own code and only its guard recognises it", (name, err, code) => {
    expect([
      (err as { code?: unknown }).code,
      CASES.filter(([, , , guard]) => guard(err)).map(([n]) => n),
    ]).toEqual([code, [name]]);
  });

  it("a guard recognises the error by its code alone: a copy made by another module instance", () => {
    const copy = new Error("from another copy of the module");
    Object.assign(copy, { name: "WaitFailure", code: FAILURE_CODES.WAIT_FAILED, reason: "TIMEOUT" });
    const other = new Error("same name, another code");
    Object.assign(other, { name: "WaitFailure", code: "SOMETHING_ELSE" });
    expect([m.waitFailures.isWaitFailure(copy), m.waitFailures.isWaitFailure(other)]).toEqual([true, false]);
  });

  it("a placement failure keeps the decisive answer's code, status and detail", () => {
    const err = CASES.find(([n]) => n === "PlacementError")?.[1] as InstanceType<Placement["PlacementError"]>;
    expect([err.code, err.answerCode, err.status, m.errors.isRunpodApiError(err)]).toEqual([
      ERROR_CODES.PLACEMENT_FAILED,
      ERROR_CODES.PAYMENT_REQUIRED,
      402,
      true,
    ]);
  });
});

/** Every .ts file under a folder. */
function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return name.endsWith(".ts") && !name.endsWith(".d.ts") ? [path] : [];
  });
}

const ERROR_CLASSES = [
  "RunpodApiError",
  "PlacementError",
  "WaitFailure",
  "ContainerFailure",
  "JobFailedError",
  "JobWaitTimeoutError",
];

describe("errors are recognised by code in the code that decides", () => {
  it("no instanceof of an error class and no duck-typed `.tried` in provider/ and cli/", () => {
    const found: string[] = [];
    const instanceOf = new RegExp(`instanceof\\s+(${ERROR_CLASSES.join("|")})\\b`);
    for (const file of [...sources(join(REPO_ROOT, "provider")), ...sources(join(REPO_ROOT, "cli"))]) {
      readFileSync(file, "utf8")
        .split("\n")
        .forEach((line, i) => {
          if (instanceOf.test(line) || /\{\s*tried\?:/.test(line)) {
            found.push(`${relative(REPO_ROOT, file)}:${i + 1}: ${line.trim()}`);
          }
        });
    }
    expect(found).toEqual([]);
  });

  it("an error's message is taken by one helper, not written out again", () => {
    const found: string[] = [];
    for (const file of [...sources(join(REPO_ROOT, "provider")), ...sources(join(REPO_ROOT, "cli"))]) {
      if (file.endsWith(join("client", "errors.ts"))) continue;
      readFileSync(file, "utf8")
        .split("\n")
        .forEach((line, i) => {
          if (/(\w+) instanceof Error \? \1\.message : String\(\1\)/.test(line)) {
            found.push(`${relative(REPO_ROOT, file)}:${i + 1}`);
          }
        });
    }
    expect(found).toEqual([]);
  });
});
