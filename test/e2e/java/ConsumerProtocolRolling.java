// Five consumers with group.protocol=consumer on a 10-partition topic while a producer writes `total` records: each
// consumer is closed and replaced in turn (a rolling restart), then the program prints "restart the broker" and
// waits for a line on stdin (the test restarts the broker meanwhile). Every record must reach some consumer: the
// consumers commit after each poll, so a partition that moves resumes where its last owner committed.
// Usage: ConsumerProtocolRolling <bootstrap> <topic> <group> <total>
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;
import java.util.stream.IntStream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;

public class ConsumerProtocolRolling {
    static final Set<String> seen = ConcurrentHashMap.newKeySet();
    static final AtomicReference<Throwable> failure = new AtomicReference<>();
    static String bootstrap;
    static String topic;
    static String group;

    /** One member on its own thread: records what it reads, commits after each poll (a failed commit is retried by redelivery). */
    static final class Member implements Runnable {
        volatile boolean stopping;
        final Thread thread = new Thread(this);

        Member() {
            thread.start();
        }

        @Override
        public void run() {
            Map<String, Object> config = Map.of("bootstrap.servers", bootstrap, "group.id", group, "group.protocol", "consumer",
                "auto.offset.reset", "earliest", "enable.auto.commit", "false");
            try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(config, new StringDeserializer(), new StringDeserializer())) {
                consumer.subscribe(List.of(topic));
                while (!stopping) {
                    var records = consumer.poll(Duration.ofMillis(200));
                    for (ConsumerRecord<String, String> r : records) seen.add(r.value());
                    if (records.isEmpty()) continue;
                    try {
                        consumer.commitSync();
                    } catch (org.apache.kafka.common.errors.RetriableException | org.apache.kafka.clients.consumer.CommitFailedException
                             | org.apache.kafka.common.errors.StaleMemberEpochException | org.apache.kafka.common.errors.UnknownMemberIdException e) {
                        // The partitions moved or the coordinator is away: the next owner reads them again.
                    }
                }
            } catch (Throwable e) {
                failure.compareAndSet(null, e);
            }
        }

        void stop() throws InterruptedException {
            stopping = true;
            thread.join();
        }
    }

    static void await(String what, long limitMs, BooleanSupplier done) throws InterruptedException {
        long deadline = System.currentTimeMillis() + limitMs;
        while (!done.getAsBoolean()) {
            if (failure.get() != null) throw new AssertionError(what + ": " + failure.get());
            if (System.currentTimeMillis() > deadline) throw new AssertionError("gave up waiting for " + what);
            Thread.sleep(100);
        }
    }

    static long committed(Admin admin) {
        try {
            return admin.listConsumerGroupOffsets(group).partitionsToOffsetAndMetadata().get().values().stream()
                .mapToLong(OffsetAndMetadata::offset).sum();
        } catch (Exception e) {
            return -1;
        }
    }

    static ConsumerGroupDescription describe(Admin admin) {
        try {
            return admin.describeConsumerGroups(List.of(group)).all().get().get(group);
        } catch (Exception e) {
            return null;
        }
    }

    public static void main(String[] args) throws Exception {
        bootstrap = args[0];
        topic = args[1];
        group = args[2];
        int total = Integer.parseInt(args[3]);
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", bootstrap))) {
            admin.createTopics(List.of(new NewTopic(topic, 10, (short) 1))).all().get();
            Thread producing = new Thread(() -> {
                Map<String, Object> config = Map.of("bootstrap.servers", bootstrap, "acks", "all", "enable.idempotence", "true",
                    "delivery.timeout.ms", "120000");
                try (KafkaProducer<String, String> producer = new KafkaProducer<>(config, new StringSerializer(), new StringSerializer())) {
                    for (int i = 0; i < total; i++) {
                        producer.send(new ProducerRecord<>(topic, "k" + i, "m" + i), (metadata, error) -> {
                            if (error != null) failure.compareAndSet(null, error);
                        });
                        if (i % 20 == 19) Thread.sleep(10);
                    }
                    producer.flush();
                } catch (Throwable e) {
                    failure.compareAndSet(null, e);
                }
            });
            producing.start();
            List<Member> members = new ArrayList<>();
            for (int i = 0; i < 5; i++) members.add(new Member());
            await("five members, Stable", 60_000, () -> {
                ConsumerGroupDescription d = describe(admin);
                return d != null && d.members().size() == 5 && d.groupState().toString().equals("Stable");
            });
            System.out.println("five consumers in a Stable group of type " + describe(admin).type());
            for (int i = 0; i < 5; i++) {
                members.get(i).stop();
                members.set(i, new Member());
                int before = seen.size();
                await("records after replacing consumer " + i, 60_000, () -> seen.size() > before || seen.size() == total);
            }
            System.out.println("rolled all five consumers");
            System.out.println("restart the broker");
            new BufferedReader(new InputStreamReader(System.in)).readLine();
            producing.join();
            await("every record", 120_000, () -> seen.size() == total);
            List<String> missing = IntStream.range(0, total).mapToObj(i -> "m" + i).filter(v -> !seen.contains(v)).toList();
            System.out.println("received " + seen.size() + " of " + total + ", missing " + missing);
            await("the committed offsets to reach the end", 60_000, () -> committed(admin) == total);
            System.out.println("committed offsets sum to " + committed(admin));
            await("five members, Stable", 60_000, () -> {
                ConsumerGroupDescription d = describe(admin);
                return d != null && d.members().size() == 5 && d.groupState().toString().equals("Stable");
            });
            ConsumerGroupDescription d = describe(admin);
            System.out.println("group " + d.groupState() + " with " + d.members().size() + " members holding "
                + d.members().stream().mapToInt(m -> m.assignment().topicPartitions().size()).sum() + " partitions");
            for (Member m : members) m.stop();
            if (failure.get() != null) throw new AssertionError(failure.get());
        }
    }
}
