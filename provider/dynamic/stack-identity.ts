/**
 * `StackIdentity` (type `pulumi-nodejs:dynamic/runpod:StackIdentity`): a random value that names
 * one stack instance, made once and kept in its state. Every object this provider may later have
 * to recognise on the account without the engine handing it over (a pod left by an interrupted
 * create, the stack's hold on a shared SSH key) is marked with a value derived from it, so two
 * stacks never take each other's objects for their own, whatever their organization, project,
 * stack and backend are called (docs/decisions.md, "What identifies a stack's objects").
 *
 * Programs never declare it: the first Pod or SshKey of a stack registers it.
 */
import * as pulumi from "@pulumi/pulumi";
import { thinProvider } from "./thin.js";

const STACK_IDENTITY_PROVIDER = thinProvider("StackIdentity");

/** The resource's name in every stack: one per stack, beside the stack's own resources. */
const STACK_IDENTITY_NAME = "runpod-dynamic";

/** Registered by `stackIdentity`; its id is the identity. */
class StackIdentity extends pulumi.dynamic.Resource {
  constructor(opts: pulumi.CustomResourceOptions = {}) {
    super(STACK_IDENTITY_PROVIDER, STACK_IDENTITY_NAME, {}, opts, "runpod", "StackIdentity");
  }
}

/**
 * Where a stack's identity resource is kept: on the stack resource itself (under unit-test mocks,
 * which register no stack resource, on the mock monitor), under a registry-wide symbol, so every
 * copy of this package a program loads finds the same one, and two stacks run in one process (the
 * Automation API) each find their own.
 */
const HELD = Symbol.for("runpod-dynamic.stackIdentity");

/**
 * The identity of the stack the program is running: registers the stack's StackIdentity the first
 * time a program asks, and answers the same one afterwards. Unknown in a preview until the stack's
 * first `up` has made it; in an `up` every resource that uses it waits until it is in state.
 */
function stackIdentity(): pulumi.Output<string> {
  const stack = (pulumi.runtime.getStackResource() ?? pulumi.runtime.getMonitor()) as
    | (object & { [HELD]?: StackIdentity })
    | undefined;
  if (stack === undefined) {
    throw new Error(
      "runpod-dynamic resources are declared inside a Pulumi program: no stack is being deployed here.",
    );
  }
  stack[HELD] ??= new StackIdentity();
  return stack[HELD].id;
}

/**
 * What this stack marks the resource `name` with (a pod's create key, an SSH key's holder), from
 * the stack's identity and the resource's parent; none for a resource read by id (`get`, the `id`
 * option), which the stack never creates.
 */
export function markOf(
  name: string,
  opts: pulumi.CustomResourceOptions,
  mark: (stackIdentity: string, parentUrn: string, name: string) => string,
): pulumi.Output<string> | undefined {
  if (opts.id !== undefined) return undefined;
  return pulumi
    .all([stackIdentity(), opts.parent?.urn ?? ""])
    .apply(([identity, parent]) => mark(identity, parent, name));
}
