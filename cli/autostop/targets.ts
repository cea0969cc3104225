/**
 * The pods the autostop watcher looks after: every Pod of the given stacks' states (what `pulumi
 * stack export` writes, from either door) whose inputs declare autostop, with the setting's
 * defaults applied. A pod no stack declares autostop for is never touched: the watcher acts only on
 * what a stack asked for, as a stack acts only on what it created.
 */
import { z } from "zod";
import { type AutostopPolicy, autostopPolicy, PodAutostop } from "../../provider/resources/pod/autostop.js";
import { runpodTypeName } from "../../provider/resources/type-tokens.js";
import { UsageError } from "../errors.js";
import { nameOf, parseStackExport } from "../stack-export.js";

export interface AutostopTarget {
  readonly podId: string;
  /** The resource's name in its program. */
  readonly name: string;
  /** `<project>/<stack>`, from the resource's URN. */
  readonly stack: string;
  readonly policy: AutostopPolicy;
}

const StackExport = z.looseObject({
  deployment: z.looseObject({
    resources: z
      .array(
        z.looseObject({
          urn: z.string(),
          type: z.string(),
          id: z.string().optional(),
          inputs: z.record(z.string(), z.unknown()).optional(),
        }),
      )
      .optional(),
  }),
});

/** `<project>/<stack>` of `urn:pulumi:<stack>::<project>::...`. */
function stackOf(urn: string): string {
  const [head, project] = urn.split("::");
  return `${project}/${head?.replace(/^urn:pulumi:/, "")}`;
}

/** The opted-in pods of one export; `where` names it in errors. */
export function autostopTargets(text: string, where: string): AutostopTarget[] {
  return (parseStackExport(text, where, StackExport).deployment.resources ?? []).flatMap(
    (r): AutostopTarget[] => {
      const declared = r.inputs?.autostop;
      if (runpodTypeName(r.type) !== "Pod" || r.id === undefined || declared == null) return [];
      const policy = PodAutostop.safeParse(declared);
      if (!policy.success) {
        throw new UsageError(
          `${where}: ${r.urn}: autostop ${policy.error.issues[0]?.path.join(".")}: ${policy.error.issues[0]?.message}`,
        );
      }
      return [
        {
          podId: r.id,
          name: nameOf(r.urn),
          stack: stackOf(r.urn),
          policy: autostopPolicy(policy.data),
        },
      ];
    },
  );
}
