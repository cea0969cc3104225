/** Which log lines say a pod's container started (provider/host/start-signals.ts), read as a table. */
import { describe, expect, it } from "vitest";
import { loadDist } from "../support/dist.js";

const { saysContainerStarted } = loadDist<typeof import("../../provider/host/start-signals.js")>(
  "provider/host/start-signals.js",
);

describe("saysContainerStarted", () => {
  it.each<[string, "container" | "system", string, boolean]>([
    ["the service starting the container", "system", "start container", true],
    ["the same, with what it starts", "system", "start container for img:1: begin", true],
    ["any line of the container's own", "container", "Loading model", true],
    ["the machine found: a pull begins", "system", "create container img:1", false],
    ["a pull's progress", "system", "1: Pulling from library/img", false],
    ["a pull failing", "system", "error pulling image: manifest unknown", false],
    ["a line naming a start in passing", "system", "retrying: could not start container yet", false],
  ])("%s", (_, source, line, expected) => {
    expect(saysContainerStarted({ source, line })).toBe(expected);
  });
});
