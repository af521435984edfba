/**
 * The broker's client quota managers (Kafka's QuotaFactory.QuotaManagers): producer_byte_rate (Produce request
 * bytes), consumer_byte_rate (Fetch response bytes), request_percentage (time spent handling a client's requests,
 * 100 = one thread's worth) and controller_mutation_rate (partitions created or deleted per second). Windows come
 * from quota.window.num / quota.window.size.seconds and controller.quota.window.*; the quotas from the client quota
 * image, replaced whole at start-up and after every AlterClientQuotas.
 */
import type { BrokerConfig } from '../../config/index.js';
import { ClientQuotaManager } from './client-quota-manager.js';
import { ControllerMutationQuotaManager } from './controller-mutation-quota.js';
import { QuotaOverrides, type QuotaEntityKey } from './quota-resolution.js';

export const PRODUCER_BYTE_RATE = 'producer_byte_rate';
export const CONSUMER_BYTE_RATE = 'consumer_byte_rate';
export const REQUEST_PERCENTAGE = 'request_percentage';
export const CONTROLLER_MUTATION_RATE = 'controller_mutation_rate';

/** One user / client-id entity of the quota image and its quotas (ip entities are connection quotas, not these). */
export interface ClientQuotaEntry extends QuotaEntityKey {
  readonly quotas: Iterable<readonly [string, number]>;
}

/** ClientRequestQuotaManager.nanosToPercentage: 100 per second of handling time. */
export const nanosToPercentage = (nanos: number): number => (nanos * 100) / 1e9;

export class QuotaManagers {
  readonly produce: ClientQuotaManager;
  readonly fetch: ClientQuotaManager;
  readonly request: ClientQuotaManager;
  readonly controllerMutation: ControllerMutationQuotaManager;

  /** `clock`: the broker's (Kafka's quota managers take their Time); the other managers are given `now` per call. */
  constructor(config: Pick<BrokerConfig, 'quota.window.num' | 'quota.window.size.seconds' | 'controller.quota.window.num' | 'controller.quota.window.size.seconds'>,
    clock: () => number = Date.now) {
    const window = { samples: config['quota.window.num'], windowMs: config['quota.window.size.seconds'] * 1000 };
    this.produce = new ClientQuotaManager(window);
    this.fetch = new ClientQuotaManager(window);
    // ClientRequestQuotaManager.maxThrottleTimeMs: one window.
    this.request = new ClientQuotaManager(window, window.windowMs);
    this.controllerMutation = new ControllerMutationQuotaManager({
      samples: config['controller.quota.window.num'],
      windowMs: config['controller.quota.window.size.seconds'] * 1000,
    }, clock);
  }

  /** The quotas now in force (Kafka's ClientQuotaMetadataManager applies each change to the managers). */
  update(entries: Iterable<ClientQuotaEntry>): void {
    const byKey = new Map<string, [QuotaEntityKey, number][]>();
    for (const entry of entries) {
      for (const [key, value] of entry.quotas) {
        let list = byKey.get(key);
        if (list === undefined) byKey.set(key, (list = []));
        list.push([{ user: entry.user, clientId: entry.clientId }, value]);
      }
    }
    const overrides = (key: string) => new QuotaOverrides(byKey.get(key) ?? []);
    this.produce.update(overrides(PRODUCER_BYTE_RATE));
    this.fetch.update(overrides(CONSUMER_BYTE_RATE));
    this.request.update(overrides(REQUEST_PERCENTAGE));
    this.controllerMutation.update(overrides(CONTROLLER_MUTATION_RATE));
  }
}
