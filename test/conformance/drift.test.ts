/**
 * The description drift gate: the v2 description is pinned by its sha256, and the operations it
 * has that the emulator does not serve yet are an exact list, which shrinks as the emulator grows.
 */
import { describe, expect, it } from "vitest";
import {
  DESCRIPTION_PATH,
  describedOperations,
  descriptionSha256,
  loadDescription,
} from "../support/conformance/description.js";
import { emulatorRoutes, emulatorServes, pathShape } from "../support/conformance/emulator-routes.js";

/** sha256 of the v2 description when the overlay and the lists below were last reviewed. */
const DESCRIPTION_SHA256 = "b8bce61c5a2290d28a7cb2ed53173637166817249986cb18b101b2fd651fd313";

/**
 * The description's operations the emulator does not serve (method and path template). Remove an
 * entry when the emulator gains its route; a route it gains for an operation not listed here is
 * fine, an operation listed here that it serves fails the test until the entry goes.
 */
const NOT_SERVED_BY_THE_EMULATOR: readonly string[] = [];

/**
 * Routes the emulator serves on base_url that the description does not have: the account secrets,
 * which RunPod's newer reference documents (the gate adds them: NEWER_ROUTES in
 * test/support/conformance/overlay.ts), and the hub's GraphQL (docs/api-model.md, Command-line commands).
 */
const SERVED_BUT_NOT_DESCRIBED: readonly string[] = [
  "DELETE /v2/account/secrets/:id",
  "GET /v2/account/secrets",
  "GET /v2/account/secrets/:id",
  "PATCH /v2/account/secrets/:id",
  "POST /graphql",
  "POST /v2/account/secrets",
];

describe("the v2 description", () => {
  it("is the one the overlay and these lists were reviewed against", () => {
    expect(
      descriptionSha256(),
      `${DESCRIPTION_PATH} changed. Review it against the contract overlay (test/support/conformance/overlay.ts, ` +
        "docs/api-differences.md) and the lists in test/conformance/drift.test.ts, then pin the new sha256 here.",
    ).toBe(DESCRIPTION_SHA256);
  });

  it("has exactly these operations the emulator does not serve", () => {
    const unserved = describedOperations(loadDescription())
      .filter((op) => !emulatorServes(op.method, op.template))
      .map((op) => `${op.method} ${op.template}`)
      .sort();
    expect(unserved).toEqual(NOT_SERVED_BY_THE_EMULATOR);
  });

  it("lacks exactly these routes the emulator serves on base_url", () => {
    const described = new Set(
      describedOperations(loadDescription()).map((op) => `${op.method} ${pathShape(op.template)}`),
    );
    const extra = emulatorRoutes("base")
      .filter((r) => !described.has(`${r.method} ${pathShape(r.pattern)}`))
      .map((r) => `${r.method} ${r.pattern}`)
      .sort();
    expect(extra).toEqual(SERVED_BUT_NOT_DESCRIBED);
  });
});
