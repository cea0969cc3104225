/** A NetworkVolume's inputs and outputs as the provider sees them (the declaration's, fields.ts). */
import type { z } from "zod";
import type { NetworkVolumeArgsSchema, NetworkVolumeStateSchema } from "./fields.js";

/** Checked inputs of a NetworkVolume, as `check` accepts them and the provider sees them. */
export type NetworkVolumeInputs = z.infer<typeof NetworkVolumeArgsSchema>;

/** What state keeps of a NetworkVolume. */
export type NetworkVolumeOutputs = z.infer<typeof NetworkVolumeStateSchema>;
