/**
 * `runpod-dynamic registries list|delete` against the emulator (`/v2/registries`): ids and names
 * only, never the credentials.
 */
import { beforeEach, describe, expect, it } from "vitest";
import { parse as parseYaml } from "yaml";
import { errorText } from "../support/cli.js";
import { cliHarnessForAllTests, runCommand } from "../support/cli-in-process.js";

const PASSWORD = "hunter2-registry-password";
const USERNAME = "registry-robot-user";

const h = cliHarnessForAllTests({ clockScale: 0 });
beforeEach(() => {
  h.emu.control.reset();
});

const create = (name: string) => h.api.registries.create({ name, username: USERNAME, password: PASSWORD });

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
    const pod = await h.api.pods.create({
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
    const res = await runCommand([...path, "--help"]);
    expect([res.code, res.stdout]).toEqual([0, expect.stringContaining(text)]);
  });
});

describe("registries delegations", () => {
  const ARN = "arn:aws:ecr:us-east-2:418399314813:repository/runpod/deployment";
  const IMAGE_URI = "123456789012.dkr.ecr.eu-west-1.amazonaws.com/team/app:v2";
  const delegation = (id: string, over: Record<string, unknown>) => ({
    id,
    name: null,
    repository: "runpod/deployment",
    tag: "latest",
    awsRegion: "us-east-2",
    awsUser: "418399314813",
    dockerRegistryUri: "418399314813.dkr.ecr.us-east-2.amazonaws.com",
    image: "418399314813.dkr.ecr.us-east-2.amazonaws.com/runpod/deployment:latest",
    delegatorUserId: expect.stringMatching(/^user_/),
    createdAt: new Date(h.emu.control.now()).toISOString(),
    ...over,
  });

  it("create from the repository's ARN sends it as the resource, with the name", async () => {
    const created = await h.json<{ id: string }>([
      "registries",
      "delegations",
      "create",
      ARN,
      "--name",
      "deploy",
    ]);
    expect(h.recorder.requests.map((r) => [r.method, r.url, r.body])).toEqual([
      ["POST", "/v2/registries/delegations", { resource: ARN, name: "deploy" }],
    ]);
    expect(created).toEqual(delegation(created.id, { name: "deploy" }));
    expect(h.emu.state.delegations.has(created.id)).toBe(true);
  });

  it("create from the image reference people push to turns it into the ARN, tag included", async () => {
    const res = await h.run(["registries", "delegations", "create", IMAGE_URI]);
    const [sent] = h.recorder.requests;
    expect(sent?.body).toEqual({ resource: "arn:aws:ecr:eu-west-1:123456789012:repository/team/app:v2" });
    const [id] = [...h.emu.state.delegations.keys()];
    expect([res.code, res.stderr, res.stdout]).toEqual([
      0,
      "",
      [
        `Created ECR delegation ${id}.`,
        "",
        "Repository  team/app",
        "Tag         v2",
        "Region      eu-west-1",
        "AWS user    123456789012",
        `Image       ${IMAGE_URI}`,
        "",
        `Revoke it with: runpod-dynamic registries delegations delete ${id}`,
        "",
      ].join("\n"),
    ]);
  });

  it.each([
    [
      "a China-region image",
      "123456789012.dkr.ecr.cn-north-1.amazonaws.com.cn/app",
      "arn:aws-cn:ecr:cn-north-1:123456789012:repository/app",
    ],
    [
      "a GovCloud image",
      "123456789012.dkr.ecr.us-gov-west-1.amazonaws.com/a/b",
      "arn:aws-us-gov:ecr:us-gov-west-1:123456789012:repository/a/b",
    ],
    ["an ARN with surrounding spaces", `  ${ARN} `, ARN],
  ])("%s becomes resource %s", async (_name, given, resource) => {
    h.emu.control.addFault({ method: "POST", path: "^/v2/registries/delegations$", status: 503 });
    await h.run(["registries", "delegations", "create", given]);
    h.emu.control.clearFaults();
    expect(h.recorder.requests[0]?.body).toEqual({ resource });
  });

  it("list prints every delegation; delete (or revoke) removes one", async () => {
    const empty = await h.run(["registries", "delegations", "list"]);
    expect([empty.code, empty.stdout]).toEqual([0, "No ECR delegations.\n"]);
    const first = await h.api.delegations.create({ resource: ARN, name: "deploy" });
    const second = await h.api.delegations.create({
      resource: "arn:aws:ecr:eu-west-1:123456789012:repository/team/app:v2",
    });
    const list = await h.json<unknown[]>(["registries", "delegations", "list"]);
    expect(h.routes()).toEqual(["base GET /v2/registries/delegations"]);
    expect(list).toEqual([
      delegation(first.id, { name: "deploy" }),
      delegation(second.id, {
        repository: "team/app",
        tag: "v2",
        awsRegion: "eu-west-1",
        awsUser: "123456789012",
        dockerRegistryUri: "123456789012.dkr.ecr.eu-west-1.amazonaws.com",
        image: IMAGE_URI,
      }),
    ]);
    const created = `${new Date(h.emu.control.now()).toISOString().slice(0, 16).replace("T", " ")} UTC`;
    const table = await h.run(["registries", "delegations", "list"]);
    expect(table.stdout).toBe(
      [
        `ID            NAME    IMAGE${" ".repeat(66)}CREATED`,
        `${first.id}  deploy  418399314813.dkr.ecr.us-east-2.amazonaws.com/runpod/deployment:latest  ${created}`,
        `${second.id}          ${IMAGE_URI.padEnd(69)}  ${created}`,
        "",
      ].join("\n"),
    );
    const deleted = await h.json<unknown>(["registries", "delegations", "delete", first.id]);
    expect([h.routes(), deleted]).toEqual([
      [`base DELETE /v2/registries/delegations/${first.id}`],
      { id: first.id, deleted: true },
    ]);
    const revoked = await h.run(["registries", "delegations", "revoke", second.id]);
    expect([revoked.code, revoked.stdout, h.emu.state.delegations.size]).toEqual([
      0,
      `Revoked ECR delegation ${second.id}.\n`,
      0,
    ]);
  });

  it("an unknown id is the API's 404, exit 1", async () => {
    const res = await h.run(["registries", "delegations", "delete", "nope"]);
    expect([res.code, errorText(res)]).toEqual([
      1,
      "Error: DELETE /v2/registries/delegations/nope: 404 Not Found: Delegation 'nope' was not found. It does not exist or this API key cannot see it.",
    ]);
  });

  const RULE =
    "give its ARN (arn:aws:ecr:<region>:<12-digit account>:repository/<name>) or its image reference (<account>.dkr.ecr.<region>.amazonaws.com/<name>[:<tag>]), the name in lower case.";
  it.each([
    ["docker.io/library/nginx", ""],
    ["123456789012.dkr.ecr.us-east-2.amazonaws.com/Team/App", ""],
    ["12345.dkr.ecr.us-east-2.amazonaws.com/app", ""],
    ["arn:aws:s3:::bucket", ""],
    [
      "123456789012.dkr.ecr.us-east-2.amazonaws.com/app@sha256:abc",
      " A digest (@sha256:...) cannot be delegated: give a tag or none.",
    ],
  ])("create %s exits 2 naming the argument and its forms, before any request", async (given, extra) => {
    const res = await h.run(["registries", "delegations", "create", given]);
    expect([res.code, errorText(res), h.recorder.requests]).toEqual([
      2,
      `Error: <repository> '${given}' is not an ECR repository: ${RULE}${extra}`,
      [],
    ]);
  });

  it.each([
    [["registries", "delegations", "create"], "error: missing required argument 'repository'"],
    [
      ["registries", "delegations", "create", ARN, "--name", ""],
      "error: option '--name <name>' argument '' is invalid. --name must be between 1 and 191 characters.",
    ],
    [["registries", "delegations", "delete"], "error: missing required argument 'id'"],
  ])("%j exits 2 and sends nothing", async (args, message) => {
    const res = await h.run(args);
    expect([res.code, errorText(res), h.recorder.requests]).toEqual([2, message, []]);
  });
});
