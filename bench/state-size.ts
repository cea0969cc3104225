/**
 * What a stack's state costs per pod, from `pulumi stack export` as a user reads it: the bytes of
 * the Pod resource entries per pod, and of the whole state per pod. The dynamic provider keeps its
 * serialized provider (`__provider`) in every resource's inputs and outputs; the provider plugin
 * keeps none, so the two flavours' states differ by that. The engine also keeps, in every entry,
 * where the program registered it (`stackTrace`, `sourcePosition`): that part is the language
 * host's, not the provider's, so it is measured apart.
 */
import type { ProgramStack, StateResource } from "../harness/stack.js";
import { runpodTypeName } from "../provider/resources/type-tokens.js";

export interface StatePerPod {
  /** Pod resources in the state. */
  readonly pods: number;
  /** Mean bytes of one Pod resource entry, as JSON without indentation. */
  readonly podEntryBytes: number;
  /** Bytes of the whole exported state as JSON without indentation, divided by the pods. */
  readonly stateBytesPerPod: number;
  /** Bytes of `pulumi stack export` as it prints (indented), divided by the pods. */
  readonly exportBytesPerPod: number;
  /** Mean bytes of one Pod entry's inputs and outputs: what the provider puts in the state. */
  readonly propertyBytesPerPod: number;
  /** Mean bytes of the `__provider` values of one Pod entry (inputs and outputs together). */
  readonly providerBytesPerPod: number;
  /** Mean bytes of one Pod entry's `stackTrace` and `sourcePosition`, as the language host reports them. */
  readonly stackTraceBytesPerPod: number;
}

/** A resource entry with the engine's record of where the program registered it. */
type StateEntry = StateResource & { readonly stackTrace?: unknown; readonly sourcePosition?: unknown };

/** Bytes of `value` as JSON without indentation; 0 when absent. */
const bytes = (value: unknown) => (value === undefined ? 0 : Buffer.byteLength(JSON.stringify(value)));

/**
 * The state of `stack` per pod, whatever the flavour: Pod entries are told by their type's name
 * (`pulumi-nodejs:dynamic/runpod:Pod` or `runpod-dynamic:index:Pod`). Indentation is left out of
 * the entry and whole-state figures so the two measure the same JSON; the printed size is beside them.
 */
export async function statePerPod(stack: ProgramStack): Promise<StatePerPod> {
  const { text, deployment } = await stack.exportState();
  const pods: StateEntry[] = (deployment.resources ?? []).filter((r) => runpodTypeName(r.type) === "Pod");
  const n = Math.max(pods.length, 1);
  const mean = (of: (entry: StateEntry) => number) => pods.reduce((sum, r) => sum + of(r), 0) / n;
  return {
    pods: pods.length,
    podEntryBytes: mean(bytes),
    stateBytesPerPod: bytes(JSON.parse(text)) / n,
    exportBytesPerPod: Buffer.byteLength(text) / n,
    propertyBytesPerPod: mean((r) => bytes(r.inputs) + bytes(r.outputs)),
    providerBytesPerPod: mean((r) => bytes(r.inputs?.__provider) + bytes(r.outputs?.__provider)),
    stackTraceBytesPerPod: mean((r) => bytes(r.stackTrace) + bytes(r.sourcePosition)),
  };
}
