// The shapes shared by the runner, the targets and every client's scenarios.

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
}

/** A scenario throws (an AssertionError or any Error) to fail, returns skip(...) when the client cannot do it. */
export type Scenario = (context: ScenarioContext) => Promise<Outcome>;

/** Scenario names in matrix order; each client implements those it can. */
export const SCENARIOS = ['metadata', 'produce-consume', 'topic-admin'] as const;
export type ScenarioName = (typeof SCENARIOS)[number];

export interface ClientSuite {
  /** Matrix row label and folder name under compat-tests/clients. */
  readonly name: string;
  /** Installs the client if needed (idempotent, cached). Throws if it cannot. */
  install(): Promise<void>;
  readonly scenarios: Partial<Record<ScenarioName, Scenario>>;
}
