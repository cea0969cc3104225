/**
 * Accounts (docs/api-model.md, Authentication): which account a request acts for, and so which resources it
 * sees. Every API key belongs to a user, the default user unless the seed names another (so the
 * keys of a seed that names no users share one account, as they did before accounts existed).
 *
 * - A key created inside a team (seed `apiKeys[].teamId`) acts for that team and needs no
 *   `X-Team-Id` (Authentication 4); the header is ignored on it.
 * - Any other key acts for its user, or for the team `X-Team-Id` names when the user owns or
 *   belongs to that team. A team the user is not in is ignored: the request runs against the
 *   user's own account (Authentication 3), with no error.
 *
 * Resources belong to the account that created them (the seed's to the default user, unless an
 * entry names its account); a request sees, changes and is billed for only its account's, and any
 * other id is unknown to it, with the same answer a missing one gets. Rate-limit windows are the
 * user's (`userOf`), whichever of its keys a request uses, and whichever account it acts for
 * (http/rate-limit.ts).
 */
import type { Store } from "../store/store.js";

/** The user every key without a `userId` belongs to: the id the default key had as its own. */
export const DEFAULT_USER_ID = "user_ecef0e7f90b30826f1e6079bac3";

/** The account of an anonymous request: it owns nothing and sees nothing that is owned. */
export const ANONYMOUS_ACCOUNT = "";

/** The user a key belongs to. */
export function userOf(state: Store, apiKey: string): string {
  return state.apiKeys.get(apiKey)?.userId ?? DEFAULT_USER_ID;
}

/** Whether `userId` owns or belongs to team `teamId`. */
export function inTeam(state: Store, userId: string, teamId: string): boolean {
  const team = state.teams.get(teamId);
  return team !== undefined && (team.ownerId === userId || team.memberIds.includes(userId));
}

/** The account a request with this key and `X-Team-Id` value acts for. */
export function actingAccount(state: Store, apiKey: string, teamHeader: string | undefined): string {
  const key = state.apiKeys.get(apiKey);
  if (!key) return ANONYMOUS_ACCOUNT;
  if (key.teamId !== undefined) return key.teamId;
  const user = key.userId ?? DEFAULT_USER_ID;
  const team = teamHeader?.trim();
  return team && inTeam(state, user, team) ? team : user;
}
