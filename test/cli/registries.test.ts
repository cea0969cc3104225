/**
 * `runpod-dynamic registries list|delete` against the emulator (`/v2/registries`): ids and names
 * only, never the credentials.
 */
import { beforeEach, describe, expect, it } from "vitest";
import { parse as parseYaml } from "yaml";
import { cliHarnessForAllTests, errorText, runCli } from "../support/cli.js";

const PASSWORD = "hunter2-registry-password";
const USERNAME = "registry-robot-user";

const h = cliHarnessForAllTests({ clockScale: 0 });
beforeEach(() => {
  h.emu.control.reset();
});

const create = (name: string) => h.api.createRegistry({ name, username: USERNAME, password: PASSWORD });

describe("registries list", () => {
  it("prints id and name of each credential, never the username or password", async () => {
    const ghcr = await create("ghcr");
    const docker = await create("dockerhub");
    const json = await h.json<unknown>(["registries", "list"]);
    expect(h.routes()).toEqual(["base GET /v2/registries"]);
    expect(json).toEqual([
      { id: ghcr.id, name: "ghcr" },
      { id: docker.id, name: "dockerhub" },
    ]);
    const table = await h.run(["registries", "list"]);
    const yaml = await h.run(["registries", "list", "-o", "yaml"]);
    expect(table.stdout).toBe(
      [`${"ID".padEnd(ghcr.id.length)}  NAME`, `${ghcr.id}  ghcr`, `${docker.id}  dockerhub`, ""].join("\n"),
    );
    expect(parseYaml(yaml.stdout)).toEqual(json);
    for (const res of [table, yaml]) {
      expect(res.stdout + res.stderr).not.toContain(PASSWORD);
      expect(res.stdout + res.stderr).not.toContain(USERNAME);
    }
  });

  it("says when there are none", async () => {
    const res = await h.run(["registries", "list"]);
    expect([res.code, res.stdout]).toEqual([0, "No registry credentials.\n"]);
  });
});

describe("registries delete", () => {
  it("deletes by id", async () => {
    const ghcr = await create("ghcr");
    const json = await h.json<unknown>(["registries", "delete", ghcr.id]);
    expect([h.routes(), json, h.emu.state.registries.has(ghcr.id)]).toEqual([
      [`base DELETE /v2/registries/${ghcr.id}`],
      { id: ghcr.id, deleted: true },
      false,
    ]);
    const again = await create("ghcr");
    const table = await h.run(["registries", "delete", again.id]);
    expect([table.code, table.stdout]).toEqual([0, `Deleted registry credential ${again.id}.\n`]);
  });

  it("a credential a pod pulls with is refused (400), exit 1 with the API's detail", async () => {
    const ghcr = await create("ghcr");
    const pod = await h.api.createPod({
      name: "private",
      image: "ghcr.io/acme/app:1",
      registry: ghcr.id,
      gpu: { id: "NVIDIA A40" },
    });
    const res = await h.run(["registries", "delete", ghcr.id]);
    expect([res.code, res.stdout, errorText(res)]).toEqual([
      1,
      "",
      expect.stringMatching(
        new RegExp(
          `^Error: DELETE /v2/registries/${ghcr.id}: 400 Bad Request: Registry credential '${ghcr.id}' is in use by pod '${pod.id}' and cannot be deleted\\.`,
        ),
      ),
    ]);
    expect(h.emu.state.registries.has(ghcr.id)).toBe(true);
  });

  it("an unknown id is the API's 404, exit 1", async () => {
    const res = await h.run(["registries", "delete", "nope", "--json"]);
    expect([res.code, JSON.parse(res.stderr)]).toEqual([
      1,
      expect.objectContaining({ code: "RUNPOD_NOT_FOUND", status: 404 }),
    ]);
  });

  it.each([
    [["registries", "delete"], "error: missing required argument 'id'"],
    [["registries", "create"], "error: unknown command 'create'"],
  ])("%j exits 2 and sends nothing", async (args, message) => {
    const res = await h.run(args);
    expect([res.code, errorText(res), h.recorder.requests]).toEqual([2, message, []]);
  });

  it.each([
    [["registries", "list"], "JSON fields (one object per credential): id, name."],
    [["registries", "delete"], "JSON fields: id, deleted."],
  ])("%j --help names the JSON fields", async (path, text) => {
    const res = await runCli([...path, "--help"]);
    expect([res.code, res.stdout]).toEqual([0, expect.stringContaining(text)]);
  });
});
