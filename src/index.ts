// gregor as a library: start a broker in-process.
export { startBroker, type Broker, type BrokerOptions } from './server/broker.js';
export type { Log, LogLevel } from './log.js';
export { MemoryTopicCatalog, type TopicCatalog, type TopicInfo } from './broker/topic-catalog.js';
export { defaultBrokerConfig, resolveBrokerConfig, type BrokerConfig, type LogEngine, type ResolveOptions } from './config/index.js';
