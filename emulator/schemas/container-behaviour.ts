/**
 * What a pod's container does, per image (pods/containers.ts): one rule of the table the seed's
 * `containerBehaviours` holds and the control plane changes (`PUT /__emulator/containers`).
 */
import { z } from "zod";

export const BEHAVIOUR_KINDS = ["start", "imageNotFound", "unauthorized", "crashLoop", "outOfDisk"] as const;

/** One rule of the per-image behaviour table (seed `containerBehaviours`, control plane). */
export const ContainerBehaviour = z.strictObject({
  /** An exact image reference, or a prefix followed by `*` (`emulator/crash-loop*`). */
  image: z.string().min(1),
  kind: z.enum(BEHAVIOUR_KINDS),
  /** crashLoop: how long the container runs before it exits. @default 15000 */
  runMs: z.int().min(1).optional(),
  /** crashLoop: the exit code it exits with. @default 1 */
  exitCode: z.int().min(1).max(255).optional(),
  /** outOfDisk: container disk (GB) the image needs; a pod with at least this much starts. @default never enough */
  sizeGb: z.int().min(1).optional(),
  /** start and crashLoop: what the container prints after it starts; `${NAME}` prints its variable NAME. */
  lines: z.array(z.string()).optional(),
  /**
   * What the container answers on its exposed ports once up (pods/ports.ts): at once, `late`
   * (503 until `serveAfterMs` after it started, a model server warming up), or `never`.
   * @default "answers", and "never" for a crashLoop
   */
  serve: z.enum(["answers", "late", "never"]).optional(),
  /** serve `late`: how long after the container starts it begins to answer. @default 20000 */
  serveAfterMs: z.int().min(0).optional(),
});
export type ContainerBehaviour = z.infer<typeof ContainerBehaviour>;
