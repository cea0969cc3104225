/**
 * Who holds a key of the account's SSH key set. The set is the account's, shared by every stack
 * that uses the key, and the API keeps nothing per key but its line; so the line itself says who
 * declares it, as one last token of its comment: `runpod-dynamic-holders=account,3f2a9c1b0d4e`.
 * Each SshKey resource is one holder (a hash of its stack's identity and its place in the stack);
 * `account` says the key was on the account before any stack declared it. A stack that stops
 * declaring a key takes only its own mark off, and the key leaves the account only with its last
 * holder (docs/decisions.md, "What identifies a stack's objects").
 */
import { stackMark } from "../stack-identity/marks.js";
import { HOLDERS_TOKEN, type ParsedKey, parsePublicKey } from "./check.js";

/** The holder that stands for the account itself: the key was there before any stack held it. */
const ACCOUNT_HOLDER = "account";

/** A stack's holder: 12 hex digits. */
export const HOLDER = /^[0-9a-f]{12}$/;

/** Program side: the holder an SshKey resource is, from its stack's identity and its place in the stack. */
export function holderOf(stackIdentity: string, parentUrn: string, name: string): string {
  return stackMark("SshKey", stackIdentity, parentUrn, name).slice(0, 12);
}

/** The holder an SshKey's inputs or outputs carry; none for one created before keys had holders. */
export function holderIn(props: unknown): string | undefined {
  const holder = (props as { __holder?: unknown } | undefined)?.__holder;
  return typeof holder === "string" && HOLDER.test(holder) ? holder : undefined;
}

/** A registered line apart: the line as its holders wrote it, and the holders. */
export function splitHolders(registered: string): { line: string; holders: string[] } {
  const m = HOLDERS_TOKEN.exec(registered);
  if (!m) return { line: registered, holders: [] };
  return {
    line: registered.slice(0, m.index),
    holders: (m[1] ?? "").split(",").filter((h) => h === ACCOUNT_HOLDER || HOLDER.test(h)),
  };
}

/** The line to register: `line` with its holders (none: the line as it is). */
function withHolders(line: string, holders: readonly string[]): string {
  return holders.length === 0 ? line : `${line} runpod-dynamic-holders=${holders.join(",")}`;
}

/** Whether a registered line is this key (type and material; comments and holders aside). */
export function isKey(registered: string, key: ParsedKey): boolean {
  const p = parsePublicKey(splitHolders(registered).line);
  return p !== undefined && p.type === key.type && p.blob === key.blob;
}

/**
 * The set with `key` held by `holder`, as a create (`"create"`) or an update of a resource already
 * in state (`"update"`) makes it. A key the account lacks is added as `key.line`. A create that
 * finds the line without holders finds the account's own key: `account` joins the holders, and
 * keeps the key there once every stack has let go. An update that finds it so finds its own (made
 * before keys had holders, or its mark lost to another writer): it marks it, no `account`. Only a
 * line no one else holds takes the update's text (a new comment): a shared line keeps the text it
 * has, so two stacks never rewrite each other's comment, and a line the account had first goes
 * back to its own text.
 */
export function hold(
  keys: readonly string[],
  key: ParsedKey,
  holder: string | undefined,
  as: "create" | "update",
): string[] {
  const at = keys.findIndex((k) => isKey(k, key));
  if (at < 0) return [...keys, withHolders(key.line, holder ? [holder] : [])];
  const found = splitHolders(keys[at] ?? "");
  const before = found.holders.length === 0 && as === "create" ? [ACCOUNT_HOLDER] : found.holders;
  const holders =
    holder === undefined || found.holders.includes(holder) ? found.holders : [...before, holder];
  const alone = found.holders.every((h) => h === holder);
  const next = withHolders(as === "update" && alone ? key.line : found.line, holders);
  return keys.map((k, i) => (i === at ? next : k));
}

/**
 * How a registered line stands for `holder`: whether others hold it too (other stacks, or the
 * account that had it first), and whether this holder's mark is still on it.
 */
export function standing(
  registered: string,
  holder: string | undefined,
): { shared: boolean; marked: boolean } {
  const { holders } = splitHolders(registered);
  return {
    shared: holders.some((h) => h !== holder),
    marked: holder === undefined || holders.includes(holder),
  };
}

/** What letting go of a key left on the account. */
export type Released =
  | { readonly kind: "held"; readonly others: number }
  | { readonly kind: "restored" | "removed" | "absent" };

/**
 * The set once `holder` lets go of `key`: its mark taken off while another stack still holds it
 * (`held`), the line put back as it was found when only the account held it before (`restored`),
 * else the key removed. A resource without a holder (made before keys had holders) removes the key
 * unless a stack holds it. A holder that already let go changes nothing.
 */
export function release(
  keys: readonly string[],
  key: ParsedKey,
  holder: string | undefined,
): { keys: string[]; released: Released } {
  const at = keys.findIndex((k) => isKey(k, key));
  if (at < 0) return { keys: [...keys], released: { kind: "absent" } };
  const found = splitHolders(keys[at] ?? "");
  const rest = found.holders.filter((h) => h !== holder);
  const others = rest.filter((h) => h !== ACCOUNT_HOLDER).length;
  const replaced = (line: string) => keys.map((k, i) => (i === at ? line : k));
  if (others > 0)
    return { keys: replaced(withHolders(found.line, rest)), released: { kind: "held", others } };
  if (holder !== undefined && !found.holders.includes(holder)) {
    return { keys: [...keys], released: { kind: "restored" } };
  }
  if (rest.includes(ACCOUNT_HOLDER)) return { keys: replaced(found.line), released: { kind: "restored" } };
  return { keys: keys.filter((_, i) => i !== at), released: { kind: "removed" } };
}
