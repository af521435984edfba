// Apache Kafka's Java client (4.3.1) as a transactional producer, then a read_committed consumer, against one
// broker. Run as a source file: java -cp '<kafka-clients and its deps>/*' TransactionalRuns.java <bootstrap> <topic> <txn id> <group>
// Six transactions in order: commit, commit, commit, abort, abort, commit; each writes 4 records over the
// topic's 2 partitions and sends the group's offset for partition 0 (value 1 + the transaction's index).
// Prints: "TV2 <true|false>" (whether the client uses transactions v2: EndTxn v5, partitions added by Produce),
// then "COMMITTED <value>" for each record a read_committed consumer reads, "ALL <n>" for the records a
// read_uncommitted consumer reads, and "GROUP_OFFSET <n>" for the group's committed offset of partition 0.
import java.lang.reflect.Field;
import java.time.Duration;
import java.util.*;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.*;
import org.apache.kafka.clients.producer.*;
import org.apache.kafka.clients.producer.internals.TransactionManager;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;

public class TransactionalRuns {
    static final boolean[] COMMIT = {true, true, true, false, false, true};

    @SuppressWarnings("removal") // ConsumerGroupMetadata(String, ...): a group the producer is not a member of
    public static void main(String[] args) throws Exception {
        String bootstrap = args[0], topic = args[1], txnId = args[2], group = args[3];
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", bootstrap))) {
            admin.createTopics(List.of(new NewTopic(topic, 2, (short) 1))).all().get();
        }
        Properties p = new Properties();
        p.put("bootstrap.servers", bootstrap);
        p.put("transactional.id", txnId);
        p.put("key.serializer", StringSerializer.class.getName());
        p.put("value.serializer", StringSerializer.class.getName());
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(p)) {
            producer.initTransactions();
            for (int i = 0; i < COMMIT.length; i++) {
                producer.beginTransaction();
                for (int j = 0; j < 4; j++) producer.send(new ProducerRecord<>(topic, j % 2, "k" + i, "t" + i + "-r" + j));
                producer.sendOffsetsToTransaction(
                    Map.of(new TopicPartition(topic, 0), new OffsetAndMetadata(i + 1)), new ConsumerGroupMetadata(group, -1, "", Optional.empty()));
                // Every record reaches the log, aborted ones too (abortTransaction drops what is still unsent).
                producer.flush();
                if (COMMIT[i]) producer.commitTransaction(); else producer.abortTransaction();
                if (i == 0) System.out.println("TV2 " + transactionManager(producer).isTransactionV2Enabled());
            }
        }
        List<TopicPartition> partitions = List.of(new TopicPartition(topic, 0), new TopicPartition(topic, 1));
        for (String isolation : List.of("read_committed", "read_uncommitted")) {
            List<String> values = read(bootstrap, partitions, isolation);
            if (isolation.equals("read_committed")) for (String v : values) System.out.println("COMMITTED " + v);
            else System.out.println("ALL " + values.size());
        }
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", bootstrap))) {
            OffsetAndMetadata committed = admin.listConsumerGroupOffsets(group).partitionsToOffsetAndMetadata().get().get(partitions.get(0));
            System.out.println("GROUP_OFFSET " + (committed == null ? -1 : committed.offset()));
        }
    }

    static TransactionManager transactionManager(KafkaProducer<?, ?> producer) throws Exception {
        Field f = KafkaProducer.class.getDeclaredField("transactionManager");
        f.setAccessible(true);
        return (TransactionManager) f.get(producer);
    }

    /** Every record up to the end offsets the consumer sees (the last stable offset for read_committed). */
    static List<String> read(String bootstrap, List<TopicPartition> partitions, String isolation) {
        Properties c = new Properties();
        c.put("bootstrap.servers", bootstrap);
        c.put("isolation.level", isolation);
        c.put("key.deserializer", StringDeserializer.class.getName());
        c.put("value.deserializer", StringDeserializer.class.getName());
        List<String> values = new ArrayList<>();
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(c)) {
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> end = consumer.endOffsets(partitions);
            long deadline = System.currentTimeMillis() + 60_000;
            while (partitions.stream().anyMatch(tp -> consumer.position(tp) < end.get(tp)) && System.currentTimeMillis() < deadline) {
                for (ConsumerRecord<String, String> r : consumer.poll(Duration.ofMillis(200))) values.add(r.value());
            }
        }
        return values;
    }
}
