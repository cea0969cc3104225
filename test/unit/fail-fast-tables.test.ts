/** What a pod's log and a 400's detail say, read as tables: log-verdict.ts and isCapacityError. */
import { describe, expect, it } from "vitest";
import type { PodLogLine } from "../../provider/client/schemas/pods.js";
import { clientLib, loadDist } from "../support/dist.js";

const { judgeLog } = loadDist<typeof import("../../provider/host/log-verdict.js")>(
  "provider/host/log-verdict.js",
);
const { isCapacityError, RunpodApiError, ERROR_CODES } = clientLib;

const OPTIONS = { crashLoopRestarts: 3, crashLoopWindow: 60 };
let tick = 0;
const at = (seconds: number, line: string, source: "system" | "container" = "system"): PodLogLine => ({
  source,
  line,
  ts: new Date(Date.UTC(2026, 10, 23, 12, 0, seconds, tick++ % 1000)).toISOString(),
});
const pull = (detail: string) => at(1, `error pulling image: Error response from daemon: ${detail}`);

describe("judgeLog", () => {
  it.each([
    ["manifest for acme/x:1 not found: manifest unknown: manifest unknown", "imageNotFound"],
    [
      "pull access denied for acme/private, repository does not exist or may require 'docker login'",
      "unauthorized",
    ],
    ['Head "https://ghcr.io/v2/acme/x/manifests/1": unauthorized: authentication required', "unauthorized"],
    [
      "failed to register layer: write /var/lib/docker/overlay2/ab/diff: no space left on device",
      "outOfDisk",
    ],
  ])("a pull error %j is %s", (detail, kind) => {
    expect(judgeLog([at(0, "create container acme/x:1"), pull(detail)], OPTIONS)?.kind).toBe(kind);
  });

  it("says nothing of a pull that succeeded, nor of the words outside a pull error", () => {
    const lines = [
      at(0, "1: Pulling from acme/x"),
      at(1, "Status: Downloaded newer image for acme/x:1"),
      at(2, "GET /health 404 not found", "container"),
      at(3, "no space left on device? checked: 40 GB free", "container"),
    ];
    expect(judgeLog(lines, OPTIONS)).toBeUndefined();
  });

  it("a crash loop: N exits within the window, quoting the container's last words and the exits", () => {
    const cycle = (s: number) => [
      at(s, "start container"),
      at(s + 1, "RuntimeError: CUDA error: out of memory", "container"),
      at(s + 5, "container exited with code 1"),
    ];
    const two = [...cycle(0), ...cycle(10)];
    const spread = [...cycle(0), ...cycle(100), ...cycle(200)];
    const three = [...cycle(0), ...cycle(10), ...cycle(20)];
    expect([judgeLog(two, OPTIONS), judgeLog(spread, OPTIONS)]).toEqual([undefined, undefined]);
    expect(judgeLog(three, OPTIONS)).toMatchObject({
      kind: "crashLoop",
      lines: [
        "RuntimeError: CUDA error: out of memory",
        "RuntimeError: CUDA error: out of memory",
        "RuntimeError: CUDA error: out of memory",
        "container exited with code 1",
        "container exited with code 1",
        "container exited with code 1",
      ],
    });
  });
});

describe("judgeLog while a RUNNING pod must stay up (exitsSince)", () => {
  const run = (s: number) => [
    at(s, "start container"),
    at(s + 1, "ImportError: No module named 'vllm'", "container"),
    at(s + 3, "container exited with code 1"),
  ];
  const since = (seconds: number) => Date.UTC(2026, 10, 23, 12, 0, seconds);
  it.each<[string, PodLogLine[], number, string[] | undefined]>([
    [
      "one exit after it started running is a crash loop",
      run(10),
      since(10),
      ["ImportError: No module named 'vllm'", "container exited with code 1"],
    ],
    ["an exit before it started running (the boot an update replaced) is not", run(0), since(10), undefined],
    [
      "the first exit since is quoted, with the container's last words before it",
      [...run(0), ...run(10)],
      since(5),
      [
        "ImportError: No module named 'vllm'",
        "ImportError: No module named 'vllm'",
        "container exited with code 1",
      ],
    ],
  ])("%s", (_name, lines, exitsSince, quoted) => {
    expect(judgeLog(lines, OPTIONS, exitsSince)?.lines).toEqual(quoted);
  });
});

describe("isCapacityError", () => {
  const bad = (detail: string, status = 400) =>
    new RunpodApiError({
      code: status === 400 ? ERROR_CODES.BAD_REQUEST : ERROR_CODES.SERVER_ERROR,
      message: detail,
      status,
      detail,
      outcome: "rejected",
    });
  it.each([
    [
      "There are no longer any instances available with the requested specifications. Please refresh and try again.",
      true,
    ],
    ["There are no instances available with the request specifications. Please try again later.", true],
    ["There are no instances available with the requested specifications.", true],
    ["cpu.vcpuCount 3 must be a power of two.", false],
  ])("%j: %s", (detail, capacity) => {
    expect(isCapacityError(bad(detail))).toBe(capacity);
  });
  it("only a 400 is a capacity answer", () => {
    expect(
      isCapacityError(bad("There are no instances available with the request specifications.", 500)),
    ).toBe(false);
  });
});
