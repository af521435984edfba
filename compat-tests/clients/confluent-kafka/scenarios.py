"""confluent-kafka (librdkafka) scenarios for the compat runner.

Usage: scenarios.py <scenario> <bootstrap> <name-prefix>; exit 0 = pass, an AssertionError = fail (see runner/external.ts).
"""
import sys

from confluent_kafka import Consumer, Producer
from confluent_kafka.admin import AdminClient, AlterConfigOpType, ConfigEntry, ConfigResource, NewPartitions, NewTopic

sys.path.insert(0, __file__.rsplit("/", 2)[0] + "/python")
from compat import eventually, run  # noqa: E402

TIMEOUT = 30


def admin_for(bootstrap):
    return AdminClient({"bootstrap.servers": bootstrap})


def create(admin, topic, partitions, config=None):
    futures = admin.create_topics([NewTopic(topic, num_partitions=partitions, config=config or {})])
    futures[topic].result(TIMEOUT)


def metadata(bootstrap, prefix):
    admin = admin_for(bootstrap)
    cluster = admin.list_topics(timeout=TIMEOUT)
    assert len(cluster.brokers) == 1, f"brokers: {cluster.brokers}"
    broker = next(iter(cluster.brokers.values()))
    assert f"{broker.host}:{broker.port}" == bootstrap, f"broker advertises {broker.host}:{broker.port}"
    assert cluster.controller_id == broker.id, f"controller {cluster.controller_id}"
    assert cluster.cluster_id, "a cluster id"
    topic = prefix + "topic"
    create(admin, topic, 3)

    def three_partitions():
        described = admin.list_topics(topic, timeout=TIMEOUT).topics[topic]
        return described if described.error is None and len(described.partitions) == 3 else None

    described = eventually("3 partitions", three_partitions)
    got = sorted((p.id, p.leader, p.replicas, p.isrs) for p in described.partitions.values())
    assert got == [(i, broker.id, [broker.id], [broker.id]) for i in range(3)], got


def produce_consume(bootstrap, prefix):
    topic = prefix + "topic"
    create(admin_for(bootstrap), topic, 1)
    sent = [
        (b"k1", b"v1", [("h1", b"x"), ("h2", b"y")], "none"),
        (None, b"no key", [], "none"),
        (b"empty", b"", [], "none"),
        (b"null", None, [], "none"),
        (b"big", b"x" * (512 * 1024), [], "none"),
    ] + [(codec.encode(), f"compressed with {codec}".encode(), [], codec) for codec in ("gzip", "snappy", "lz4", "zstd")]
    for codec in ("none", "gzip", "snappy", "lz4", "zstd"):
        producer = Producer({"bootstrap.servers": bootstrap, "compression.codec": codec, "linger.ms": 5})
        errors = []
        for key, value, headers, c in sent:
            if c == codec:
                producer.produce(topic, value=value, key=key, headers=headers,
                                 on_delivery=lambda err, msg: errors.append(err) if err else None)
        assert producer.flush(TIMEOUT) == 0, "undelivered messages"
        assert not errors, errors

    consumer = Consumer({"bootstrap.servers": bootstrap, "group.id": prefix + "group", "auto.offset.reset": "earliest"})
    consumer.subscribe([topic])
    received = []
    try:
        def poll():
            message = consumer.poll(1.0)
            if message is not None:
                assert message.error() is None, message.error()
                received.append(message)
            return True if len(received) >= len(sent) else None
        eventually(f"{len(sent)} messages", poll, limit=60)
    finally:
        consumer.close()
    got = [(m.offset(), m.key(), m.value(), m.headers() or []) for m in received]
    want = [(i, key, value, headers) for i, (key, value, headers, _) in enumerate(sent)]
    assert got == want, [g[:2] for g in got]


def topic_configs(admin, topic, names):
    resource = ConfigResource(ConfigResource.Type.TOPIC, topic)
    entries = admin.describe_configs([resource])[resource].result(TIMEOUT)
    return {name: entries[name].value for name in names}


def topic_admin(bootstrap, prefix):
    admin = admin_for(bootstrap)
    topic = prefix + "topic"
    create(admin, topic, 3, {"cleanup.policy": "compact"})
    names = ["cleanup.policy", "retention.ms"]
    assert topic_configs(admin, topic, names) == {"cleanup.policy": "compact", "retention.ms": "604800000"}
    resource = ConfigResource(ConfigResource.Type.TOPIC, topic, incremental_configs=[
        ConfigEntry("retention.ms", "3600000", incremental_operation=AlterConfigOpType.SET)])
    admin.incremental_alter_configs([resource])[resource].result(TIMEOUT)
    # The broker applies an altered config once the controller's record reaches it: read until it shows.
    want = {"cleanup.policy": "compact", "retention.ms": "3600000"}
    eventually(f"configs {want}", lambda: True if topic_configs(admin, topic, names) == want else None)
    assert topic_configs(admin, topic, names) == want
    admin.create_partitions([NewPartitions(topic, 5)])[topic].result(TIMEOUT)
    eventually("5 partitions", lambda: True if len(admin.list_topics(topic, timeout=TIMEOUT).topics[topic].partitions) == 5 else None)
    admin.delete_topics([topic])[topic].result(TIMEOUT)
    eventually("the deleted topic to leave the topic list",
               lambda: True if topic not in admin.list_topics(timeout=TIMEOUT).topics else None)


if __name__ == "__main__":
    run({"metadata": metadata, "produce-consume": produce_consume, "topic-admin": topic_admin})
