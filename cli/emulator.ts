/** `runpod-dynamic emulator`: the local RunPod API, until stopped. */
import { readFileSync } from "node:fs";
import type { Command } from "commander";
import type { SeedInput } from "../emulator/index.js";
import { messageOf } from "../provider/client/errors.js";
import { CliError, UsageError } from "./errors.js";
import type { Terminal } from "./output.js";
import { intOption, numberOption } from "./parse.js";

export function registerEmulator(program: Command, out: Terminal): void {
  program
    .command("emulator")
    .description("Start the local RunPod API emulator on 127.0.0.1 and print its addresses and test API key.")
    .option(
      "--port <n>",
      "base_url port; rest_url and serverless_url use the next two (default: free ports)",
      intOption("--port", 0, 65_533),
    )
    .option("--seed <file>", "JSON file whose top-level keys replace the default seed's")
    .option(
      "--clock-scale <x>",
      "run emulator time this many times faster than real time",
      numberOption("--clock-scale", 0, 10_000),
      1,
    )
    .option("--control", "serve the /__emulator/ control plane (tests, benchmarks)", false)
    .action(async (opts: { port?: number; seed?: string; clockScale: number; control: boolean }) => {
      if (opts.clockScale === 0 && !opts.control) {
        throw new UsageError(
          "--clock-scale 0 freezes emulator time, so no pod would ever start; add --control to move it through /__emulator/clock, or give a scale above 0.",
        );
      }
      // Loaded here, not at the top: building the emulator's GraphQL schema costs every other
      // command its start-up time.
      const { startEmulator, seedProblems } = await import("../emulator/index.js");
      let seed: Partial<SeedInput> | undefined;
      if (opts.seed) {
        let text: string;
        try {
          text = readFileSync(opts.seed, "utf8");
        } catch (err) {
          throw new CliError(`--seed ${opts.seed}: ${messageOf(err)}`);
        }
        let parsed: unknown;
        try {
          parsed = JSON.parse(text);
        } catch (err) {
          throw new UsageError(`--seed ${opts.seed}: not JSON: ${messageOf(err)}`);
        }
        const problems = seedProblems(parsed);
        if (problems.length > 0) {
          throw new UsageError(`--seed ${opts.seed}:\n${problems.map((p) => `  ${p}`).join("\n")}`);
        }
        seed = parsed as Partial<SeedInput>;
      }
      const port = opts.port;
      const emu = await startEmulator({
        ...(seed ? { seed } : {}),
        ...(port ? { ports: { base: port, rest: port + 1, serverless: port + 2 } } : {}),
        clockScale: opts.clockScale,
        control: opts.control,
      });
      out.line("RunPod API emulator running. Stop it with Ctrl-C.");
      out.line(`  base_url        ${emu.baseUrl}`);
      out.line(`  rest_url        ${emu.restUrl}   (REST v1, retired: answers 410 naming the v2 route)`);
      out.line(`  serverless_url  ${emu.serverlessUrl}`);
      out.line(`  pod proxy       ${emu.proxyUrl}   (pods' HTTP ports, for readiness probes)`);
      out.line(`  test API key    ${emu.apiKey}`);
      if (opts.control) out.line(`  control plane   ${emu.baseUrl}/__emulator/`);
      out.line("");
      out.line("Point the provider, the CLI or `pulumi up` at it:");
      for (const [k, v] of Object.entries(emu.env())) out.line(`export ${k}=${v}`);
      await new Promise<void>((resolve) => {
        const stopWaiting = out.onInterrupt(() => {
          stopWaiting();
          resolve();
        });
      });
      await emu.close();
    });
}
