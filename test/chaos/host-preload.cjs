// Loaded with NODE_OPTIONS=--require into the processes the stand-in engine starts for the chaos
// suite (test/chaos/fleet.test.ts). In the program it only shortens stack traces (below); in the provider host it
// tunes the runtime's host (`host.tune`) before the engine calls it:
// - CHAOS_DEADLINE_MS: a short request deadline, so that injected latency spikes pass it;
// - fast backoff (the emulator's clock runs 50 times faster, p-retry's timers do not), so that a
//   run stays inside the suite's time bound;
// - one `chaos-retry <method> <path> <code>` line on stderr per retry, which the report counts;
// - CHAOS_KILL_AFTER_CREATE=<pod name>: SIGKILL the host right after that pod's create was
//   accepted, while it waits for RUNNING (the kill test).
"use strict";

if ((process.argv[1] ?? "").includes("cmd/run")) {
  // The program. On Node 20.20, util.inspect with colors loops until "Invalid string length" (10 to
  // 25 s of CPU) on a stack frame in `node_modules/@scope/file.ts`, which the Pulumi SDK's source
  // maps produce for every failed resource registration, and the SDK prints those errors with
  // colors (it falls back without them, cmd/run/error.js, pulumi/pulumi#20567). One frame keeps
  // a failed resource from costing half a minute of the suite's time.
  Error.stackTraceLimit = 1;
}

if ((process.argv[1] ?? "").includes("dynamic-provider")) {
  const runtime = require("runpod-dynamic/runtime");
  const deadline = Number(process.env.CHAOS_DEADLINE_MS ?? "");
  runtime.host.tune({
    clientOptions: {
      ...(deadline > 0 ? { deadlineMs: deadline } : {}),
      retry: { minTimeoutMs: 20, maxTimeoutMs: 200 },
      onRetry: (e) => process.stderr.write(`chaos-retry ${e.method} ${e.path} ${e.error.code}\n`),
    },
  });
  const victim = process.env.CHAOS_KILL_AFTER_CREATE;
  if (victim) {
    runtime.host.tune({
      progress: (line) => {
        runtime.stderrProgress(line);
        if (line.startsWith(`runpod Pod ${victim}: created `)) process.kill(process.pid, "SIGKILL");
      },
    });
  }
}
