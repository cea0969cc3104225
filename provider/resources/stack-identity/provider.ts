/**
 * The StackIdentity provider: a create draws the identity, and nothing after changes it. It talks
 * to no API, so it needs no host context: a stack whose settings cannot make one still gets its
 * identity, and the resources that need it fail with their own error.
 */
import { randomBytes } from "node:crypto";
import type * as pulumi from "@pulumi/pulumi";

/** 128 random bits as 32 hex digits: no two stacks draw the same. */
export const STACK_IDENTITY = /^[0-9a-f]{32}$/;

/** @internal The provider host's side of StackIdentity; programs reach it only through the thin provider. */
export const stackIdentityProvider = {
  async check(_olds: unknown, news: Record<string, unknown>): Promise<pulumi.dynamic.CheckResult> {
    return { inputs: news };
  },

  /** An identity never changes: a new one would disown every object marked with the old. */
  async diff(): Promise<pulumi.dynamic.DiffResult> {
    return { changes: false };
  },

  async create(): Promise<pulumi.dynamic.CreateResult> {
    return { id: randomBytes(16).toString("hex"), outs: {} };
  },

  /** It exists for as long as the stack's state holds it. */
  async read(id: string, props?: Record<string, unknown>): Promise<pulumi.dynamic.ReadResult> {
    return { id, props: props ?? {} };
  },

  /** Nothing on the account to remove. */
  async delete(): Promise<void> {},
};
