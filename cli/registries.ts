/**
 * `runpod-dynamic registries list|delete`: private container registry credentials
 * (`{base_url}/v2/registries`). The API never returns the username or password of a credential,
 * and these commands print only its id and name.
 *
 * JSON/YAML output: list, an array of `id`, `name`; delete, `id`, `deleted` (true).
 */
import type { Command } from "commander";
import { connect } from "./connect.js";
import { type Terminal, table } from "./output.js";
import { addOutputOptions, type FormatOptions, textOption } from "./parse.js";

export function registerRegistries(program: Command, out: Terminal): void {
  const registries = program
    .command("registries")
    .description("Private container registry credentials (id and name only; never the secrets).");

  addOutputOptions(registries.command("list").description("List the account's registry credentials."))
    .addHelpText("after", "\nJSON fields (one object per credential): id, name.")
    .action(async () => {
      const { api } = connect(out);
      const list = await out.spin("Listing registry credentials", () => api.listRegistries());
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
      await out.spin("Deleting the registry credential", () => api.deleteRegistry(id));
      out.data({ id, deleted: true }, () => [`Deleted registry credential ${id}.`]);
    });
}
