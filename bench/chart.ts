/**
 * The bench's figures as one SVG (bench/results/fleet.svg, shown in bench/README.md): grouped bars per
 * fleet size for ours and each baseline (time to all RUNNING in multiples of T, requests, median
 * detection lag), the refresh and destroy rows of a RUNNING fleet, and the fleet through the real
 * CLI: `up` against the quota's bound per parallelism, requests and host memory per N, the fleet as
 * users write it (5e) and several stacks on one account (5b). Drawn from the result files, like the
 * figures of bench/README.md (bench/readme.ts writes both). Plain SVG text: no library, no fonts
 * beyond the reader's sans-serif.
 */
import { upOf } from "./cli-program.js";
import type { FleetResult } from "./fleet.js";
import { type BenchResults, fleetRuns, stacksRunLabels, stacksRuns, usersRows } from "./result-files.js";

interface Panel {
  readonly title: string;
  readonly groups: readonly string[];
  readonly series: readonly { readonly name: string; readonly values: readonly number[] }[];
  readonly format: (v: number) => string;
}

const COLORS = ["#2563eb", "#f59e0b", "#9ca3af"];
const W = 300;
const H = 190;
const PAD = { top: 28, bottom: 34, left: 8 };

const esc = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;");

function panel(p: Panel, x0: number, y0: number): string {
  const max = Math.max(1e-9, ...p.series.flatMap((s) => s.values.filter(Number.isFinite)));
  const plotH = H - PAD.top - PAD.bottom;
  const groupW = (W - PAD.left * 2) / p.groups.length;
  const barW = (groupW - 10) / p.series.length;
  const parts = [
    `<text x="${x0 + W / 2}" y="${y0 + 16}" text-anchor="middle" font-weight="bold">${esc(p.title)}</text>`,
  ];
  p.groups.forEach((g, gi) => {
    const gx = x0 + PAD.left + gi * groupW + 5;
    p.series.forEach((s, si) => {
      const v = s.values[gi] ?? Number.NaN;
      if (!Number.isFinite(v)) return;
      const h = (v / max) * plotH;
      const x = gx + si * barW;
      const y = y0 + PAD.top + plotH - h;
      parts.push(
        `<rect x="${x.toFixed(1)}" y="${y.toFixed(1)}" width="${(barW - 1).toFixed(1)}" height="${h.toFixed(1)}" fill="${COLORS[si % COLORS.length]}"><title>${esc(`${s.name}, ${g}: ${p.format(v)}`)}</title></rect>`,
        `<text x="${(x + barW / 2).toFixed(1)}" y="${(y - 2).toFixed(1)}" text-anchor="middle" font-size="8">${esc(p.format(v))}</text>`,
      );
    });
    parts.push(
      `<text x="${(gx + (groupW - 10) / 2).toFixed(1)}" y="${y0 + H - PAD.bottom + 14}" text-anchor="middle">${esc(g)}</text>`,
    );
  });
  return parts.join("\n");
}

/** The chart of the bench's result files. */
export function benchChart(results: BenchResults): string {
  const { full } = results;
  const { afterUp } = full;
  const { fleet } = fleetRuns(results);
  const cli = full.programThroughCli;
  const users = usersRows(results);
  const stacks = stacksRuns(results);
  const caption = `T = ${full.parameters.tSeconds} s, 60 requests/min; ${full.startedAt.slice(0, 10)}, ${full.cores} cores, node ${full.node}`;
  const strategies = [...new Set(fleet.map((r) => r.strategy))];
  const sizes = [...new Set(fleet.map((r) => r.n))];
  const pick = (s: string, n: number, f: (r: FleetResult) => number) =>
    f(fleet.find((r) => r.strategy === s && r.n === n) ?? ({} as FleetResult));
  const series = (f: (r: FleetResult) => number) =>
    strategies.map((s) => ({ name: s, values: sizes.map((n) => pick(s, n, f)) }));
  const groups = sizes.map((n) => `N = ${n}`);
  const afterStrategies = [...new Set(afterUp.map((r) => r.strategy))];
  const phases = [...new Set(afterUp.map((r) => r.phase))];
  const panels: Panel[] = [
    { title: "All RUNNING (x T)", groups, series: series((r) => r.ratioToT), format: (v) => v.toFixed(2) },
    {
      title: "API requests",
      groups,
      series: series((r) => r.requests),
      format: (v) => String(Math.round(v)),
    },
    {
      title: "Median detection lag (s)",
      groups,
      series: series((r) => r.lagMedian),
      format: (v) => v.toFixed(1),
    },
    {
      title: `After up, N = ${afterUp[0]?.n ?? 0}: requests`,
      groups: phases,
      series: afterStrategies.map((s) => ({
        name: s,
        values: phases.map(
          (ph) => afterUp.find((r) => r.phase === ph && r.strategy === s)?.requests ?? Number.NaN,
        ),
      })),
      format: (v) => String(Math.round(v)),
    },
    {
      title: "pulumi up: all RUNNING (x the quota's bound)",
      groups: cli.parallelism.map(
        (r) => `${r.resources} ${r.parallel === "default" ? "default" : "--parallel"}`,
      ),
      series: [
        {
          name: "from the first create",
          values: cli.parallelism.map((r) =>
            r.fleet ? (r.fleet.allRunning - r.fleet.firstCreate) / r.fleet.bound : Number.NaN,
          ),
        },
      ],
      format: (v) => v.toFixed(2),
    },
    {
      title: "up --parallel N: requests (blue), host peak MB (amber)",
      groups: cli.scale.map((r) => `N = ${r.resources}`),
      series: [
        { name: "requests", values: cli.scale.map((r) => upOf(r)?.up.requests ?? Number.NaN) },
        { name: "provider host peak MB", values: cli.scale.map((r) => upOf(r)?.up.peaks.host ?? Number.NaN) },
      ],
      format: (v) => String(Math.round(v)),
    },
    {
      title: "5e: requests/pod (blue), x bound (amber)",
      groups: users.map((r) => `${r.resources} ${r.shape === "shared-volume" ? "+ volume" : "fallbacks"}`),
      series: [
        {
          name: "requests per pod",
          values: users.map((r) => (upOf(r)?.up.requests ?? Number.NaN) / r.resources),
        },
        {
          name: "x the quota's bound",
          values: users.map((r) => {
            const figures = upOf(r);
            return figures ? figures.fromFirst / figures.t.bound : Number.NaN;
          }),
        },
      ],
      format: (v) => v.toFixed(2),
    },
    {
      title: "5b, 4 x 50: up 429s (blue), lag median s (amber)",
      groups: stacksRunLabels(stacks),
      series: [
        { name: "429s", values: stacks.map((r) => r.up.status429) },
        { name: "median lag (s)", values: stacks.map((r) => r.fleet.lagMedian) },
      ],
      format: (v) => v.toFixed(1),
    },
  ];
  const width = W * 2 + 20;
  const height = H * 4 + 60;
  const legend = strategies
    .map(
      (s, i) =>
        `<rect x="${10 + i * 120}" y="${height - 22}" width="10" height="10" fill="${COLORS[i % COLORS.length]}"/><text x="${24 + i * 120}" y="${height - 13}">${esc(s === "ours" ? "runpod-dynamic" : s)}</text>`,
    )
    .join("\n");
  const body = panels.map((p, i) => panel(p, (i % 2) * (W + 20), Math.floor(i / 2) * H)).join("\n");
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="sans-serif" font-size="10">`,
    `<rect width="100%" height="100%" fill="white"/>`,
    body,
    legend,
    `<text x="${width - 10}" y="${height - 13}" text-anchor="end" fill="#555">${esc(caption)}</text>`,
    "</svg>",
    "",
  ].join("\n");
}
