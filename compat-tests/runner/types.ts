// The shapes shared by the runner, the targets and every client's scenarios.
import { CONSUMER_PROTOCOL_CLIENTS } from './consumer-protocol.js';

export type Outcome = { status: 'pass' } | { status: 'fail'; reason: string } | { status: 'skip'; reason: string };

export const pass: Outcome = { status: 'pass' };
export function skip(reason: string): Outcome {
  return { status: 'skip', reason };
}

/** A broker under test: gregor or the reference Apache Kafka. */
export interface Target {
  readonly kind: 'gregor' | 'reference';
  /** "127.0.0.1:<port>" */
  readonly bootstrap: string;
  /** Stop and start again; data and committed offsets must survive. */
  restart(): Promise<void>;
  stop(): Promise<void>;
}

export interface ScenarioContext {
  readonly target: Target;
  /** A name no earlier run used on this broker (topics, groups), e.g. "compat-kafkajs-metadata-3f9a-topic". */
  name(suffix: string): string;
  /**
   * Records a result that Kafka makes deterministic (offsets, error codes, reported configs, group states) under
   * a key naming what it is. The differential mode compares these with Kafka's. Never put run names in a value.
   */
  observe(key: string, value: unknown): void;
  /**
   * Says an observation differs from Kafka's for a reason tracked elsewhere (e.g. an API the README lists as not
   * served yet): the differential mode does not compare that key. Kafka's value is still recorded.
   */
  excuse(key: string, reason: string): void;
}

/** A scenario throws (an AssertionError or any Error) to fail, returns skip(...) when the client cannot do it. */
export type Scenario = (context: ScenarioContext) => Promise<Outcome>;

/** Scenario names in matrix order; each client implements those it can. */
export const SCENARIOS = [
  'metadata',
  'topic-admin',
  'produce-consume',
  'group-rebalance',
  'commit-resume',
  'offset-reset',
  'two-groups',
  'seek-replay',
  'offsets-for-times',
  'idempotent-producer',
  'transactions',
  'broker-restart',
  'error-unknown-topic',
  'error-message-too-large',
  'error-invalid-topic',
  'error-invalid-config',
  'consumer-group-rebalance',
  'consumer-commit-resume',
  'consumer-static-members',
  'newest-versions',
  'cluster-admin',
] as const;
/** Scenarios only a security run has (security/cells.ts): a login the broker must refuse, observing the error. */
export const SECURITY_ONLY_SCENARIOS = ['auth-failure'] as const;
export type ScenarioName = (typeof SCENARIOS)[number] | (typeof SECURITY_ONLY_SCENARIOS)[number];

/**
 * Scenarios that concern some clients only; the others get no cell. cluster-admin is the stock tools' output;
 * newest-versions is about the client libraries (the tools' versions are checked inside cluster-admin).
 */
export const SCENARIO_CLIENTS: Partial<Record<ScenarioName, readonly string[]>> = {
  'newest-versions': ['kafkajs', 'platformatic', 'java-client', 'kcat', 'confluent-kafka', 'kafka-python', 'franz-go', 'sarama'],
  'cluster-admin': ['java-tools'],
  'consumer-group-rebalance': CONSUMER_PROTOCOL_CLIENTS,
  'consumer-commit-resume': CONSUMER_PROTOCOL_CLIENTS,
  'consumer-static-members': CONSUMER_PROTOCOL_CLIENTS,
};

export interface ClientSuite {
  /** Matrix column label and folder name under compat-tests/clients. */
  readonly name: string;
  /** Installs the client if needed (idempotent, cached). Throws if it cannot. */
  install(): Promise<void>;
  readonly scenarios: Partial<Record<ScenarioName, Scenario>>;
  /** Scenarios the client cannot express, with the reason (its FINDINGS.md says more). */
  readonly cannot?: Partial<Record<ScenarioName, string>>;
}
