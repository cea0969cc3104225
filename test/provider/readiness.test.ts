/**
 * A pod is done when it serves, and one that never will fails fast: the Pod provider in-process
 * against the emulator, whose pods really listen on loopback ports and behind its HTTP proxy, and
 * whose log stream says what their containers do.
 */
import { describe, expect, it } from "vitest";
import type { PodInputs, PodOutputs } from "../../provider/resources/pod/types.js";
import { apiFor, type RunningEmulator, thrown } from "../support/emulator.js";
import { freshEmulatorForEachTest, type HostProviders } from "../support/provider.js";
import { WITHOUT_HISTORY_RESOURCES } from "../support/seed-facts.js";

let Pod: HostProviders["Pod"];
const A40 = "NVIDIA A40";

let emu: RunningEmulator;
let progress: string[];
freshEmulatorForEachTest({ firstSeed: 900, seed: WITHOUT_HISTORY_RESOURCES }, (t) => {
  ({ emu, progress } = t);
  Pod = t.providers.Pod;
});

const inputs = (extra: Partial<PodInputs> = {}): PodInputs => ({
  name: "server",
  image: "img:1",
  gpu: { id: A40 },
  ...extra,
});
const live = () => emu.control.snapshot().pods.filter((p) => p.status !== "TERMINATED" && !p.cluster);
const count = (route: string) => emu.control.requests().summary.byRoute[route] ?? 0;
const lines = (id: string) =>
  progress.filter((l) => l.includes(id)).map((l) => l.replace(/\(\d+ s\)/, "(N s)"));

describe("readiness", () => {
  it("PORTS: done once every <port>/tcp has its public address, which comes after RUNNING", async () => {
    emu.control.setSettings({ portMappingMs: 20_000 });
    const res = await Pod.create(inputs({ ports: ["22/tcp", "8888/http"], readiness: { check: "PORTS" } }));
    const outs = res.outs as PodOutputs;
    const ports = (outs.runtime as { ports: { private: number; public: number | null; ip: string | null }[] })
      .ports;
    expect([
      outs.status,
      ports.find((p) => p.private === 22)?.public !== null,
      ports.find((p) => p.private === 22)?.ip,
      outs.ssh.direct?.host,
      progress.some((l) => l.endsWith(`${res.id} RUNNING; waiting for its public ports`)),
    ]).toEqual(["RUNNING", true, "127.0.0.1", "127.0.0.1", true]);
  });

  it("HTTP: waits through the proxy's 502 and the server's 503 until the path answers 2xx", async () => {
    emu.control.setContainerBehaviour({
      image: "vllm:late",
      kind: "start",
      serve: "late",
      serveAfterMs: 60_000,
    });
    const res = await Pod.create(
      inputs({
        image: "vllm:late",
        ports: ["8888/http"],
        readiness: { check: "HTTP", port: 8888, path: "/health" },
      }),
    );
    const answers = await fetch(
      `${emu.proxyUrl.replace("{podId}", res.id).replace("{port}", "8888")}/health`,
    );
    expect([(res.outs as PodOutputs).status, answers.status]).toEqual(["RUNNING", 200]);
    expect(lines(res.id)).toContain(
      `runpod Pod server: ${res.id} RUNNING, waiting for 8888/http /health: 503 (N s)`,
    );
  });

  it("TCP: done once the port accepts a connection on its public address", async () => {
    emu.control.setContainerBehaviour({
      image: "sshd:late",
      kind: "start",
      serve: "late",
      serveAfterMs: 30_000,
    });
    const res = await Pod.create(
      inputs({ image: "sshd:late", ports: ["22/tcp"], readiness: { check: "TCP", port: 22 } }),
    );
    const direct = (res.outs as PodOutputs).ssh.direct;
    const banner = await new Promise<string>((resolve, reject) => {
      const net = require("node:net") as typeof import("node:net");
      const socket = net.connect({ host: direct?.host ?? "", port: direct?.port ?? 0 });
      socket.once("data", (d) => {
        socket.destroy();
        resolve(String(d));
      });
      socket.once("error", reject);
    });
    expect(banner.startsWith("SSH-2.0-")).toBe(true);
    expect(
      lines(res.id).some((l) => /waiting for 22\/tcp: (ECONNREFUSED|no public address yet) \(N s\)$/.test(l)),
    ).toBe(true);
  });

  it("a check that never passes: fails at readiness.timeout, names the last answer, and the pod is terminated", async () => {
    emu.control.setContainerBehaviour({ image: "silent:1", kind: "start", serve: "never" });
    const err = await thrown(
      Pod.create(
        inputs({
          image: "silent:1",
          ports: ["8888/http"],
          readiness: { check: "HTTP", port: 8888, timeout: 120 },
        }),
      ),
    );
    expect(err.message).toMatch(
      /^Pod server: pod (\w+) did not become ready \(pod \1 is RUNNING but did not pass its readiness check 8888\/http \/ \(last answer: 502\) within readiness\.timeout \(120 s\); last status RUNNING\)\. It was terminated so it does not bill/,
    );
    expect(live()).toEqual([]);
  });

  it("the watcher still reads the API once per interval for every waiting pod, whatever their checks", async () => {
    emu.control.setContainerBehaviour({
      image: "slow:1",
      kind: "start",
      serve: "late",
      serveAfterMs: 60_000,
    });
    const t0 = emu.control.now();
    const made = await Promise.all(
      [0, 1, 2, 3].map((i) =>
        Pod.create(
          inputs({
            name: `s${i}`,
            image: "slow:1",
            ports: ["8888/http"],
            readiness: { check: "HTTP", port: 8888 },
          }),
        ),
      ),
    );
    // Four pods probed for 60 emulator seconds: their probes went to the proxy, never to the API,
    // and the reads that went to the API were shared lists, not one read per pod (the last pod
    // left waiting alone may be read on its own once).
    // While only probes decide, the watcher reads at its longest interval (10 s): over the wait,
    // one list per 10 s, plus the reads of the placement and the settle before the probes took
    // over (16 in all over about 100 s here). A watcher that ignored the relaxed pace read 84.
    const waitedSeconds = (emu.control.now() - t0) / 1000;
    expect(made.length).toBe(4);
    expect(count("GET /v2/pods/:id")).toBeLessThanOrEqual(1);
    expect(count("GET /v2/pods")).toBeLessThanOrEqual(Math.ceil(waitedSeconds / 10) + 10);
  });

  it("is checked before any API call: the port must be exposed with the right type", async () => {
    const res = await Pod.check(
      inputs(),
      inputs({ ports: ["8888/http"], readiness: { check: "TCP", port: 8888, timeout: 900 } }),
    );
    expect(res.failures).toEqual([
      { property: "", reason: "readiness.port: 8888/tcp must be in ports for check TCP" },
      { property: "", reason: "readiness.timeout: (900 s) must fit within timeouts.create (600 s)" },
    ]);
  });
});

describe("failing fast on what the pod's log says", () => {
  const failFast = { afterSeconds: 5 };

  it("an image that does not exist: fails within seconds quoting the pull error, and the pod is terminated", async () => {
    emu.control.setContainerBehaviour({ image: "ghcr.io/acme/typo:1", kind: "imageNotFound" });
    const t0 = emu.control.now();
    const err = await thrown(Pod.create(inputs({ image: "ghcr.io/acme/typo:1", failFast })));
    expect(err.message).toContain(
      "cannot start: the image or tag does not exist: check `image`. From its log:",
    );
    expect(err.message).toContain(
      "error pulling image: Error response from daemon: manifest for ghcr.io/acme/typo:1 not found",
    );
    expect(err.message).toContain("It was terminated so it does not bill");
    // Placed after 2 s, read after 5 more: far from the 600 s create timeout.
    expect([live(), (emu.control.now() - t0) / 1000 < 30]).toEqual([[], true]);
  });

  it("the first pod of a kind nobody runs: its log, followed from the create, fails it before afterSeconds", async () => {
    emu.control.setContainerBehaviour({ image: "typo:5", kind: "imageNotFound" });
    const t0 = emu.control.now();
    const err = await thrown(Pod.create(inputs({ image: "typo:5", failFast: { afterSeconds: 300 } })));
    expect([
      err.message.includes("manifest for typo:5 not found"),
      (emu.control.now() - t0) / 1000 < 60,
      count("GET /v2/pods/:id/logs"),
    ]).toEqual([true, true, 1]);
  });

  it("a private image without credentials points at Registry", async () => {
    emu.control.setContainerBehaviour({ image: "registry.acme.io/private:2", kind: "unauthorized" });
    const err = await thrown(Pod.create(inputs({ image: "registry.acme.io/private:2", failFast })));
    expect(err.message).toContain("a private image needs `registry` set to a Registry resource's id");
    expect(err.message).toContain("pull access denied for registry.acme.io/private");
  });

  it("an image larger than the container disk says to raise disk", async () => {
    emu.control.setContainerBehaviour({ image: "huge:1", kind: "outOfDisk", sizeGb: 200 });
    const err = await thrown(Pod.create(inputs({ image: "huge:1", disk: 20, failFast })));
    expect(err.message).toContain("the image does not fit the container disk: raise `disk`");
    expect(err.message).toContain("no space left on device");
  });

  it("a crash loop while waiting for a probe: the container's last words and its exits, secrets scrubbed", async () => {
    emu.control.setContainerBehaviour({
      image: "crashy:1",
      kind: "crashLoop",
      runMs: 5000,
      lines: ["loading weights with token sk_live_SECRET_0123", "RuntimeError: CUDA error: out of memory"],
    });
    emu.control.setSettings({ crashRestartMs: 2000 });
    const err = await thrown(
      Pod.create(
        inputs({
          image: "crashy:1",
          env: { HF_TOKEN: "sk_live_SECRET_0123" },
          ports: ["8888/http"],
          readiness: { check: "HTTP", port: 8888 },
          failFast: { crashLoopRestarts: 3, crashLoopWindow: 60 },
        }),
      ),
    );
    expect(err.message).toContain("the container exited 3 times within 60 s");
    expect(err.message).toContain("RuntimeError: CUDA error: out of memory");
    expect(err.message).toContain("container exited with code 1");
    expect(err.message).toContain("loading weights with token [redacted]");
    expect(err.message).not.toContain("sk_live_SECRET_0123");
    expect(live()).toEqual([]);
  });

  it("kept when asked: a partial failure naming the pod, so state records it", async () => {
    emu.control.setContainerBehaviour({ image: "typo:2", kind: "imageNotFound" });
    const err = await thrown<{ id?: string; message: string }>(
      Pod.create(inputs({ image: "typo:2", failFast, onCreateFailure: "keep" })),
    );
    expect([live().map((p) => p.id), err.message.includes("It was kept as you asked")]).toEqual([
      [err.id],
      true,
    ]);
  });

  it("an API without the log route (404): the wait falls back to the status, silently", async () => {
    emu.control.setContainerBehaviour({ image: "typo:3", kind: "imageNotFound" });
    emu.control.addFault({ path: "^/v2/pods/[^/]+/logs$", status: 404 });
    const err = await thrown(Pod.create(inputs({ image: "typo:3", failFast, timeouts: { create: 60 } })));
    expect(err.message).toMatch(
      /did not reach RUNNING within timeouts\.create \(60 s\); last status STARTING/,
    );
    expect(progress.filter((l) => /log/i.test(l))).toEqual([]);
  });

  it("slow pods of one image read one log between them, and none once one of them runs", async () => {
    emu.control.setSettings({ startingMs: 60_000 });
    const made = await Promise.all(
      [0, 1, 2, 3].map((i) => Pod.create(inputs({ name: `slow${i}`, image: "big:1", failFast }))),
    );
    expect([made.length, count("GET /v2/pods/:id/logs")]).toEqual([4, 1]);
  });

  it("pods of an image that cannot be pulled each fail, quoting the log", async () => {
    emu.control.setContainerBehaviour({ image: "typo:4", kind: "imageNotFound" });
    const results = await Promise.allSettled(
      [0, 1, 2].map((i) => Pod.create(inputs({ name: `bad${i}`, image: "typo:4", failFast }))),
    );
    expect(
      results.map(
        (r) => r.status === "rejected" && String(r.reason.message).includes("manifest for typo:4 not found"),
      ),
    ).toEqual([true, true, true]);
    expect(live()).toEqual([]);
  });

  it("a healthy pod of a kind seen before never opens its log", async () => {
    // The first of a kind nobody runs has its log followed to see it start (watcher.ts).
    await Pod.create(inputs({ name: "first" }));
    const opened = count("GET /v2/pods/:id/logs");
    await Pod.create(inputs({ name: "second" }));
    expect([opened, count("GET /v2/pods/:id/logs")]).toEqual([1, 1]);
  });

  it("with failFast.logs false, a pod of a kind nobody runs is not followed either", async () => {
    await Pod.create(inputs({ failFast: { logs: false } }));
    expect(count("GET /v2/pods/:id/logs")).toBe(0);
  });
});

describe("the default: RUNNING, and staying up for readiness.settle", () => {
  const crashLoop = (image: string, runMs: number) =>
    emu.control.setContainerBehaviour({
      image,
      kind: "crashLoop",
      runMs,
      lines: ["starting server with token sk_live_SETTLE_42", "ImportError: No module named 'vllm'"],
    });

  it("a container that exits while RUNNING fails the create as a crash loop, quoting its log; the pod is terminated", async () => {
    crashLoop("crashy:2", 10_000);
    emu.control.setSettings({ crashRestartMs: 2000 });
    const err = await thrown(
      Pod.create(inputs({ image: "crashy:2", env: { HF_TOKEN: "sk_live_SETTLE_42" } })),
    );
    expect(err.message).toContain(
      "its container exited while it was RUNNING and was restarted, a crash loop: fix the image or its args (readiness.settle is how long a container must stay up)",
    );
    expect(err.message).toContain("ImportError: No module named 'vllm'");
    expect(err.message).toContain("container exited with code 1");
    expect(err.message).toContain("starting server with token [redacted]");
    expect(err.message).not.toContain("sk_live_SETTLE_42");
    expect(live()).toEqual([]);
    expect(
      progress.some((l) => /RUNNING; waiting 30 s to see it stay up \(readiness\.settle\)$/.test(l)),
    ).toBe(true);
  });

  it("without the log (failFast.logs false), the restart alone fails it, saying what was seen", async () => {
    crashLoop("crashy:3", 10_000);
    emu.control.setSettings({ crashRestartMs: 2000 });
    const err = await thrown(Pod.create(inputs({ image: "crashy:3", failFast: { logs: false } })));
    expect(err.message).toMatch(
      /did not stay up: (it went from RUNNING to STARTING|its container started again at \S+) within 30 s of RUNNING \(readiness\.settle\), a crash loop; its log could not be read to say why/,
    );
    expect([count("GET /v2/pods/:id/logs"), live()]).toEqual([0, []]);
  });

  it("a container that stays up past settle is done; settle 0 is done at RUNNING", async () => {
    crashLoop("crashy:4", 120_000);
    const settled = await Pod.create(inputs({ image: "crashy:4" }));
    const at = emu.control.now();
    const eager = await Pod.create(inputs({ name: "eager", image: "crashy:4", readiness: { settle: 0 } }));
    expect([(settled.outs as PodOutputs).status, (eager.outs as PodOutputs).status]).toEqual([
      "RUNNING",
      "RUNNING",
    ]);
    // Settling costs a few reads, not one a second.
    expect(count("GET /v2/pods/:id") + count("GET /v2/pods")).toBeLessThan(20);
    expect(emu.control.now() - at).toBeLessThan(30_000);
  });
});

describe("placement that survives a lying catalog", () => {
  /** The catalog rates A40 HIGH in `lying` data centers that have none free; `spare` has some. */
  async function lyingCatalog(): Promise<{ lying: string[]; spare: string }> {
    const dcs = await apiFor(emu).catalog.dataCenters({ include: ["GPU_AVAILABILITY"] });
    const withA40 = dcs.filter((dc) => dc.gpuAvailability?.some((a) => a.id === A40)).map((dc) => dc.id);
    const [spare, ...lying] = withA40;
    for (const dc of lying)
      emu.control.setCapacity({ dataCenterId: dc, gpuTypeId: A40, free: 0, availability: "HIGH" });
    emu.control.setCapacity({ dataCenterId: spare ?? "", gpuTypeId: A40, free: 4, availability: "NONE" });
    return { lying, spare: spare ?? "" };
  }

  it("availability orders candidates and never removes one: a NONE data center is still tried, last", async () => {
    const { spare } = await lyingCatalog();
    const res = await Pod.create(inputs({ placement: { gpuTypeIds: [A40] } }));
    expect((res.outs as PodOutputs).dataCenterId).toBe(spare);
  });

  it("anyDataCenter: after every pinned candidate failed for capacity, one unpinned create succeeds", async () => {
    const { lying, spare } = await lyingCatalog();
    const res = await Pod.create(
      inputs({ placement: { gpuTypeIds: [A40], minAvailability: "LOW", anyDataCenter: true } }),
    );
    const creates = emu.control.requests().entries.filter((e) => e.route === "POST /v2/pods");
    expect([(res.outs as PodOutputs).dataCenterId, creates.length]).toEqual([spare, lying.length + 1]);
  });

  it("every candidate out of capacity: the error says so, with every attempt, in the service's words", async () => {
    const { lying } = await lyingCatalog();
    const err = await thrown(
      Pod.create(inputs({ placement: { gpuTypeIds: [A40], minAvailability: "LOW" } })),
    );
    expect(err.message).toContain(
      'Every candidate is out of capacity ("There are no longer any instances available',
    );
    for (const dc of lying) expect(err.message).toContain(`${dc} / ${A40}`);
  });

  it("retryFor: walks the list again, backing off, until capacity comes back", async () => {
    const { lying } = await lyingCatalog();
    const first = lying[0] ?? "";
    setTimeout(() => emu.control.setCapacity({ dataCenterId: first, gpuTypeId: A40, free: 2 }), 700);
    const res = await Pod.create(
      inputs({ placement: { gpuTypeIds: [A40], minAvailability: "LOW", retryFor: 600 } }),
    );
    expect((res.outs as PodOutputs).dataCenterId).toBe(first);
    expect(
      progress.some((l) =>
        /every candidate is out of capacity \(round 1\); walking the list again in 10s/.test(l),
      ),
    ).toBe(true);
  });
});
