/**
 * `runpod-dynamic registries list|delete`: private container registry credentials
 * (`{base_url}/v2/registries`). The API never returns the username or password of a credential,
 * and these commands print only its id and name. `registries delegations ...` are ECR delegations
 * (registries/delegations.ts).
 *
 * JSON/YAML output: list, an array of `id`, `name`; delete, `id`, `deleted` (true).
 */
import type { Command } from "commander";
import { connect } from "./connect.js";
import { type Terminal, table } from "./output.js";
import { addOutputOptions, type FormatOptions, textOption } from "./parse.js";
import {
  createDelegation,
  DELEGATION_JSON_FIELDS,
  printDelegations,
  revokeDelegation,
} from "./registries/delegations.js";

export function registerRegistries(program: Command, out: Terminal): void {
  const registries = program
    .command("registries")
    .description("Private container registry credentials (id and name only; never the secrets).");

  addOutputOptions(registries.command("list").description("List the account's registry credentials."))
    .addHelpText("after", "\nJSON fields (one object per credential): id, name.")
    .action(async () => {
      const { api } = connect(out);
      const list = await out.spin("Listing registry credentials", () => api.registries.list());
      const view = list.map((r) => ({ id: r.id, name: r.name }));
      out.data(view, () =>
        view.length === 0
          ? ["No registry credentials."]
          : table(
              [{ header: "id" }, { header: "name" }],
              view.map((r) => [r.id, r.name]),
            ),
      );
    });

  addOutputOptions(
    registries
      .command("delete")
      .description(
        "Delete a registry credential. Refused while a pod pulls with it; templates that name it lose the reference.",
      )
      .argument("<id>", "the credential's id (see `registries list`)", textOption("<id>")),
  )
    .addHelpText("after", "\nJSON fields: id, deleted.")
    .action(async (id: string, _opts: FormatOptions) => {
      const { api } = connect(out);
      await out.spin("Deleting the registry credential", () => api.registries.delete(id));
      out.data({ id, deleted: true }, () => [`Deleted registry credential ${id}.`]);
    });

  const delegations = registries
    .command("delegations")
    .description("ECR delegations: RunPod pulls private Amazon ECR images without a stored password.");

  addOutputOptions(delegations.command("list").description("List the account's ECR delegations."))
    .addHelpText("after", `\nJSON fields (one object per delegation): ${DELEGATION_JSON_FIELDS}.`)
    .action(() => printDelegations(out));

  addOutputOptions(
    delegations
      .command("create")
      .description("Delegate pulls from a private ECR repository to RunPod.")
      .argument(
        "<repository>",
        "the repository's ARN, or its image reference: 123456789012.dkr.ecr.us-east-2.amazonaws.com/team/app[:tag]",
      )
      .option("--name <name>", "a name to tell the delegation by", textOption("--name")),
  )
    .addHelpText(
      "after",
      `\nExamples:\n  runpod-dynamic registries delegations create arn:aws:ecr:us-east-2:123456789012:repository/team/app --name app\n  runpod-dynamic registries delegations create 123456789012.dkr.ecr.us-east-2.amazonaws.com/team/app:v2\n\nJSON fields: ${DELEGATION_JSON_FIELDS}.`,
    )
    .action((repository: string, opts: { name?: string }) => createDelegation(out, repository, opts));

  addOutputOptions(
    delegations
      .command("delete")
      .alias("revoke")
      .description("Revoke an ECR delegation: RunPod no longer pulls from that repository.")
      .argument("<id>", "the delegation's id (see `registries delegations list`)", textOption("<id>")),
  )
    .addHelpText("after", "\nJSON fields: id, deleted.")
    .action((id: string, _opts: FormatOptions) => revokeDelegation(out, id));
}
