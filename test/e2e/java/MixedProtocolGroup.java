// One group, both protocols (KIP-848 online upgrade and downgrade): a classic consumer takes every partition, a
// group.protocol=consumer consumer joins (the group is upgraded) and both end with half, exclusively; the consumer
// leaves (the group is downgraded) and the classic one gets all back; every record is read by the group.
// Prints one line per step; exits 1 on a step that times out.
// Usage: java -cp '<kafka libs>/*' MixedProtocolGroup.java <bootstrap> <topic> <group> [hold]
import java.time.Duration;
import java.util.*;
import org.apache.kafka.clients.consumer.*;
import org.apache.kafka.clients.producer.*;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.*;

public class MixedProtocolGroup {
  static final Set<String> seen = Collections.synchronizedSet(new HashSet<>());

  static KafkaConsumer<String, String> consumer(String bootstrap, String group, String name, String protocol) {
    Properties p = new Properties();
    p.put("bootstrap.servers", bootstrap);
    p.put("group.id", group);
    p.put("group.protocol", protocol);
    p.put("client.id", name);
    p.put("auto.offset.reset", "earliest");
    p.put("key.deserializer", StringDeserializer.class.getName());
    p.put("value.deserializer", StringDeserializer.class.getName());
    return new KafkaConsumer<>(p);
  }

  static List<Integer> sorted(Collection<TopicPartition> parts) {
    List<Integer> l = new ArrayList<>();
    for (TopicPartition tp : parts) l.add(tp.partition());
    Collections.sort(l);
    return l;
  }

  static void pollUntil(String what, java.util.function.BooleanSupplier done, List<KafkaConsumer<String, String>> consumers) {
    long deadline = System.currentTimeMillis() + 90000;
    while (!done.getAsBoolean()) {
      if (System.currentTimeMillis() > deadline) { System.out.println("TIMEOUT " + what); System.exit(1); }
      for (KafkaConsumer<String, String> c : consumers) for (ConsumerRecord<String, String> r : c.poll(Duration.ofMillis(100))) seen.add(r.value());
    }
  }

  static void produce(String bootstrap, String topic, String prefix, int count) throws Exception {
    try (KafkaProducer<String, String> producer = new KafkaProducer<>(Map.of("bootstrap.servers", bootstrap, "key.serializer", StringSerializer.class.getName(), "value.serializer", StringSerializer.class.getName()))) {
      for (int i = 0; i < count; i++) producer.send(new ProducerRecord<>(topic, i % 4, null, prefix + "-" + i)).get();
    }
  }

  public static void main(String[] args) throws Exception {
    String bootstrap = args[0], topic = args[1], group = args[2];
    produce(bootstrap, topic, "a", 40);
    KafkaConsumer<String, String> classic = consumer(bootstrap, group, "classic", "classic");
    classic.subscribe(List.of(topic));
    pollUntil("classic gets all", () -> classic.assignment().size() == 4, List.of(classic));
    System.out.println("classic alone: " + sorted(classic.assignment()));

    KafkaConsumer<String, String> modern = consumer(bootstrap, group, "modern", "consumer");
    modern.subscribe(List.of(topic));
    pollUntil("half each", () -> classic.assignment().size() == 2 && modern.assignment().size() == 2, List.of(classic, modern));
    Set<Integer> both = new TreeSet<>(sorted(classic.assignment()));
    both.addAll(sorted(modern.assignment()));
    System.out.println("mixed: 2 and 2, exclusive: " + (both.size() == 4));
    produce(bootstrap, topic, "b", 40);
    pollUntil("80 read", () -> seen.size() == 80, List.of(classic, modern));
    classic.commitSync();
    modern.commitSync();
    System.out.println("read by the mixed group: " + seen.size());
    if (args.length > 3) {
      // Held mixed until a line on stdin (a tool describes the group meanwhile).
      System.out.flush();
      new java.io.BufferedReader(new java.io.InputStreamReader(System.in)).readLine();
    }

    modern.close();
    pollUntil("classic gets all back", () -> classic.assignment().size() == 4, List.of(classic));
    System.out.println("classic after the consumer left: " + sorted(classic.assignment()));
    produce(bootstrap, topic, "c", 8);
    pollUntil("88 read", () -> seen.size() == 88, List.of(classic));
    System.out.println("read in all: " + seen.size());
    classic.close();
  }
}
