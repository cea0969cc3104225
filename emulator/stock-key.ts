/** The key of a (data center, GPU type or CPU flavor) stock entry in the store. */
export function stockKey(dataCenterId: string, id: string): string {
  return `${dataCenterId}|${id}`;
}
