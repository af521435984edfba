"""confluent-kafka (librdkafka 2.x) under the KIP-848 consumer group protocol (group.protocol=consumer).

scenarios.py dispatches consumer-group-rebalance, consumer-commit-resume and consumer-static-members here; this file
run alone is the crashed member of consumer-group-rebalance: consumer_protocol.py member <bootstrap> <group> <topic>.
The broker gives members a 6 s session and 500 ms heartbeats (runner/consumer-protocol.ts): under this protocol
librdkafka refuses session.timeout.ms and heartbeat.interval.ms.
"""
import sys
import threading

from confluent_kafka import TopicPartition

import scenarios as common
from compat import check, eventually, observe, run, same

CONSUMER = {"group.protocol": "consumer"}


class Member:
    """A consumer-protocol member on its own thread. Its callbacks get the partitions added and revoked (incremental)."""

    def __init__(self, bootstrap, group, topic, instance=None):
        self.assignment = set()
        self.failure = None
        self.stopping = False
        extra = dict(CONSUMER)
        if instance is not None:
            extra["group.instance.id"] = instance
        self.thread = threading.Thread(target=self._run, args=(bootstrap, group, topic, extra), daemon=True)
        self.thread.start()

    def _run(self, bootstrap, group, topic, extra):
        try:
            consumer = common.consumer_for(bootstrap, group, **extra)

            def assigned(_, partitions):
                self.assignment = self.assignment | {p.partition for p in partitions}

            def revoked(_, partitions):
                self.assignment = self.assignment - {p.partition for p in partitions}
            consumer.subscribe([topic], on_assign=assigned, on_revoke=revoked, on_lost=revoked)
            while not self.stopping:
                message = consumer.poll(0.1)
                if message is not None and message.error() is not None and message.error().fatal():
                    raise common.KafkaException(message.error())
            consumer.close()  # a clean leave: the leave heartbeat
        except Exception as error:  # reported by settle
            self.failure = error

    def stop(self):
        self.stopping = True
        self.thread.join(30)


def settler(admin, group, steps):
    def settle(step, live, sizes, total):
        def probe():
            for m in live:
                if m.failure is not None:
                    raise AssertionError(f"member failed: {m.failure}")
            held = [m.assignment for m in live]
            if sorted(len(a) for a in held) != sizes or (total == len(live) and len(set().union(*held)) != 6):
                return None
            described = admin.describe_consumer_groups([group])[group].result(common.TIMEOUT)
            if described.state.name != "STABLE" or len(described.members) != total:
                return None
            return described
        described = eventually(f"{step}: sizes {sizes}", probe, limit=60)
        steps[step] = {"sizes": sizes, "state": described.state.name, "members": len(described.members),
                       "assignor": described.partition_assignor, "type": described.type.name}
    return settle


def member(bootstrap, group, topic):
    Member(bootstrap, group, topic).thread.join()


def group_rebalance(bootstrap, prefix):
    topic, group = prefix + "topic", prefix + "group"
    admin = common.admin_for(bootstrap)
    common.create(admin, topic, 6)
    steps = {}
    settle = settler(admin, group, steps)
    common.rebalance_steps(settle, lambda: Member(bootstrap, group, topic), [sys.executable, __file__, "member", bootstrap, group, topic])
    observe("steps", steps)


def commit_resume(bootstrap, prefix):
    topic, group = prefix + "topic", prefix + "group"
    admin = common.admin_for(bootstrap)
    common.create(admin, topic, 1)
    common.produce_numbered(bootstrap, topic, 0, 10)
    observe("committed-before", common.committed(admin, group, topic))
    consumer = common.consumer_for(bootstrap, group, **CONSUMER)
    consumer.subscribe([topic])

    def commit_at_four(message):
        if message.offset() == 4:
            consumer.commit(offsets=[TopicPartition(topic, 0, 5)], asynchronous=False)
    common.poll_until(consumer, common.reaches(4), commit_at_four)
    consumer.close()
    same(5, common.committed(admin, group, topic), "committed offset")
    described = admin.describe_consumer_groups([group])[group].result(common.TIMEOUT)
    observe("after-leave", {"state": described.state.name, "members": len(described.members), "type": described.type.name})
    resumed = common.read_group(bootstrap, group, topic, common.reaches(9), **CONSUMER)
    same(common.numbered(5, 5), common.values(resumed), "resumed values")
    observe("resumed", common.positions(resumed))
    observe("committed-after", common.committed(admin, group, topic))


def static_members(bootstrap, prefix):
    """A static member that closes keeps its partitions for its session and gets them back on return, without a
    rebalance; one that does not come back leaves when its session ends."""
    topic, group = prefix + "topic", prefix + "group"
    admin = common.admin_for(bootstrap)
    common.create(admin, topic, 6)
    steps = {}
    settle = settler(admin, group, steps)
    members = []
    try:
        a = Member(bootstrap, group, topic, "instance-a")
        members.append(a)
        settle("one", [a], [6], 1)
        b = Member(bootstrap, group, topic, "instance-b")
        members.append(b)
        settle("two", [a, b], [3, 3], 2)
        held_by_b = set(b.assignment)
        b.stop()

        def away():
            described = admin.describe_consumer_groups([group])[group].result(common.TIMEOUT)
            held = [m for m in described.members if m.group_instance_id == "instance-b"]
            return described if held and {p.partition for p in held[0].assignment.topic_partitions} == held_by_b else None
        described = eventually("instance-b away, its partitions kept", away)
        same(3, len(a.assignment), "instance-a's partitions while instance-b is away")
        steps["b-closed"] = {"members": len(described.members), "state": described.state.name}
        b2 = Member(bootstrap, group, topic, "instance-b")
        members.append(b2)
        settle("b-back", [a, b2], [3, 3], 2)
        check(b2.assignment == held_by_b, f"instance-b's partitions when it comes back: want {held_by_b}, have {b2.assignment}")
        b2.stop()
        settle("b-expired", [a], [6], 1)
        observe("steps", steps)
    finally:
        for m in members:
            m.stop()


SCENARIOS = {"consumer-group-rebalance": group_rebalance, "consumer-commit-resume": commit_resume,
             "consumer-static-members": static_members}

if __name__ == "__main__":
    run({"member": member})
