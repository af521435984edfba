/**
 * What a member's session or rebalance timeout does when it falls due, for consumer and streams groups alike
 * (Kafka's ...FenceMemberOperation): nothing when the group or member is gone (or, for a rebalance timeout, the
 * member moved past the epoch it had to leave), else the member is fenced.
 */
import { NOTHING, type Outcome } from '../runtime/outcome.js';

export function expireMember<G extends { readonly members: ReadonlyMap<string, M> }, M extends { readonly memberEpoch: number }>(
  lookup: () => G | undefined,
  memberId: string,
  epoch: number | null,
  fence: (group: G, member: M) => Outcome<void>,
): Outcome<void> {
  let group: G | undefined;
  try {
    group = lookup();
  } catch {
    return NOTHING; // the id now belongs to a group of another type
  }
  const member = group?.members.get(memberId);
  if (group === undefined || member === undefined) return NOTHING;
  if (epoch !== null && member.memberEpoch !== epoch) return NOTHING;
  return fence(group, member);
}
