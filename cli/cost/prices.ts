/**
 * Where the cost commands' prices come from: a snapshot file (`--prices`, no API call, how a pull
 * request is priced without a key) or the catalog of the API the environment points at (RunPod's,
 * or the local emulator's).
 */

import type { RunpodApi } from "../../provider/client/index.js";
import { fromSnapshot } from "../../provider/cost/price-snapshot.js";
import { type PriceList, priceList } from "../../provider/cost/prices.js";
import { connect } from "../connect.js";
import { UsageError } from "../errors.js";
import type { Terminal } from "../output.js";
import { readTextArgument } from "../parse.js";

/** The price list of the catalog `api` serves, read now. */
export async function catalogPrices(out: Terminal, api: RunpodApi, source: string): Promise<PriceList> {
  const [gpus, cpus, dataCenters] = await out.spin("Reading the catalog's prices", () =>
    Promise.all([api.catalog.gpuTypes(), api.catalog.cpuFlavors(), api.catalog.dataCenters()]),
  );
  return priceList({ gpus, cpus, dataCenters }, source, new Date().toISOString());
}

/** The snapshot at `file` when given, else the catalog of the API in the environment. */
export async function loadPrices(out: Terminal, file: string | undefined): Promise<PriceList> {
  if (file !== undefined) {
    try {
      return fromSnapshot(readTextArgument("--prices", file, out.stdin), file);
    } catch (err) {
      if (err instanceof UsageError) throw err;
      throw new UsageError(`--prices: ${(err as Error).message}`);
    }
  }
  const { api, settings } = connect(out);
  return catalogPrices(out, api, settings.baseUrl);
}
