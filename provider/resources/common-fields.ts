/**
 * Fields more than one resource declares alike (docs/api-model.md, Container config and Mounts):
 * the container settings of a pod and a template, and the mount entries of pods, templates and
 * clusters. Declared once here; each resource's fields.ts spreads what it has of them.
 */
import { z } from "zod";
import { CudaVersion, Port } from "../client/schemas/common.js";
import { choice } from "../fields/meta.js";

/** Host-local persistent storage: survives restarts, pinned to one machine. */
export const PersistentMount = z
  .strictObject({
    size: z.int().min(10).meta({ description: "Size, at least 10.", unit: "GB" }),
    path: z
      .string()
      .min(1)
      .meta({ description: "Where it is mounted in the container, for example `/workspace`." }),
  })
  .meta({
    id: "PersistentMount",
    description: "Host-local persistent storage: survives restarts, pinned to one machine.",
  });

/** A network volume mount. */
export const NetworkMount = z
  .strictObject({
    volumeId: z.string().min(1).meta({
      description:
        "The network volume's id: passing a NetworkVolume's id output also makes a destroy remove the pod before the volume.",
    }),
    path: z
      .string()
      .min(1)
      .meta({ description: "Where it is mounted in the container, for example `/data`." }),
  })
  .meta({ id: "NetworkMount", description: "A network volume, mounted." });

/** A global volume mount. */
export const GlobalMount = z
  .strictObject({
    volumeId: z.string().min(1).meta({ description: "The global volume's id." }),
    path: z.string().min(1).optional().meta({
      description: "Where it is mounted in the container.",
      defaultText: "the service's choice (`/global` in the emulator)",
    }),
  })
  .meta({ id: "GlobalMount", description: "An existing global volume, referenced by its id, mounted." });

/** Exact acceptable host CUDA versions. */
export const AllowedCudaVersions = z.array(CudaVersion);

/**
 * The container settings a pod and a template share. The command is one raw string (`args`), or
 * CMD and ENTRYPOINT in exec form encoded into it; all three only when they describe the same
 * command. Every change updates in place.
 */
export const CONTAINER_FIELDS = {
  args: z.string().optional().meta({
    description:
      "The container command as one raw string: a shell string, or a JSON object string with `entrypoint` and `cmd` lists of strings.",
    defaultText: "the image's command (or the template's)",
    onChange: "update",
  }),
  cmd: z.array(z.string()).optional().meta({
    description:
      "CMD in exec form, one string per argument, encoded into the command string; an empty list clears it.",
    defaultText: "the image's (or the template's)",
    onChange: "update",
  }),
  entrypoint: z.array(z.string()).optional().meta({
    description:
      "ENTRYPOINT in exec form, overriding the image's, encoded into the command string; an empty list clears it.",
    defaultText: "the image's (or the template's)",
    onChange: "update",
  }),
  disk: z.int().min(1).optional().meta({
    description: "Container disk, at least 1: ephemeral, wiped on every restart.",
    unit: "GB",
    defaultText: "the API's default (the template's, when created from one)",
    onChange: "update",
  }),
  ports: z.array(Port).optional().meta({
    description:
      "Exposed ports, each `<port>/<protocol>` with protocol `http`, `tcp` or `udp`, for example `8888/http` or `22/tcp`.",
    defaultText: "the API's (the template's, when created from one)",
    onChange: "update",
  }),
  registry: z.string().nullable().optional().meta({
    description: "A Registry's id, for private images; null removes it.",
    defaultText: "none: public images only",
    onChange: "update",
  }),
};

/** What happens to an object whose create fails after the API accepted it. */
export const OnCreateFailure = choice(
  "OnCreateFailure",
  "What happens to an object whose create fails after the API accepted it.",
  { terminate: "It is deleted, and billing stops.", keep: "It is kept, and recorded in state." },
);

/**
 * The `adoptId` input of a resource whose existing objects can be taken over: `a` is what it
 * adopts ("a pod", "an endpoint"), `detail` what adopting does beyond taking it over.
 */
export function adoptId(a: string, detail?: string) {
  const noun = a.replace(/^an? /, "");
  return z
    .string()
    .min(1)
    .optional()
    .meta({
      description: `Adopt this existing ${noun} instead of creating one${
        detail === undefined
          ? ": the stack manages it from then on. Through the provider plugin (every language but TypeScript), `pulumi import` does the same from the command line."
          : `. ${detail}`
      }`,
      defaultText: `none: create ${a}`,
      onChange: "none",
    });
}
