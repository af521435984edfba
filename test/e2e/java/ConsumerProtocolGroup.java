// A KIP-848 consumer group (group.protocol=consumer) driven step by step: one consumer takes every partition, a
// second joins and gets half only after the first revoked them, the second leaves and the first gets all back,
// offsets committed are resumed by a new consumer. Prints one line per step; exits 1 on a step that fails.
// Usage: java -cp '<kafka libs>/*' ConsumerProtocolGroup.java <bootstrap> <topic> <group>
import java.time.Duration;
import java.util.*;
import org.apache.kafka.clients.consumer.*;
import org.apache.kafka.clients.producer.*;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.*;

public class ConsumerProtocolGroup {
  static final List<String> events = Collections.synchronizedList(new ArrayList<>());

  static KafkaConsumer<String, String> consumer(String bootstrap, String group, String name) {
    Properties p = new Properties();
    p.put("bootstrap.servers", bootstrap);
    p.put("group.id", group);
    p.put("group.protocol", "consumer");
    p.put("client.id", name);
    p.put("enable.auto.commit", "false");
    p.put("auto.offset.reset", "earliest");
    p.put("key.deserializer", StringDeserializer.class.getName());
    p.put("value.deserializer", StringDeserializer.class.getName());
    return new KafkaConsumer<>(p);
  }

  static ConsumerRebalanceListener listener(String name) {
    return new ConsumerRebalanceListener() {
      public void onPartitionsRevoked(Collection<TopicPartition> parts) { if (!parts.isEmpty()) events.add(name + " revoked " + sorted(parts)); }
      public void onPartitionsAssigned(Collection<TopicPartition> parts) { if (!parts.isEmpty()) events.add(name + " assigned " + sorted(parts)); }
    };
  }

  static List<Integer> sorted(Collection<TopicPartition> parts) {
    List<Integer> l = new ArrayList<>();
    for (TopicPartition tp : parts) l.add(tp.partition());
    Collections.sort(l);
    return l;
  }

  static int polled = 0;

  /** Whether the consumer's position is at the end of each partition it owns. */
  static boolean atEnd(KafkaConsumer<String, String> c) {
    Map<TopicPartition, Long> ends = c.endOffsets(c.assignment());
    for (TopicPartition tp : c.assignment()) if (c.position(tp) < ends.get(tp)) return false;
    return true;
  }

  static void pollUntil(String what, java.util.function.BooleanSupplier done, List<KafkaConsumer<String, String>> consumers) {
    long deadline = System.currentTimeMillis() + 60000;
    while (!done.getAsBoolean()) {
      if (System.currentTimeMillis() > deadline) { System.out.println("TIMEOUT " + what + " events=" + events); System.exit(1); }
      for (KafkaConsumer<String, String> c : consumers) polled += c.poll(Duration.ofMillis(100)).count();
    }
  }

  /** `count` records spread evenly over the topic's four partitions. */
  static void produce(String bootstrap, String topic, String prefix, int count) throws Exception {
    try (KafkaProducer<String, String> producer = new KafkaProducer<>(Map.of("bootstrap.servers", bootstrap, "key.serializer", StringSerializer.class.getName(), "value.serializer", StringSerializer.class.getName()))) {
      for (int i = 0; i < count; i++) producer.send(new ProducerRecord<>(topic, i % 4, null, prefix + "-" + i)).get();
    }
  }

  public static void main(String[] args) throws Exception {
    String bootstrap = args[0], topic = args[1], group = args[2];
    produce(bootstrap, topic, "first", 40);
    KafkaConsumer<String, String> c1 = consumer(bootstrap, group, "c1");
    c1.subscribe(List.of(topic), listener("c1"));
    pollUntil("c1 gets all", () -> c1.assignment().size() == 4, List.of(c1));
    System.out.println("c1 alone: " + sorted(c1.assignment()));

    KafkaConsumer<String, String> c2 = consumer(bootstrap, group, "c2");
    c2.subscribe(List.of(topic), listener("c2"));
    pollUntil("half each", () -> c1.assignment().size() == 2 && c2.assignment().size() == 2, List.of(c1, c2));
    System.out.println("c1 then: " + sorted(c1.assignment()) + " c2: " + sorted(c2.assignment()));
    int revokedAt = -1, c2AssignedAt = -1;
    for (int i = 0; i < events.size(); i++) {
      if (events.get(i).startsWith("c1 revoked") && revokedAt < 0) revokedAt = i;
      if (events.get(i).startsWith("c2 assigned") && c2AssignedAt < 0) c2AssignedAt = i;
    }
    System.out.println("revoked before assigned: " + (revokedAt >= 0 && revokedAt < c2AssignedAt));
    pollUntil("all records read", () -> atEnd(c1) && atEnd(c2), List.of(c1, c2));
    c1.commitSync();
    c2.commitSync();
    System.out.println("committed at the end of every partition");

    c2.close();
    pollUntil("c1 gets all back", () -> c1.assignment().size() == 4, List.of(c1));
    System.out.println("c1 after c2 left: " + sorted(c1.assignment()));
    c1.close();

    produce(bootstrap, topic, "more", 8);
    KafkaConsumer<String, String> c3 = consumer(bootstrap, group, "c3");
    c3.subscribe(List.of(topic));
    polled = 0;
    pollUntil("c3 resumes", () -> polled >= 8, List.of(c3));
    for (int i = 0; i < 5; i++) polled += c3.poll(Duration.ofMillis(100)).count();
    System.out.println("c3 resumed with " + polled);
    c3.close();
  }
}
