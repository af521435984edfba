// A kafkajs group member in a process of its own, so group-rebalance can SIGKILL it: a crash sends no LeaveGroup
// and the coordinator must notice the missed heartbeats. Prints "assigned <json>" after each join.
// Usage: node member.js <bootstrap> <group> <topic> <sessionTimeoutMs>
import kafkajsPackage from 'kafkajs';

const [bootstrap, groupId, topic, sessionTimeout] = process.argv.slice(2);
if (bootstrap === undefined || groupId === undefined || topic === undefined || sessionTimeout === undefined) {
  console.error('usage: member.js <bootstrap> <group> <topic> <sessionTimeoutMs>');
  process.exit(2);
}
const { Kafka, logLevel } = kafkajsPackage;
const kafka = new Kafka({ clientId: 'gregor-compat-member', brokers: [bootstrap], logLevel: logLevel.NOTHING });
const consumer = kafka.consumer({ groupId, sessionTimeout: Number(sessionTimeout), heartbeatInterval: 500, maxWaitTimeInMs: 500 });
consumer.on(consumer.events.GROUP_JOIN, (event) => {
  const payload = event.payload as { memberAssignment: Record<string, number[]> };
  process.stdout.write(`assigned ${JSON.stringify(Object.values(payload.memberAssignment).flat())}\n`);
});
await consumer.connect();
await consumer.subscribe({ topics: [topic], fromBeginning: true });
await consumer.run({ eachMessage: async () => {} });
