/** A Cluster's inputs and outputs as the provider sees them (the declaration's, fields.ts). */
import type { z } from "zod";
import type {
  ClusterArgsSchema,
  ClusterMember as ClusterMemberSchema,
  ClusterStateSchema,
} from "./fields.js";

/** Checked inputs of a Cluster, as `check` accepts them and the provider sees them. */
export type ClusterInputs = z.infer<typeof ClusterArgsSchema>;

/** What state keeps of a Cluster. */
export type ClusterOutputs = z.infer<typeof ClusterStateSchema>;

/** One member pod of a cluster. */
export type ClusterMember = z.infer<typeof ClusterMemberSchema>;
