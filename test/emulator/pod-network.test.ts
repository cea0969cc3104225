/**
 * What pods serve: public port mappings that come after RUNNING, real loopback listeners for
 * `<port>/tcp`, and the HTTP proxy for `<port>/http`, each following the image's behaviour on the
 * emulator clock.
 */
import { connect } from "node:net";
import { describe, expect, it } from "vitest";
import { type Api, frozenEmulatorForEachTest, type RunningEmulator } from "../support/emulator.js";

let emu: RunningEmulator;
let api: Api;
frozenEmulatorForEachTest({ settings: { portMappingMs: 4000 } }, (t) => {
  ({ emu, api } = t);
});

const create = (image: string, ports: string[]) =>
  api.pods.create({ name: "srv", image, gpu: { id: "NVIDIA A40" }, ports });

/** Connects and reads what the server says first; "refused" (or another code) when nothing listens. */
function knock(port: number): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect({ host: "127.0.0.1", port });
    socket.setTimeout(1000, () => {
      socket.destroy();
      resolve("silent");
    });
    socket.once("data", (d) => {
      socket.destroy();
      resolve(String(d).trim());
    });
    socket.once("error", (err) => resolve((err as { code?: string }).code ?? "error"));
  });
}

/** The listeners follow the clock every 25 real ms: ask until the answer is the expected one. */
async function eventually(
  ask: () => Promise<string | number>,
  expected: string | number,
): Promise<string | number> {
  let last: string | number = "";
  for (let i = 0; i < 80; i += 1) {
    last = await ask();
    if (last === expected) return last;
    await new Promise((r) => setTimeout(r, 25));
  }
  return last;
}

const proxy = (podId: string, port: number, path = "/") =>
  fetch(`${emu.proxyUrl.replace("{podId}", podId).replace("{port}", String(port))}${path}`).then(
    (r) => r.status,
  );

describe("the pod network", () => {
  it("maps a <port>/tcp publicly some seconds after RUNNING, and the port listens only then", async () => {
    const pod = await create("img:1", ["22/tcp"]);
    emu.control.advance(5000);
    const running = await api.pods.get(pod.id);
    emu.control.advance(4000);
    const mapped = await api.pods.get(pod.id);
    const port = mapped.ssh?.direct?.port ?? 0;
    expect([running.status, running.ssh?.direct, running.runtime?.ports?.[0]?.public ?? null]).toEqual([
      "RUNNING",
      null,
      null,
    ]);
    expect([mapped.ssh?.direct?.host, mapped.runtime?.ports?.[0]?.public === port]).toEqual([
      "127.0.0.1",
      true,
    ]);
    expect(await eventually(() => knock(port), "SSH-2.0-OpenSSH_9.6 runpod-emulator")).toBe(
      "SSH-2.0-OpenSSH_9.6 runpod-emulator",
    );
    await api.pods.action(pod.id, "stop");
    expect(await eventually(() => knock(port), "ECONNREFUSED")).toBe("ECONNREFUSED");
  });

  it("the proxy: 404 for a port the pod does not expose, 502 until the container is up, then 200", async () => {
    const pod = await create("img:1", ["8888/http"]);
    const before = [await proxy(pod.id, 9999), await proxy(pod.id, 8888)];
    emu.control.advance(5000);
    expect([...before, await proxy(pod.id, 8888, "/health")]).toEqual([404, 502, 200]);
  });

  it("an image that answers late: 503 until serveAfterMs after its start; one that never does: 502", async () => {
    emu.control.setContainerBehaviour({
      image: "late:1",
      kind: "start",
      serve: "late",
      serveAfterMs: 30_000,
    });
    emu.control.setContainerBehaviour({ image: "never:1", kind: "start", serve: "never" });
    const late = await create("late:1", ["8888/http", "22/tcp"]);
    const never = await create("never:1", ["8888/http"]);
    emu.control.advance(5000 + 4000);
    const early = [await proxy(late.id, 8888), await proxy(never.id, 8888)];
    const sshPort = (await api.pods.get(late.id)).ssh?.direct?.port ?? 0;
    const sshEarly = await knock(sshPort);
    emu.control.advance(30_000);
    expect([...early, sshEarly, await proxy(late.id, 8888), await proxy(never.id, 8888)]).toEqual([
      503,
      502,
      "ECONNREFUSED",
      200,
      502,
    ]);
    expect(await eventually(() => knock(sshPort), "SSH-2.0-OpenSSH_9.6 runpod-emulator")).toBe(
      "SSH-2.0-OpenSSH_9.6 runpod-emulator",
    );
  });

  it("a crash-looping container never answers, unless its rule says it does", async () => {
    emu.control.setContainerBehaviour({ image: "crash:1", kind: "crashLoop", runMs: 60_000 });
    const pod = await create("crash:1", ["8888/http"]);
    emu.control.advance(6000);
    expect([(await api.pods.get(pod.id)).status, await proxy(pod.id, 8888)]).toEqual(["RUNNING", 502]);
  });
});
