// Kafka 4.3.1's Java consumer (classic or consumer group protocol) through a coordinator move: reads and commits ten records, has
// gregor's HTTP API move every group's coordinator (POST /v1/faults/scenarios/coordinator-moved {"all": true, "ms": ...}:
// the groups leave memory, their requests get NOT_COORDINATOR, and they are loaded again from __consumer_offsets), reads
// ten more through it, reads the group's offsets once it is loaded again (those committed before the move), commits,
// then a second consumer of the group asks for the committed offset. Prints "first <values>", "second <values>",
// "kept <offset>", "left <GET /v1/faults>" and "committed <offset>".
//   java -cp '<kafka libs>/*' CoordinatorMoved.java <bootstrap> <http base> <topic> <group> <move ms> <classic|consumer>
import java.net.URI;
import java.net.http.*;
import java.time.Duration;
import java.util.*;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.*;
import org.apache.kafka.clients.producer.*;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.*;

public class CoordinatorMoved {
    static final HttpClient HTTP = HttpClient.newHttpClient();

    static String call(String method, String url, String body) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(url));
        if (body != null) b.header("content-type", "application/json");
        b.method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        HttpResponse<String> r = HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() >= 300) throw new RuntimeException(method + " " + url + ": " + r.statusCode() + " " + r.body());
        return r.body();
    }

    static List<String> read(Consumer<String, String> consumer, int count) {
        List<String> values = new ArrayList<>();
        long deadline = System.currentTimeMillis() + 60_000;
        while (values.size() < count && System.currentTimeMillis() < deadline) {
            for (ConsumerRecord<String, String> r : consumer.poll(Duration.ofMillis(100))) values.add(r.value());
        }
        return values;
    }

    public static void main(String[] args) throws Exception {
        String bootstrap = args[0], http = args[1], topic = args[2], group = args[3], ms = args[4], protocol = args[5];
        Properties p = new Properties();
        p.put("bootstrap.servers", bootstrap);
        Properties c = new Properties();
        c.put("bootstrap.servers", bootstrap);
        c.put("group.id", group);
        c.put("enable.auto.commit", "false");
        c.put("auto.offset.reset", "earliest");
        c.put("group.protocol", protocol);
        // The consumer protocol's heartbeat interval is the broker's (group.consumer.heartbeat.interval.ms).
        if (protocol.equals("classic")) c.put("heartbeat.interval.ms", "100");
        c.put("retry.backoff.ms", "50");
        TopicPartition tp = new TopicPartition(topic, 0);
        try (Producer<String, String> producer = new KafkaProducer<>(p, new StringSerializer(), new StringSerializer());
             Consumer<String, String> consumer = new KafkaConsumer<>(c, new StringDeserializer(), new StringDeserializer())) {
            for (int i = 0; i < 10; i++) producer.send(new ProducerRecord<>(topic, 0, null, "a" + i)).get();
            consumer.subscribe(List.of(topic));
            System.out.println("first " + String.join(",", read(consumer, 10)));
            consumer.commitSync();
            call("POST", http + "/v1/faults/scenarios/coordinator-moved", "{\"all\":true,\"ms\":" + ms + "}");
            for (int i = 0; i < 10; i++) producer.send(new ProducerRecord<>(topic, 0, null, "b" + i)).get();
            System.out.println("second " + String.join(",", read(consumer, 10)));
            // Once the group is loaded again (the scenario's rules gone), the offset committed before the move is there.
            long deadline = System.currentTimeMillis() + 60_000;
            while (!call("GET", http + "/v1/faults", null).equals("{\"rules\":[]}") && System.currentTimeMillis() < deadline) Thread.sleep(50);
            try (Admin admin = Admin.create(p)) {
                OffsetAndMetadata kept = admin.listConsumerGroupOffsets(group).partitionsToOffsetAndMetadata().get().get(tp);
                System.out.println("kept " + (kept == null ? "none" : kept.offset()));
            }
            // Retried through NOT_COORDINATOR until the group is loaded again.
            consumer.commitSync(Duration.ofSeconds(60));
        }
        System.out.println("left " + call("GET", http + "/v1/faults", null));
        try (Consumer<String, String> again = new KafkaConsumer<>(c, new StringDeserializer(), new StringDeserializer())) {
            OffsetAndMetadata committed = again.committed(Set.of(tp)).get(tp);
            System.out.println("committed " + (committed == null ? "none" : committed.offset()));
        }
    }
}
