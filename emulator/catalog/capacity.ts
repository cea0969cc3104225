/**
 * Stock per (data center, GPU type) and (data center, CPU flavor): what a create takes, what a
 * stop or delete gives back, and the availability level the catalog reports. The catalog level
 * can be overridden so it disagrees with real stock ("the catalog is not a reservation").
 */
import type { Availability } from "../schemas/catalog.js";
import type { Machine } from "../store/pod-records.js";
import { type CpuStock, type GpuStock, stockKey } from "../store/records.js";
import type { Store } from "../store/store.js";

export function availabilityOf(free: number, total: number): Availability {
  if (free <= 0) return "NONE";
  if (free <= 2 || free < total * 0.25) return "LOW";
  if (free < total * 0.6) return "MEDIUM";
  return "HIGH";
}

export function gpuAvailability(stock: GpuStock): Availability {
  return stock.availability ?? availabilityOf(stock.free, stock.total);
}

export function cpuAvailability(stock: CpuStock): Availability {
  return availabilityOf(stock.free, stock.totalVcpu);
}

/** `12.11` > `12.2`: CUDA versions compare numerically per component (docs/api-model.md, GPU request). */
export function compareCuda(a: string, b: string): number {
  const [am = 0, an = 0] = a.split(".").map(Number);
  const [bm = 0, bn = 0] = b.split(".").map(Number);
  return am !== bm ? am - bm : an - bn;
}

/**
 * The CUDA version a host would report for these constraints: the highest acceptable one, null
 * when the GPU reports none and no constraint was given, undefined when nothing matches.
 */
export function pickCuda(
  offered: readonly string[],
  allowed: readonly string[] | undefined,
  min: string | undefined,
): string | null | undefined {
  let candidates = [...offered];
  if (allowed && allowed.length > 0) candidates = candidates.filter((v) => allowed.includes(v));
  if (min !== undefined) candidates = candidates.filter((v) => compareCuda(v, min) >= 0);
  if (candidates.length === 0) {
    const constrained = (allowed && allowed.length > 0) || min !== undefined;
    return offered.length === 0 && !constrained ? null : undefined;
  }
  return candidates.sort(compareCuda).at(-1);
}

export function gpuStockAt(state: Store, dataCenterId: string, gpuTypeId: string): GpuStock | undefined {
  return state.gpuStock.get(stockKey(dataCenterId, gpuTypeId));
}

export function cpuStockAt(state: Store, dataCenterId: string, flavorId: string): CpuStock | undefined {
  return state.cpuStock.get(stockKey(dataCenterId, flavorId));
}

/** Gives a machine's GPUs or vCPUs back to the stock. */
export function release(state: Store, machine: Machine): void {
  if (!machine.held) return;
  machine.held = false;
  if (machine.gpuTypeId) {
    const s = gpuStockAt(state, machine.dataCenterId, machine.gpuTypeId);
    if (s) s.free = Math.min(s.total, s.free + (machine.gpuCount ?? 1));
  } else if (machine.cpuFlavorId) {
    const s = cpuStockAt(state, machine.dataCenterId, machine.cpuFlavorId);
    if (s) s.free = Math.min(s.totalVcpu, s.free + machine.vcpuCount);
  }
}

/** Takes the machine's GPUs or vCPUs again (a stopped pod starting); false when none are free. */
export function reacquire(state: Store, machine: Machine): boolean {
  if (machine.held) return true;
  if (machine.gpuTypeId) {
    const s = gpuStockAt(state, machine.dataCenterId, machine.gpuTypeId);
    const n = machine.gpuCount ?? 1;
    if (!s || s.free < n) return false;
    s.free -= n;
  } else if (machine.cpuFlavorId) {
    const s = cpuStockAt(state, machine.dataCenterId, machine.cpuFlavorId);
    if (!s || s.free < machine.vcpuCount) return false;
    s.free -= machine.vcpuCount;
  }
  machine.held = true;
  return true;
}
