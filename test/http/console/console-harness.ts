// An in-process broker with the HTTP listener on port 0, and a JSON client of the console's API.
import { startTestBroker } from '../../server/broker-harness.js';

export type ConsoleBroker = Awaited<ReturnType<typeof startTestBroker>> & { readonly base: string };

export async function startConsoleBroker(settings: Record<string, string> = {}): Promise<ConsoleBroker> {
  const broker = await startTestBroker({ 'gregor.http.listeners': 'http://127.0.0.1:0', ...settings });
  const { host, port } = broker.httpAddresses[0]!;
  return Object.assign(broker, { base: `http://${host}:${port}` });
}

export interface Answer<T = any> {
  readonly status: number;
  readonly body: T;
}

/** One call of the console API (path under /console/api). */
export async function call<T = any>(broker: ConsoleBroker, method: string, path: string, body?: unknown): Promise<Answer<T>> {
  const response = await fetch(`${broker.base}/console/api${path}`, {
    method,
    ...(body === undefined ? {} : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
  });
  return { status: response.status, body: (await response.json()) as T };
}

/** The body of a call that must succeed. */
export async function ok<T = any>(broker: ConsoleBroker, method: string, path: string, body?: unknown): Promise<T> {
  const answer = await call<T>(broker, method, path, body);
  if (answer.status !== 200) throw new Error(`${method} ${path}: ${answer.status} ${JSON.stringify(answer.body)}`);
  return answer.body;
}
