// Regenerates test/fixtures/wire/<client>/ by running real clients through the capture proxy against a fresh
// reference Apache Kafka broker that advertises the proxy's port (so every connection is recorded).
//   npm run build && node dist/compat-tests/wire/regenerate.js      (or compat-tests/wire/regenerate.sh)
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { Kafka, logLevel } from 'kafkajs';
import { startCaptureProxy } from '../capture.js';
import { describeFailure, runCommand } from '../lib/command.js';
import { binDir, cacheDir, wireFixturesDir } from '../lib/paths.js';
import { freePort, freePortPair } from '../lib/ports.js';
import { startReferenceBroker } from '../reference/broker.js';

/** A topic every capture sees, so metadata responses carry partitions. */
const TOPIC = 'wire-topic';

interface Capture {
  /** Folder under test/fixtures/wire. */
  name: string;
  run(bootstrap: string): Promise<void>;
}

async function tool(command: string, args: string[]): Promise<void> {
  const result = await runCommand(command, args);
  if (result.code !== 0) throw new Error(describeFailure(`${command} ${args.join(' ')}`, result));
}

const captures: Capture[] = [
  {
    name: 'kafkajs',
    run: async (bootstrap) => {
      const admin = new Kafka({ clientId: 'gregor-wire', brokers: [bootstrap], logLevel: logLevel.NOTHING }).admin();
      await admin.connect();
      await admin.fetchTopicMetadata({ topics: [TOPIC] });
      await admin.describeCluster();
      await admin.disconnect();
    },
  },
  { name: 'kcat', run: (bootstrap) => tool('kcat', ['-b', bootstrap, '-L']) },
  {
    name: 'kafka-broker-api-versions',
    run: (bootstrap) => tool(join(binDir, 'kafka-broker-api-versions'), ['--bootstrap-server', bootstrap]),
  },
  {
    name: 'kafka-topics-list',
    run: (bootstrap) => tool(join(binDir, 'kafka-topics'), ['--bootstrap-server', bootstrap, '--list']),
  },
];

async function main(): Promise<void> {
  const only = process.argv.slice(2);
  const brokerPort = await freePortPair();
  const proxyPort = await freePort();
  const broker = await startReferenceBroker({ port: brokerPort, advertisedPort: proxyPort });
  try {
    const through = async (outDir: string, action: (bootstrap: string) => Promise<void>): Promise<number> => {
      const proxy = await startCaptureProxy({ listenPort: proxyPort, upstreamHost: '127.0.0.1', upstreamPort: brokerPort, outDir });
      try {
        await action(`127.0.0.1:${proxy.port}`);
      } finally {
        await proxy.close();
      }
      return proxy.recorded;
    };
    // Set-up traffic is recorded into the cache, not the fixtures.
    await through(join(cacheDir, 'wire-setup'), (bootstrap) =>
      tool(join(binDir, 'kafka-topics'), ['--bootstrap-server', bootstrap, '--create', '--topic', TOPIC, '--partitions', '2']),
    );
    for (const capture of captures) {
      if (only.length > 0 && !only.includes(capture.name)) continue;
      const outDir = join(wireFixturesDir, capture.name);
      rmSync(outDir, { recursive: true, force: true });
      const pairs = await through(outDir, capture.run);
      console.log(`${capture.name}: ${pairs} request/response pairs in ${outDir}`);
    }
  } finally {
    await broker.stop();
  }
}

main().catch((error: unknown) => {
  console.error((error as Error).message);
  process.exit(1);
});
