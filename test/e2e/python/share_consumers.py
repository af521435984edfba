# confluent-kafka's ShareConsumer (librdkafka's KIP-932 preview) for test/e2e/share-consumers-python.test.ts: one
# consumer per process, so that the test can SIGKILL one; it prints one fact a line as it happens.
#   setup    BOOTSTRAP TOPIC GROUP VALUES [KEY=VALUE...]
#       creates the one-partition topic, sets the group's configs (share.auto.offset.reset=earliest and those given)
#       and produces VALUES (comma separated) in order.
#   consume  BOOTSTRAP TOPIC GROUP CLIENT_ID [mode=implicit|explicit] [hold=1] [ackFirst=N]
#       prints "got OFFSET DELIVERY_COUNT VALUE" for each record. Explicit mode acknowledges by value: "release*" is
#       RELEASEd every time, "reject*" REJECTed, "again*" RELEASEd on its first delivery and ACCEPTed after, anything
#       else ACCEPTed; each acknowledgement is committed (commit_sync) and printed "acked OFFSET DELIVERY_COUNT TYPE".
#       hold=1 keeps the first poll's records acquired (ACCEPTing the first ackFirst of them) and polls no more,
#       printing "holding FIRST LAST". maxPollRecords=N is librdkafka's max.poll.records, workMs=N a pause after each
#       non-empty poll (the work on its records). "stop" on stdin closes the consumer (acknowledging what is pending) and exits.
import sys
import threading
import time

from confluent_kafka import AcknowledgeType, Producer, ShareConsumer
from confluent_kafka.admin import AdminClient, AlterConfigOpType, ConfigEntry, ConfigResource, NewTopic, ResourceType


def out(line):
    sys.stdout.write(line + '\n')
    sys.stdout.flush()


def setup(bootstrap, topic, group, values, configs):
    admin = AdminClient({'bootstrap.servers': bootstrap})
    admin.create_topics([NewTopic(topic, 1, 1)])[topic].result()
    entries = [ConfigEntry('share.auto.offset.reset', 'earliest', incremental_operation=AlterConfigOpType.SET)]
    for key, value in configs.items():
        entries.append(ConfigEntry(key, value, incremental_operation=AlterConfigOpType.SET))
    resource = ConfigResource(ResourceType.GROUP, group, incremental_configs=entries)
    for future in admin.incremental_alter_configs([resource]).values():
        future.result()
    producer = Producer({'bootstrap.servers': bootstrap, 'linger.ms': 5})
    # Ten records a batch: share partitions acquire whole batches, so consumers can share a long run.
    for i, value in enumerate(values):
        producer.produce(topic, value.encode(), partition=0)
        if i % 10 == 9 and producer.flush(30) != 0:
            raise RuntimeError('records not delivered')
    if producer.flush(30) != 0:
        raise RuntimeError('records not delivered')
    out('ready')


def ack_type(value, delivery_count):
    if value.startswith('release'):
        return AcknowledgeType.RELEASE
    if value.startswith('reject'):
        return AcknowledgeType.REJECT
    if value.startswith('again') and delivery_count == 1:
        return AcknowledgeType.RELEASE
    return AcknowledgeType.ACCEPT


def consume(bootstrap, topic, group, client_id, options):
    explicit = options.get('mode', 'implicit') == 'explicit'
    hold = options.get('hold') == '1'
    ack_first = int(options.get('ackFirst', '0'))
    work = float(options.get('workMs', '0')) / 1000
    stop = threading.Event()

    def read_stdin():
        for line in sys.stdin:
            if line.strip() == 'stop':
                break
        stop.set()

    threading.Thread(target=read_stdin, daemon=True).start()
    consumer = ShareConsumer({
        'bootstrap.servers': bootstrap, 'group.id': group, 'client.id': client_id,
        'share.acknowledgement.mode': 'explicit' if explicit or hold else 'implicit',
        'max.poll.records': int(options.get('maxPollRecords', '500')),
    })
    consumer.subscribe([topic])
    while not stop.is_set():
        batch = [m for m in consumer.poll(0.5) if m.error() is None]
        acked = []
        for m in batch:
            value = m.value().decode()
            out(f'got {m.offset()} {m.delivery_count()} {value}')
            if hold:
                continue
            if explicit:
                kind = ack_type(value, m.delivery_count())
                consumer.acknowledge(m, kind)
                acked.append((m, kind))
        if hold and batch:
            for m in batch[:ack_first]:
                consumer.acknowledge(m, AcknowledgeType.ACCEPT)
                acked.append((m, AcknowledgeType.ACCEPT))
        if acked:
            failed = [str(e) for e in consumer.commit_sync(30).values() if e is not None]
            if failed:
                out('refused ' + ' '.join(failed))
            for m, kind in acked:
                out(f'acked {m.offset()} {m.delivery_count()} {kind.name}')
        if batch and work:
            time.sleep(work)
        if hold and batch:
            held = batch[ack_first:]
            out(f'holding {held[0].offset()} {held[-1].offset()}' if held else 'holding none')
            stop.wait()
            # A held consumer is killed or the test is over: its records are not acknowledged.
            return
    consumer.close()


def main():
    command, bootstrap, topic, group = sys.argv[1:5]
    if command == 'setup':
        configs = dict(arg.split('=', 1) for arg in sys.argv[6:])
        setup(bootstrap, topic, group, sys.argv[5].split(','), configs)
    else:
        consume(bootstrap, topic, group, sys.argv[5], dict(arg.split('=', 1) for arg in sys.argv[6:]))


if __name__ == '__main__':
    main()
