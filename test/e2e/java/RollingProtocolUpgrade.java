// A group of three classic consumers upgraded one by one to group.protocol=consumer, then downgraded one by one back
// to classic (KIP-848 online upgrade and downgrade). Before each restart the group reads what was produced since the
// last step and commits; after it, the three members own the topic's six partitions exclusively. Prints one line per
// step; exits 1 on a step that times out.
// Usage: java -cp '<kafka libs>/*' RollingProtocolUpgrade.java <bootstrap> <topic> <group>
import java.time.Duration;
import java.util.*;
import org.apache.kafka.clients.consumer.*;
import org.apache.kafka.clients.producer.*;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.*;

public class RollingProtocolUpgrade {
  static final Set<String> seen = new HashSet<>();
  static int produced = 0;

  static KafkaConsumer<String, String> consumer(String bootstrap, String group, String name, String protocol, String topic) {
    Properties p = new Properties();
    p.put("bootstrap.servers", bootstrap);
    p.put("group.id", group);
    p.put("group.protocol", protocol);
    p.put("client.id", name);
    p.put("enable.auto.commit", "false");
    p.put("auto.offset.reset", "earliest");
    p.put("key.deserializer", StringDeserializer.class.getName());
    p.put("value.deserializer", StringDeserializer.class.getName());
    KafkaConsumer<String, String> c = new KafkaConsumer<>(p);
    c.subscribe(List.of(topic));
    return c;
  }

  static void pollUntil(String what, java.util.function.BooleanSupplier done, Collection<KafkaConsumer<String, String>> consumers) {
    long deadline = System.currentTimeMillis() + 120000;
    while (!done.getAsBoolean()) {
      if (System.currentTimeMillis() > deadline) { System.out.println("TIMEOUT " + what); System.exit(1); }
      for (KafkaConsumer<String, String> c : consumers) for (ConsumerRecord<String, String> r : c.poll(Duration.ofMillis(50))) seen.add(r.value());
    }
  }

  /** Whether the members own every partition, each once. */
  static boolean exclusive(Collection<KafkaConsumer<String, String>> consumers, int partitions) {
    Set<TopicPartition> all = new HashSet<>();
    int owned = 0;
    for (KafkaConsumer<String, String> c : consumers) { owned += c.assignment().size(); all.addAll(c.assignment()); }
    return owned == partitions && all.size() == partitions;
  }

  static void produce(String bootstrap, String topic, int count) throws Exception {
    try (KafkaProducer<String, String> producer = new KafkaProducer<>(Map.of("bootstrap.servers", bootstrap, "key.serializer", StringSerializer.class.getName(), "value.serializer", StringSerializer.class.getName()))) {
      for (int i = 0; i < count; i++) producer.send(new ProducerRecord<>(topic, i % 6, null, "v-" + produced++)).get();
    }
  }

  public static void main(String[] args) throws Exception {
    String bootstrap = args[0], topic = args[1], group = args[2];
    Map<String, KafkaConsumer<String, String>> members = new LinkedHashMap<>();
    for (String name : List.of("m0", "m1", "m2")) members.put(name, consumer(bootstrap, group, name, "classic", topic));
    String[] steps = { "m0:consumer", "m1:consumer", "m2:consumer", "m0:classic", "m1:classic", "m2:classic" };
    produce(bootstrap, topic, 30);
    pollUntil("classic group formed", () -> exclusive(members.values(), 6) && seen.size() == produced, members.values());
    System.out.println("classic: 6 partitions, exclusive; read " + seen.size() + " of " + produced);
    for (String step : steps) {
      String name = step.split(":")[0], protocol = step.split(":")[1];
      produce(bootstrap, topic, 30);
      pollUntil("read before " + step, () -> seen.size() == produced, members.values());
      for (KafkaConsumer<String, String> c : members.values()) c.commitSync();
      members.remove(name).close();
      members.put(name, consumer(bootstrap, group, name, protocol, topic));
      produce(bootstrap, topic, 30);
      pollUntil("after " + step, () -> exclusive(members.values(), 6) && seen.size() == produced, members.values());
      System.out.println(name + " now " + protocol + ": 6 partitions, exclusive; read " + seen.size() + " of " + produced);
    }
    for (KafkaConsumer<String, String> c : members.values()) c.close();
  }
}
