/**
 * What a pod serves on its ports, so readiness checks go to the pod for real, as they would
 * against the service, and never to a mock.
 *
 * - Public mapping: a pod's `<port>/tcp` entries get their public address some time after its
 *   container starts (`portMappingMs` at most, drawn per pod from the emulator's seeded random
 *   source, on the emulator clock). Until then `runtime.ports` shows them with `public: null`,
 *   which is what users of the service see on community cloud.
 * - TCP: every exposed `<port>/tcp` is a real listener on the emulator's host at the public port
 *   the pod's machine was given (drawn from 10000-59999), opened while the container serves that
 *   port and closed otherwise (connection refused, as a pod whose daemon is not up). A port some
 *   other program holds stays closed until it is free again.
 * - HTTP: one listener plays RunPod's HTTP proxy. `GET /{podId}-{port}/<path>` answers as the
 *   proxy does: 502 while nothing listens behind it, then what the image's responder says.
 *
 * What a container serves follows its image's behaviour rule (containers.ts): `answers` as soon
 * as the container is up, `late` (answers 503, "loading", until `serveAfterMs` after it started,
 * like a model server warming up), or `never` (nothing listens).
 */
import { createServer as createHttpServer, type Server as HttpServer } from "node:http";
import { createServer as createTcpServer, type Socket, type Server as TcpServer } from "node:net";
import type { Store } from "../store/store.js";
import { settle } from "./lifecycle.js";
import { portsMapped, portsOf, serving } from "./ports.js";

/** How often (real ms) listeners are opened or closed to follow the pods on the emulator clock. */
const RECONCILE_MS = 25;

interface TcpPort {
  server: TcpServer | undefined;
  port: number;
  sockets: Set<Socket>;
}

export class PodNetwork {
  private readonly tcp = new Map<string, TcpPort>();
  private proxy: HttpServer | undefined;
  private timer: NodeJS.Timeout | undefined;
  private reconciling = false;
  /** `http://host:port/{podId}-{port}`: where a pod's HTTP ports are reached. */
  proxyUrl = "";

  constructor(
    private readonly state: Store,
    readonly host: string,
  ) {}

  async start(): Promise<void> {
    this.proxy = createHttpServer((req, res) => {
      const answer = this.proxyAnswer(req.url ?? "/");
      res.writeHead(answer.status, { "content-type": "text/plain; charset=utf-8" });
      res.end(answer.body);
    });
    await new Promise<void>((resolve) => this.proxy?.listen(0, this.host, resolve));
    const address = this.proxy.address();
    const port = typeof address === "object" && address ? address.port : 0;
    this.proxyUrl = `http://${this.host}:${port}/{podId}-{port}`;
    this.timer = setInterval(() => void this.reconcile(), RECONCILE_MS);
    this.timer.unref();
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    const closing = [...this.tcp.values()].map((t) => this.closeListener(t));
    this.tcp.clear();
    if (this.proxy) {
      this.proxy.closeAllConnections();
      closing.push(new Promise<void>((resolve) => this.proxy?.close(() => resolve())));
    }
    await Promise.all(closing);
  }

  private proxyAnswer(url: string): { status: number; body: string } {
    const m = /^\/([a-z0-9]+)-(\d+)(\/.*)?$/.exec(url.split("?")[0] ?? "");
    const pod = m ? this.state.pods.get(m[1] ?? "") : undefined;
    const port = Number(m?.[2]);
    if (!pod || !portsOf(pod, "http").includes(port)) return { status: 404, body: "404 page not found" };
    settle(this.state, pod);
    switch (serving(this.state, pod, this.state.now())) {
      case "down":
        return { status: 502, body: "502 Bad Gateway: nothing is listening on this port yet" };
      case "loading":
        return { status: 503, body: "503 Service Unavailable: loading" };
      case "up":
        return { status: 200, body: `ok ${pod.id} ${port}${m?.[3] ?? "/"}` };
    }
  }

  /** Opens each TCP listener whose port is served and mapped now, closes the others. */
  private async reconcile(): Promise<void> {
    if (this.reconciling) return;
    this.reconciling = true;
    try {
      const t = this.state.now();
      const wanted = new Set<string>();
      for (const pod of this.state.pods.values()) {
        if (pod.status === "TERMINATED") continue;
        const tcpPorts = portsOf(pod, "tcp");
        if (tcpPorts.length === 0) continue;
        settle(this.state, pod);
        const open = portsMapped(this.state, pod, t) && serving(this.state, pod, t) === "up";
        for (const p of tcpPorts) {
          const key = `${pod.id}:${p}`;
          wanted.add(key);
          let entry = this.tcp.get(key);
          if (!entry) {
            entry = { server: undefined, port: pod.machine.portMap[p] ?? 0, sockets: new Set() };
            this.tcp.set(key, entry);
          }
          if (open && !entry.server && entry.port > 0) await this.open(entry, p === 22);
          else if (!open && entry.server) await this.closeListener(entry);
        }
      }
      for (const [key, entry] of this.tcp) {
        if (wanted.has(key)) continue;
        this.tcp.delete(key);
        await this.closeListener(entry);
      }
    } finally {
      this.reconciling = false;
    }
  }

  private async open(entry: TcpPort, ssh: boolean): Promise<void> {
    const server = createTcpServer((socket) => {
      entry.sockets.add(socket);
      socket.on("close", () => entry.sockets.delete(socket));
      socket.on("error", () => socket.destroy());
      // An SSH daemon speaks first; any other service waits for its client.
      if (ssh) socket.write("SSH-2.0-OpenSSH_9.6 runpod-emulator\r\n");
    });
    const ok = await new Promise<boolean>((resolve) => {
      server.once("error", () => resolve(false));
      server.listen(entry.port, this.host, () => resolve(true));
    });
    // The port is taken: the next round tries again.
    if (ok) entry.server = server;
  }

  private async closeListener(entry: TcpPort): Promise<void> {
    const server = entry.server;
    entry.server = undefined;
    for (const s of entry.sockets) s.destroy();
    entry.sockets.clear();
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
