// kafkajs as a user whose ACLs allow little (SASL PLAIN): each step's outcome as one line, the error's name and
// message or what was read, for the ACL e2e test to compare with what Kafka 4.3.1 answered the same steps.
import { Kafka, logLevel, type Admin } from 'kafkajs';

export interface AclCheckSetup {
  readonly bootstrap: string;
  readonly user: string;
  readonly password: string;
  readonly readable: string;
  readonly group: string;
  readonly secret: string;
}

async function outcome(run: () => Promise<string>): Promise<string> {
  try {
    return await run();
  } catch (err) {
    const e = err as Error & { type?: string; errors?: (Error & { type?: string })[] };
    const line = (x: Error & { type?: string }) => `${x.name}${x.type === undefined ? '' : ` ${x.type}`}: ${x.message}`;
    return e.errors === undefined ? line(e) : `${line(e)} [${e.errors.map(line).join('; ')}]`;
  }
}

export async function kafkajsAclChecks(s: AclCheckSetup): Promise<string[]> {
  const kafka = new Kafka({
    brokers: [s.bootstrap], clientId: 'acl-checks', logLevel: logLevel.NOTHING, retry: { retries: 0 },
    sasl: { mechanism: 'plain', username: s.user, password: s.password },
  });
  const lines: string[] = [];
  // ACL_CHECKS_TRACE=1 prints each line as it comes (to record Kafka's answers).
  const step = async (name: string, run: () => Promise<string>) => {
    lines.push(`${name}: ${await outcome(run)}`);
    if (process.env.ACL_CHECKS_TRACE) console.log(lines.at(-1));
  };

  const consume = (topic: string, groupId: string) => async () => {
    const consumer = kafka.consumer({ groupId, retry: { retries: 0 } });
    try {
      await consumer.connect();
      await consumer.subscribe({ topic, fromBeginning: true });
      return await new Promise<string>((resolve, reject) => {
        consumer.on(consumer.events.CRASH, (event) => reject(event.payload.error));
        void consumer.run({ eachMessage: async ({ message }) => resolve(`read ${message.value!.toString()}`) }).catch(reject);
      });
    } finally {
      await consumer.disconnect();
    }
  };
  await step(`consume ${s.readable}`, consume(s.readable, s.group));
  await step(`consume ${s.secret}`, consume(s.secret, s.group));
  await step('consume with group other', consume(s.readable, 'other'));

  const produce = (transactionalId?: string) => async () => {
    const producer = kafka.producer(transactionalId === undefined ? {} : { transactionalId, idempotent: true, maxInFlightRequests: 1, retry: { retries: 1 } });
    try {
      await producer.connect();
      if (transactionalId !== undefined) {
        const txn = await producer.transaction();
        await txn.send({ topic: s.readable, messages: [{ value: 'from kafkajs' }] });
        await txn.commit();
      } else {
        await producer.send({ topic: s.readable, messages: [{ value: 'from kafkajs' }] });
      }
      return 'produced';
    } finally {
      await producer.disconnect();
    }
  };
  await step(`produce ${s.readable}`, produce());
  await step('transactional produce', produce(`tx-${s.user}`));

  const admin: Admin = kafka.admin();
  await admin.connect();
  try {
    await step('list topics', async () => JSON.stringify((await admin.listTopics()).sort()));
    await step('create topic', async () => String(await admin.createTopics({ topics: [{ topic: `created-by-${s.user}` }] })));
    await step(`delete topic ${s.readable}`, async () => {
      await admin.deleteTopics({ topics: [s.readable] });
      return 'deleted';
    });
    await step(`describe configs ${s.readable}`, async () =>
      JSON.stringify((await admin.describeConfigs({ includeSynonyms: false, resources: [{ type: 2, name: s.readable }] })).resources.map((r) => [r.errorCode, r.errorMessage])));
    await step('list groups', async () => JSON.stringify((await admin.listGroups()).groups.map((g) => g.groupId).sort()));
    await step('describe acls', async () => JSON.stringify(await admin.describeAcls({ resourceType: 1, permissionType: 1, operation: 1, resourcePatternType: 1 })));
  } finally {
    await admin.disconnect();
  }
  return lines;
}
