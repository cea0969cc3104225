/**
 * `runpod-dynamic autostop <state...>`: the watcher that stops a stack's idle GPU pods.
 *
 *   pulumi stack export > state.json && runpod-dynamic autostop state.json        # one pass
 *   runpod-dynamic autostop state.json --watch --interval 5m                       # until Ctrl-C
 *
 * The pods are those the given stack exports declare `autostop` for (autostop/targets.ts); each
 * pass lists the account's pods once, decides (autostop/decide.ts) and stops each pod idle on two
 * passes in a row (autostop/pass.ts). The samples are kept in a file between passes
 * (autostop/memory-file.ts); each stop is a line of the audit log. docs/autostop.md says it all.
 */
import { appendFileSync } from "node:fs";
import type { Command } from "commander";
import { realClock } from "../provider/client/index.js";
import { readMemories, writeMemories } from "./autostop/memory-file.js";
import { autostopPass, type PassResult } from "./autostop/pass.js";
import { type AutostopTarget, autostopTargets } from "./autostop/targets.js";
import { connect } from "./connect.js";
import { UsageError } from "./errors.js";
import { money, type Terminal, table } from "./output.js";
import { addOutputOptions, durationOption, readTextArgument } from "./parse.js";

interface AutostopOptions {
  samples: string;
  audit: string;
  dryRun?: boolean;
  watch?: boolean;
  interval: number;
  maxGap: number;
}

const HELP = `
Input: one or more files \`pulumi stack export\` wrote (- for standard input, read once). Only the
pods they declare autostop for are looked at; each pass makes one list request and one request per
pod it stops. A pod is stopped when every sample of its window (autostop.idleMinutes, by the pod's
own uptime) was under autostop.gpuUtilBelow on every GPU and under autostop.cpuUtilBelow on the CPU,
the samples cover the window with no gap over --max-gap, and a pass before this one found the same:
the first idle pass warns. Never a locked pod; never a pod without a volume unless
autostop.allowDataLoss; terminated only when autostop.action says terminate.

A stopped pod stays stopped: \`pulumi up\` and refresh leave a pod with autostop that the stack did not
stop as it is. \`runpod-dynamic pods start <pod-id>\` brings it back.

--dry-run keeps the samples but stops nothing and writes no audit line.

JSON (one object per pass, a line each with --watch): at, pods (podId, name, stack, verdict,
detail, costPerHour), audit (the audit lines of the pass's stops).
Verdicts: not-running, unreadable, busy, watching, warned, locked, keeps-data, stopped, terminated,
would-stop, would-terminate, failed, gone.`;

/** The targets of every state file; standard input is read once, the files again at each pass. */
function targetReader(files: readonly string[], out: Terminal): () => AutostopTarget[] {
  if (files.filter((f) => f === "-").length > 1)
    throw new UsageError("autostop: standard input (-) can be read once.");
  const stdin = files.includes("-") ? readTextArgument("autostop", "-", out.stdin) : undefined;
  return () =>
    files.flatMap((f) =>
      autostopTargets(
        f === "-" ? (stdin ?? "") : readTextArgument("autostop", f, out.stdin),
        f === "-" ? "standard input" : f,
      ),
    );
}

function humanPass(at: string, result: PassResult): string[] {
  if (result.pods.length === 0) return [`${at}: no pod of these stacks declares autostop.`];
  return [
    `${at}:`,
    ...table(
      [
        { header: "pod" },
        { header: "name" },
        { header: "stack" },
        { header: "verdict" },
        { header: "cost/h", align: "right" },
        { header: "why" },
      ],
      result.pods.map((p) => [
        p.podId,
        p.name,
        p.stack,
        p.verdict,
        p.costPerHour === null ? "" : money(p.costPerHour),
        p.detail,
      ]),
    ),
  ];
}

export function registerAutostop(program: Command, out: Terminal): void {
  addOutputOptions(
    program
      .command("autostop")
      .description("Stop the idle GPU pods the given stacks declare autostop for: one pass, or --watch.")
      .argument("<state...>", "files `pulumi stack export` wrote; - for standard input")
      .option("--samples <file>", "where the samples are kept between passes", "autostop-samples.json")
      .option("--audit <file>", "the audit log: one JSON line per stopped pod", "autostop-audit.jsonl")
      .option("--dry-run", "say what would be stopped; stop nothing")
      .option("--watch", "run a pass every --interval until Ctrl-C")
      .option(
        "--interval <duration>",
        "time between passes with --watch",
        durationOption("--interval", 1000, 86_400_000),
        300_000,
      )
      .option(
        "--max-gap <duration>",
        "the longest time between two samples a window may have (a longer one could hide a busy spell)",
        durationOption("--max-gap", 60_000, 86_400_000),
        2_400_000,
      ),
  )
    .addHelpText("after", HELP)
    .action(async (files: string[], opts: AutostopOptions) => {
      const targets = targetReader(files, out);
      const { api } = connect(out);
      const pass = async () => {
        const at = new Date(realClock.now()).toISOString();
        const result = await autostopPass(api, targets(), readMemories(opts.samples), {
          dryRun: opts.dryRun === true,
          maxGapSeconds: opts.maxGap / 1000,
          now: realClock.now,
        });
        writeMemories(opts.samples, result.memories);
        for (const line of result.audit) appendFileSync(opts.audit, `${JSON.stringify(line)}\n`);
        out.entry({ at, pods: result.pods, audit: result.audit }, humanPass(at, result).join("\n"));
      };
      if (!opts.watch) return pass();
      const stopped = new AbortController();
      const release = out.onInterrupt(() => stopped.abort());
      try {
        while (!stopped.signal.aborted) {
          await pass();
          await realClock.sleep(opts.interval, stopped.signal).catch(() => undefined);
        }
      } finally {
        release();
      }
    });
}
