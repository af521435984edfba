// Which API versions a client really used: part of a scenario runs through the recording proxy (capture.ts) in
// front of the target, which keeps advertising itself; the proxy renames it in Metadata, FindCoordinator and
// DescribeCluster answers, so the client's later connections (the group and transaction coordinators) come back
// through it too. Works the same for gregor, a fresh reference broker and one given with --bootstrap, as long as
// the broker advertises the bootstrap address (a gregor on localhost: --bootstrap localhost:<port>).
import { startCaptureProxy, type CapturedRequest } from '../capture.js';
import { excuseNotServed } from '../lib/not-served.js';
import { apiName } from '../wire/api-names.js';
import type { Outcome, ScenarioContext } from './types.js';

/**
 * Requests whose presence depends on timing rather than on what the scenario does (a heartbeat is sent only if a
 * member lives long enough): left out of what is observed and compared.
 */
const TIMING_DEPENDENT = new Set(['Heartbeat']);

/** The highest version of each API in the log, by API name, in name order. */
export function highestVersions(requests: readonly CapturedRequest[]): Record<string, number> {
  const highest = new Map<string, number>();
  for (const { apiKey, version } of requests) {
    const name = apiName(apiKey);
    if (!TIMING_DEPENDENT.has(name)) highest.set(name, Math.max(version, highest.get(name) ?? -1));
  }
  return Object.fromEntries([...highest].sort(([a], [b]) => a.localeCompare(b)));
}

/** The same context with another bootstrap address (the proxy's), for scenarios that connect through the context. */
export function withBootstrap(context: ScenarioContext, bootstrap: string): ScenarioContext {
  return { ...context, target: { ...context.target, bootstrap } };
}

/** Runs `work` with a bootstrap address that leads through a fresh proxy; returns its result and the requests seen. */
export async function throughProxy<T>(context: ScenarioContext, work: (bootstrap: string) => Promise<T>): Promise<{ value: T; requests: readonly CapturedRequest[] }> {
  const [host, port] = context.target.bootstrap.split(':');
  if (host === undefined || port === undefined) throw new Error(`bootstrap ${context.target.bootstrap} is not host:port`);
  const proxy = await startCaptureProxy({
    listenPort: 0,
    upstreamHost: host,
    upstreamPort: Number(port),
    advertised: { host, port: Number(port) },
  });
  try {
    const value = await work(`${host}:${proxy.port}`);
    // A broker advertising another address than the bootstrap one is never renamed: the client went around the proxy.
    if (proxy.requests.some((r) => r.apiKey === 3) && proxy.renamed === 0) {
      throw new Error(`the broker does not advertise ${context.target.bootstrap} (its bootstrap address), so clients bypassed the recording proxy`);
    }
    return { value, requests: [...proxy.requests] };
  } finally {
    await proxy.close();
  }
}

/** API name → the highest version a client must use, or null for an API it must not use at all. */
export type ExpectedVersions = Readonly<Record<string, number | null>>;

/**
 * Observes the highest version of each API used as "versions.<ApiName>" (absent when not used), excusing the APIs
 * the README lists as not served at Kafka's range yet.
 */
export function observeVersions(context: ScenarioContext, used: Readonly<Record<string, number>>): void {
  for (const [api, version] of Object.entries(used)) context.observe(`versions.${api}`, version);
  excuseNotServed((key, reason) => context.excuse(key, reason), 'versions.');
}

/**
 * The newest-versions scenario around a client's own work (produce, consume in a group with commits, a
 * transaction): observes the versions it used and fails naming each API of `expected` that it used at another
 * version, or used when it must not, or did not use.
 */
export async function newestVersions(context: ScenarioContext, expected: ExpectedVersions,
  work: (bootstrap: string) => Promise<Outcome>): Promise<Outcome> {
  const { value, requests } = await throughProxy(context, work);
  const used = highestVersions(requests);
  observeVersions(context, used);
  if (value.status !== 'pass') return value;
  const show = (version: number | null | undefined): string => (version === null || version === undefined ? 'none' : `v${version}`);
  const wrong = Object.entries(expected)
    .filter(([api, version]) => (used[api] ?? null) !== version)
    .map(([api, version]) => `${api} ${show(used[api])} (want ${show(version)})`);
  if (wrong.length > 0) throw new Error(`used ${wrong.join(', ')}`);
  return value;
}
