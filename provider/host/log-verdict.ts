/**
 * What a pod's log says about its container, when it says anything decisive: a pull that fails
 * (the image unknown, private without credentials, larger than the disk) or a crash loop. Pure: the
 * wait (pod-health.ts) reads the log and acts on the verdict.
 */
import type { PodLogLine } from "../client/schemas/pods.js";

export type ContainerFailureKind = "imageNotFound" | "unauthorized" | "outOfDisk" | "crashLoop";

/**
 * How the log says a pull failed, most specific first: an unauthorized pull of a private image
 * also says the repository "does not exist", and a full disk ends in "No such image". The
 * wording is the Docker daemon's, which the service passes through.
 */
const PULL_FAILURES: readonly { kind: ContainerFailureKind; pattern: RegExp; advice: string }[] = [
  {
    kind: "outOfDisk",
    pattern: /no space left on device/i,
    advice: "the image does not fit the container disk: raise `disk`",
  },
  {
    kind: "unauthorized",
    pattern: /pull access denied|unauthorized|authentication required|denied: requested access/i,
    advice:
      "the registry refused the pull: a private image needs `registry` set to a Registry resource's id (or check the image name)",
  },
  {
    kind: "imageNotFound",
    pattern: /manifest unknown|manifest for \S+ not found|not found: manifest|repository does not exist/i,
    advice: "the image or tag does not exist: check `image`",
  },
];
const PULL_ERROR = /error pulling image|failed to pull|pull access denied|ErrImagePull/i;
const EXITED = /container exited with code (\d+)/i;

/**
 * What a run of log lines says, if anything decisive. With `exitsSince` (a RUNNING pod that must
 * stay up), one exit at or after that instant is already a crash loop.
 */
export function judgeLog(
  lines: readonly PodLogLine[],
  options: { readonly crashLoopRestarts: number; readonly crashLoopWindow: number },
  exitsSince?: number,
): { kind: ContainerFailureKind; lines: string[]; advice: string } | undefined {
  for (const l of lines) {
    if (!PULL_ERROR.test(l.line)) continue;
    const failure = PULL_FAILURES.find((f) => f.pattern.test(l.line));
    if (failure) return { kind: failure.kind, lines: [l.line], advice: failure.advice };
  }
  const exits = lines.filter((l) => EXITED.test(l.line));
  const last = exits.at(-1);
  if (!last) return undefined;
  const first = exitsSince === undefined ? undefined : exits.find((l) => Date.parse(l.ts) >= exitsSince);
  if (first) {
    const before = lines
      .slice(0, lines.indexOf(first))
      .filter((l) => l.source === "container")
      .slice(-3);
    return {
      kind: "crashLoop",
      lines: [...before.map((l) => l.line), first.line],
      advice:
        "its container exited while it was RUNNING and was restarted, a crash loop: fix the image or its args (readiness.settle is how long a container must stay up)",
    };
  }
  const windowStart = Date.parse(last.ts) - options.crashLoopWindow * 1000;
  const recent = exits.filter((l) => Date.parse(l.ts) >= windowStart);
  if (recent.length < options.crashLoopRestarts) return undefined;
  // The container's own last words before its last exit say why; the exits say how often.
  const lastIndex = lines.indexOf(last);
  const before = lines
    .slice(0, lastIndex)
    .filter((l) => l.source === "container")
    .slice(-3);
  return {
    kind: "crashLoop",
    lines: [...before.map((l) => l.line), ...recent.map((l) => l.line)],
    advice: `the container exited ${recent.length} times within ${options.crashLoopWindow} s (failFast.crashLoopRestarts ${options.crashLoopRestarts}): fix the image or its args, or raise failFast.crashLoopRestarts`,
  };
}
