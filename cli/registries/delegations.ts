/**
 * `runpod-dynamic registries delegations list|create|delete`: ECR delegations
 * (`{base_url}/v2/registries/delegations`), the way to let RunPod pull a private Amazon ECR image
 * without storing a registry password (ECR passwords are tokens that expire after 12 hours, so a
 * registry credential would stop working by the next day).
 *
 * `create` takes the repository as people have it at hand: its ARN
 * (`arn:aws:ecr:us-east-2:123456789012:repository/team/app`), or the image reference they push to
 * (`123456789012.dkr.ecr.us-east-2.amazonaws.com/team/app[:tag]`), turned into the ARN the API
 * takes as `resource`. A tag, when given, follows the repository name in the ARN
 * (`repository/team/app:v2`); without one the service answers its default (`latest`). Anything
 * else is refused before any request, naming the argument and the forms it takes.
 *
 * JSON/YAML output: list, an array; create, one object; each `id`, `name`, `repository`, `tag`,
 * `awsRegion`, `awsUser`, `dockerRegistryUri`, `image` (the reference pods pull:
 * `<dockerRegistryUri>/<repository>:<tag>`), `delegatorUserId`, `createdAt` (null when the service
 * sent no value). delete: `id`, `deleted` (true).
 */
import type { schemas } from "../../provider/client/index.js";
import { connect } from "../connect.js";
import { UsageError } from "../errors.js";
import { fields, type Terminal, table } from "../output.js";

export const DELEGATION_JSON_FIELDS =
  "id, name, repository, tag, awsRegion, awsUser, dockerRegistryUri, image, delegatorUserId, createdAt";

/** An ECR repository name (AWS: lower case, `/`-separated, `.`, `_` and `-` inside parts). */
const NAME = "(?:[a-z0-9]+(?:[._-][a-z0-9]+)*/)*[a-z0-9]+(?:[._-][a-z0-9]+)*";
const TAG = "[A-Za-z0-9_][A-Za-z0-9_.-]{0,127}";
const REGION = String.raw`[a-z]{2}(?:-[a-z]+)+-\d`;
const ARN = new RegExp(
  String.raw`^arn:(aws|aws-cn|aws-us-gov):ecr:(${REGION}):(\d{12}):repository/(${NAME})(?::(${TAG}))?$`,
);
const IMAGE = new RegExp(
  String.raw`^(\d{12})\.dkr\.ecr\.(${REGION})\.amazonaws\.com(\.cn)?/(${NAME})(?::(${TAG}))?$`,
);

/**
 * The `resource` ARN for an ECR repository given as its ARN or as an image reference.
 * @example ecrResource("123456789012.dkr.ecr.us-east-2.amazonaws.com/team/app:v2")
 *   // "arn:aws:ecr:us-east-2:123456789012:repository/team/app:v2"
 */
export function ecrResource(repository: string): string {
  const text = repository.trim();
  if (ARN.test(text)) return text;
  const image = IMAGE.exec(text);
  if (image) {
    const [, account, region, china, name, tag] = image;
    const partition = china ? "aws-cn" : region?.startsWith("us-gov-") ? "aws-us-gov" : "aws";
    return `arn:${partition}:ecr:${region}:${account}:repository/${name}${tag ? `:${tag}` : ""}`;
  }
  const digest = text.includes("@sha256:")
    ? " A digest (@sha256:...) cannot be delegated: give a tag or none."
    : "";
  throw new UsageError(
    `<repository> '${repository}' is not an ECR repository: give its ARN (arn:aws:ecr:<region>:<12-digit account>:repository/<name>) or its image reference (<account>.dkr.ecr.<region>.amazonaws.com/<name>[:<tag>]), the name in lower case.${digest}`,
  );
}

function delegationView(d: schemas.EcrDelegation) {
  const image =
    d.dockerRegistryUri && d.repository
      ? `${d.dockerRegistryUri}/${d.repository}:${d.tag ?? "latest"}`
      : null;
  return {
    id: d.id,
    name: d.name ?? null,
    repository: d.repository ?? null,
    tag: d.tag ?? null,
    awsRegion: d.awsRegion ?? null,
    awsUser: d.awsUser ?? null,
    dockerRegistryUri: d.dockerRegistryUri ?? null,
    image,
    delegatorUserId: d.delegatorUserId ?? null,
    createdAt: d.createdAt ?? null,
  };
}

export async function printDelegations(out: Terminal): Promise<void> {
  const { api } = connect(out);
  const list = (await out.spin("Listing ECR delegations", () => api.delegations.list())).map(delegationView);
  out.data(list, () =>
    list.length === 0
      ? ["No ECR delegations."]
      : table(
          [{ header: "id" }, { header: "name" }, { header: "image" }, { header: "created" }],
          list.map((d) => [d.id, d.name ?? "", d.image ?? d.repository ?? "", out.localTime(d.createdAt)]),
        ),
  );
}

export async function createDelegation(
  out: Terminal,
  repository: string,
  opts: { name?: string },
): Promise<void> {
  const resource = ecrResource(repository);
  const { api } = connect(out);
  const created = delegationView(
    await out.spin("Creating the ECR delegation", () =>
      api.delegations.create({ resource, ...(opts.name === undefined ? {} : { name: opts.name }) }),
    ),
  );
  out.data(created, () => [
    `Created ECR delegation ${created.id}${created.name ? ` (${created.name})` : ""}.`,
    "",
    ...fields([
      ["Repository", created.repository ?? ""],
      ["Tag", created.tag ?? ""],
      ["Region", created.awsRegion ?? ""],
      ["AWS user", created.awsUser ?? ""],
      ["Image", created.image ?? ""],
    ]),
    "",
    `Revoke it with: runpod-dynamic registries delegations delete ${created.id}`,
  ]);
}

export async function revokeDelegation(out: Terminal, id: string): Promise<void> {
  const { api } = connect(out);
  await out.spin("Revoking the ECR delegation", () => api.delegations.revoke(id));
  out.data({ id, deleted: true }, () => [`Revoked ECR delegation ${id}.`]);
}
