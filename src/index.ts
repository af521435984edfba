// gregor as a library: start a broker in-process.
import type { BrokerConfig } from './config/index.js';
import { httpServer } from './http/lazy-start.js';
import { startBroker as startServerBroker, type Broker, type BrokerOptions } from './server/broker.js';

export type { Broker, BrokerOptions };

/** Starts a broker; gregor.http.listeners (or options.http) also starts the HTTP listener (src/http). */
export function startBroker(config: BrokerConfig, options: BrokerOptions = {}): Promise<Broker> {
  return startServerBroker(config, { httpServer, ...options });
}
export type { Log, LogLevel } from './log.js';
export { MemoryTopicCatalog, type TopicCatalog, type TopicInfo } from './broker/topic-catalog.js';
export { defaultBrokerConfig, resolveBrokerConfig, type BrokerConfig, type LogEngine, type ResolveOptions } from './config/index.js';
