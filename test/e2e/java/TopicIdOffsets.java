// Kafka 4.3.1's Java client where it names topics by id: the producer (Produce v13) and the consumer of
// group.protocol=consumer, here with assign() so no ConsumerGroupHeartbeat is needed, whose commits and committed-offset
// reads are OffsetCommit/OffsetFetch v10. Prints what it sees, one fact a line; the admin reads the offsets by name.
//   java -cp '<kafka libs>/*' TopicIdOffsets.java <bootstrap> <topic> <group>
import java.time.Duration;
import java.util.*;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.*;
import org.apache.kafka.clients.producer.*;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;

public class TopicIdOffsets {
    public static void main(String[] args) throws Exception {
        String bootstrap = args[0], topic = args[1], group = args[2];
        List<TopicPartition> parts = List.of(new TopicPartition(topic, 0), new TopicPartition(topic, 1));
        Properties p = new Properties();
        p.put("bootstrap.servers", bootstrap);
        try (Producer<String, String> producer = new KafkaProducer<>(p, new StringSerializer(), new StringSerializer())) {
            for (String v : List.of("a", "b", "c")) producer.send(new ProducerRecord<>(topic, 0, null, v)).get();
            producer.send(new ProducerRecord<>(topic, 1, null, "d")).get();
        }
        Properties c = new Properties();
        c.put("bootstrap.servers", bootstrap);
        c.put("group.id", group);
        c.put("group.protocol", "consumer");
        c.put("enable.auto.commit", "false");
        c.put("auto.offset.reset", "earliest");
        try (Consumer<String, String> consumer = new KafkaConsumer<>(c, new StringDeserializer(), new StringDeserializer())) {
            consumer.assign(parts);
            List<String> seen = new ArrayList<>();
            while (seen.size() < 4) for (ConsumerRecord<String, String> r : consumer.poll(Duration.ofSeconds(1))) seen.add(r.value());
            Collections.sort(seen);
            System.out.println("consumed " + seen);
            consumer.commitSync(Map.of(parts.get(0), new OffsetAndMetadata(2, "two"), parts.get(1), new OffsetAndMetadata(1)));
            Map<TopicPartition, OffsetAndMetadata> committed = consumer.committed(new HashSet<>(parts));
            for (TopicPartition tp : parts) System.out.println("committed " + tp + " " + committed.get(tp).offset() + " " + committed.get(tp).metadata());
        }
        try (Consumer<String, String> consumer = new KafkaConsumer<>(c, new StringDeserializer(), new StringDeserializer())) {
            consumer.assign(parts);
            for (TopicPartition tp : parts) System.out.println("position " + tp + " " + consumer.position(tp));
        }
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", bootstrap))) {
            Map<TopicPartition, OffsetAndMetadata> offsets = new TreeMap<>(Comparator.comparing(TopicPartition::toString));
            offsets.putAll(admin.listConsumerGroupOffsets(group).partitionsToOffsetAndMetadata().get());
            offsets.forEach((tp, o) -> System.out.println("admin " + tp + " " + o.offset()));
        }
    }
}
