// Broker and topic configuration, keyed by Kafka's own config names.
export {
  ConfigError, describeAccepted, formatConfigValue, formatJavaDouble, parseConfigValue,
  INT_MAX_VALUE, LONG_MAX_VALUE,
  type ConfigDefinition, type ConfigType, type ConfigUpdateMode,
} from './config-types.js';
export {
  brokerConfigDefinitions, brokerConfigDefinition, brokerConfigSynonyms, DEFAULT_MAX_MESSAGE_BYTES, STANDARD_AUTHORIZER_CLASS,
  type BrokerConfigKey,
} from './broker-configs.js';
export {
  defaultBrokerConfig, resolveBrokerConfig, explicitBrokerSettings, authorizerSettingsOf, listenerPrefixedSettings, listenerSetting, type BrokerConfig, type LogEngine, type ResolveOptions,
} from './broker-config.js';
export {
  parseListeners, parseSecurityProtocolMap, formatListener, usesTls, DEFAULT_SECURITY_PROTOCOL_MAP,
  type Listener, type ParseListenersOptions, type SecurityProtocol,
} from './listeners.js';
export { parseHttpListeners, formatHttpListener, httpUrl, type HttpListener } from './http-listeners.js';
export { parseMaxConnectionsPerIpOverrides } from './connection-limits.js';
export { notActedOn, type NotActedOn } from './not-acted-on.js';
export { parseProperties, PropertiesSyntaxError } from './properties.js';
export {
  topicConfigDefinitions, topicConfigDefinition, resolveTopicConfig, resolveStoredTopicConfig, validateTopicConfig, validateTopicConfigs,
  type TopicConfig, type TopicConfigKey, type TopicConfigDefinition,
} from './topic-configs.js';
export {
  ConfigDescriber, ConfigSourceId, CONFIG_TYPE_IDS,
  type ConfigEntry, type ConfigSynonymEntry, type DynamicConfigLayers,
} from './describe.js';
export {
  groupConfigDefinitions, groupConfigDefinition, groupConfigDefaults, groupConfigBoundsProblem, resolveGroupConfig,
  GROUP_CONFIG_DESCRIBE_ORDER, type GroupConfigKey, type GroupConfigDefinition, type GroupConfigValues, type GroupConfigLookup,
} from './group-configs.js';
export {
  clientMetricsConfigDefinitions, clientMetricsConfigDefinition, clientMetricsIntervalProblem, clientMetricsMatchProblem,
  CLIENT_METRICS_DESCRIBE_ORDER, type ClientMetricsConfigKey,
} from './client-metrics-configs.js';
