// The compat runner: every client × scenario against gregor (default) or Apache Kafka (--reference).
//   npm run compat [-- --reference [--record]] [--differential] [--strict] [--client a,b] [--scenario x,y] [--list]
//                  [--bootstrap 127.0.0.1:PORT]   (a broker already running; a reference one is restarted by port)
//                  [--security]   (the scenarios security/cells.ts names over SASL_SSL and mTLS, and the refused logins)
// Against gregor, cells listed in pending.json that fail read "skip (pending: ...)" (CI mode, the default;
// --strict turns it off). --differential compares gregor's deterministic results with the ones a reference run
// recorded (--reference --record) in differential/kafka-<version>.json.
// Prints the matrix and a closing "N passed, N failed, N skipped" line; exits 1 iff a cell failed unexpectedly.
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { CLIENTS } from './clients/index.js';
import { compatDir } from './lib/paths.js';
import { applyDifferential, loadRecorded, record } from './runner/differential.js';
import { formatMatrix, tally, type Result } from './runner/matrix.js';
import { applyPending, loadPending } from './runner/pending.js';
import { runningTarget, startGregorTarget, startReferenceTarget } from './runner/targets.js';
import { SCENARIO_CLIENTS, SCENARIOS, type ClientSuite, type Outcome, type ScenarioContext, type ScenarioName, type Target } from './runner/types.js';
import { securityCells, setSecurityEnv } from './security/cells.js';
import { startSecureTarget, type SecureTarget } from './security/target.js';

const KAFKA_VERSION = process.env.KAFKA_VERSION ?? '4.3.1';
const pendingFile = join(compatDir, 'pending.json');
const recordedFile = join(compatDir, 'differential', `kafka-${KAFKA_VERSION}.json`);

function listOption(values: string[] | undefined): string[] {
  return (values ?? []).flatMap((value) => value.split(',')).map((value) => value.trim()).filter(Boolean);
}

async function outcomeOf(work: () => Promise<Outcome>): Promise<Outcome> {
  try {
    return await work();
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return { status: 'fail', reason: message.replace(/\s+/g, ' ').slice(0, 400) };
  }
}

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      reference: { type: 'boolean', default: false },
      record: { type: 'boolean', default: false },
      differential: { type: 'boolean', default: false },
      ci: { type: 'boolean', default: false },
      strict: { type: 'boolean', default: false },
      client: { type: 'string', multiple: true },
      scenario: { type: 'string', multiple: true },
      list: { type: 'boolean', default: false },
      bootstrap: { type: 'string' },
      security: { type: 'boolean', default: false },
    },
  });
  const wantedClients = listOption(values.client);
  const wantedScenarios = listOption(values.scenario);
  const clientNames = CLIENTS.map((c) => c.name);
  for (const name of wantedClients) {
    if (!clientNames.includes(name)) throw new Error(`unknown client ${name}; known: ${clientNames.join(', ')}`);
  }
  for (const name of wantedScenarios) {
    if (!(SCENARIOS as readonly string[]).includes(name) && !(values.security && name === 'auth-failure')) throw new Error(`unknown scenario ${name}; known: ${SCENARIOS.join(', ')}`);
  }
  if (values.record && !values.reference) throw new Error('--record records a reference run: add --reference');
  if (values.differential && values.reference) throw new Error('--differential compares gregor with a recorded reference run');
  const clients = CLIENTS.filter((client) => wantedClients.length === 0 || wantedClients.includes(client.name));
  const scenarios = SCENARIOS.filter((scenario) => wantedScenarios.length === 0 || wantedScenarios.includes(scenario));
  if (values.list) {
    for (const client of clients) console.log(`${client.name}: ${scenarios.filter((s) => client.scenarios[s]).join(', ')}`);
    return 0;
  }

  const kind = values.reference ? 'reference' : 'gregor';
  const pending = kind === 'gregor' && !values.strict ? loadPending(pendingFile, clientNames) : [];
  const recorded = values.differential ? loadRecorded(recordedFile) : undefined;
  if (values.differential && recorded === undefined) throw new Error(`--differential: no ${recordedFile}; record one with --reference --record`);
  const runId = randomBytes(3).toString('hex');
  const results: Result[] = [];
  const started = Date.now();
  let target: Target | undefined;
  let secure: SecureTarget | undefined;
  let targetFailure: string | undefined;
  try {
    if (values.security) {
      if (values.bootstrap !== undefined) throw new Error('--security starts its own broker (its listeners and CA): drop --bootstrap');
      secure = await startSecureTarget(kind);
      target = secure.target;
    } else if (values.bootstrap !== undefined) target = runningTarget(kind, values.bootstrap);
    else target = values.reference ? await startReferenceTarget() : await startGregorTarget();
    console.error(`compat: ${kind} broker at ${target.bootstrap}`);
  } catch (error) {
    targetFailure = `${kind} broker did not start: ${(error as Error).message}`;
    console.error(`compat: ${targetFailure}`);
  }

  // One cell: `label` is its matrix row (the scenario, or "<variant>:<scenario>" in a security run).
  // A security cell may carry its own skip (`cannotHere`) and a reason every observation of it is excused (`excuseAll`).
  const runCell = async (client: ClientSuite, scenarioName: ScenarioName, label: string, on: Target | undefined, blocked: string | undefined,
    cannotHere?: string, excuseAll?: string): Promise<void> => {
    const scenario = client.scenarios[scenarioName];
    const cannot = client.cannot?.[scenarioName];
    const observations: Record<string, unknown> = {};
    const excused: Record<string, string> = {};
    let outcome: Outcome;
    const cellStarted = Date.now();
    if (blocked !== undefined || on === undefined) outcome = { status: 'fail', reason: blocked ?? 'no broker' };
    else if (cannotHere !== undefined) outcome = { status: 'skip', reason: cannotHere };
    else if (cannot !== undefined) outcome = { status: 'skip', reason: `${cannot} (clients/${client.name}/FINDINGS.md)` };
    else if (scenario === undefined) outcome = { status: 'skip', reason: 'not written for this client yet' };
    else {
      const context: ScenarioContext = {
        target: on,
        name: (suffix) => `compat-${client.name}-${label.replace(':', '-')}-${runId}-${suffix}`,
        observe: (key, value) => {
          observations[key] = value;
        },
        excuse: (key, reason) => {
          excused[key] = reason;
        },
      };
      console.error(`compat: ${client.name} / ${label} ...`);
      outcome = await outcomeOf(() => scenario(context));
    }
    if (excuseAll !== undefined) for (const key of Object.keys(observations)) excused[key] = excuseAll;
    let result: Result = { client: client.name, scenario: label, outcome, observations, excused,
      ...(excuseAll !== undefined && recorded !== undefined ? { note: `not compared with Kafka: ${excuseAll}` } : {}) };
    if (recorded !== undefined) result = applyDifferential(result, recorded);
    result = applyPending(result, pending);
    const seconds = ((Date.now() - cellStarted) / 1000).toFixed(1);
    const shown = result.outcome.status === 'pass' ? '' : `: ${result.outcome.reason}`;
    console.error(`compat: ${client.name} / ${label}: ${result.outcome.status}${shown} (${seconds} s)`);
    if (result.pendingFailure !== undefined) console.error(`compat:   (pending cell failed with: ${result.pendingFailure})`);
    results.push(result);
  };

  try {
    for (const client of clients) {
      // A broker that did not start or a client that did not install fails each of that client's cells.
      let blocked = targetFailure;
      if (blocked === undefined) {
        try {
          await client.install();
        } catch (error) {
          blocked = `install failed: ${(error as Error).message}`;
        }
      }
      if (secure !== undefined) {
        for (const cell of securityCells(secure, client.name, wantedScenarios)) {
          setSecurityEnv(cell.variant.env);
          await runCell(client, cell.scenario, cell.label, { ...secure.target, bootstrap: cell.variant.bootstrap }, blocked, cell.cannot, cell.excused);
        }
        setSecurityEnv({});
        continue;
      }
      for (const scenarioName of scenarios) {
        if (SCENARIO_CLIENTS[scenarioName]?.includes(client.name) === false) continue;
        await runCell(client, scenarioName, scenarioName, target, blocked);
      }
    }
  } finally {
    await (secure?.stop() ?? target?.stop());
  }

  if (values.record) {
    const written = record(recordedFile, KAFKA_VERSION, results);
    console.error(`compat: recorded ${written} cells' observations in ${recordedFile}`);
  }
  const title = `compat matrix${secure !== undefined ? ' over SASL_SSL and SSL' : ''} against ${kind === 'reference' ? `Apache Kafka ${KAFKA_VERSION} (reference)` : 'gregor'}` +
    `${recorded !== undefined ? `, differential against Kafka ${recorded.kafka}` : ''}`;
  console.log(formatMatrix(results, title));
  console.log(`(${((Date.now() - started) / 1000).toFixed(0)} s)`);
  return tally(results).failed > 0 ? 1 : 0;
}

// A scenario awaiting something that can never happen leaves node with nothing to do: say so instead of exiting 0.
process.on('beforeExit', () => {
  console.error('compat: a scenario waited on nothing (a promise that can never settle); stopping');
  process.exit(2);
});

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(`compat: ${(error as Error).message}`);
    process.exit(2);
  },
);
