/**
 * Which quota applies to a (user, client id), as Kafka 4.3.1's default quota callback (ClientQuotaManager's
 * DefaultQuotaCallback) decides it, most specific first:
 *   <user, client-id>, <user, default client-id>, <user>, <default user, client-id>, <default user, default client-id>,
 *   <default user>, <client-id>, <default client-id>.
 * The entity found also names the rate the client is measured by (its "metric tags"): clients under one user quota
 * share one rate, clients under a client-id quota (or a default) are measured by client id.
 */

/** A side of an entity: absent, the default (null) or a name. */
type Side = string | null | undefined;

/** One quota entity: user and client id, each absent (undefined), default (null) or named. */
export interface QuotaEntityKey {
  readonly user?: string | null;
  readonly clientId?: string | null;
}

const sideKey = (side: Side): string => (side === undefined ? '-' : side === null ? '*' : `=${side}`);
const entityKey = (user: Side, clientId: Side): string => `${sideKey(user)}\u0000${sideKey(clientId)}`;

/** The rate a client is measured by: '' stands for "not part of the key", as Kafka's empty tag. */
export interface MetricTags {
  readonly user: string;
  readonly clientId: string;
}

/** One quota type's overridden quotas (producer_byte_rate, say) by entity. */
export class QuotaOverrides {
  private readonly bounds = new Map<string, number>();

  constructor(entries: Iterable<readonly [QuotaEntityKey, number]> = []) {
    for (const [entity, bound] of entries) this.bounds.set(entityKey(entity.user, entity.clientId), bound);
  }

  get enabled(): boolean {
    return this.bounds.size > 0;
  }

  private has(user: Side, clientId: Side): boolean {
    return this.bounds.has(entityKey(user, clientId));
  }

  private get(user: Side, clientId: Side): number | undefined {
    return this.bounds.get(entityKey(user, clientId));
  }

  /** DefaultQuotaCallback.quotaMetricTags. */
  metricTags(user: string, clientId: string): MetricTags {
    if (this.has(user, clientId) || this.has(user, null)) return { user, clientId };
    if (this.has(user, undefined)) return { user, clientId: '' };
    if (this.has(null, clientId) || this.has(null, null)) return { user, clientId };
    if (this.has(null, undefined)) return { user, clientId: '' };
    return { user: '', clientId };
  }

  /** DefaultQuotaCallback.quotaLimit: the bound for those tags, undefined when none applies. */
  limit(tags: MetricTags): number | undefined {
    const { user, clientId } = tags;
    if (user !== '' && clientId !== '') {
      return this.get(user, clientId) ?? this.get(user, null) ?? this.get(null, clientId) ?? this.get(null, null);
    }
    if (user !== '') return this.get(user, undefined) ?? this.get(null, undefined);
    if (clientId !== '') return this.get(undefined, clientId) ?? this.get(undefined, null);
    return undefined;
  }
}
