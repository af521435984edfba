// Kafka 4.3.1's Java idempotent producer through injected faults: adds a rule over gregor's HTTP API (NOT_LEADER_OR_FOLLOWER
// to the next 3 Produce requests on the topic, then a connection dropped after one Produce is handled), sends `count`
// records one at a time, removes the rules (DELETE /v1/faults) and reads the topic back from the start. Prints
// "left <GET /v1/faults>" (every rule spent) and then the values read, one a line.
//   java -cp '<kafka libs>/*' FaultRecovery.java <bootstrap> <http base> <topic> <count>
// With a fifth argument "matrix": the next Produce requests on the topic are delayed 500 ms, throttled 300 ms, dropped
// before handling and swallowed (request.timeout.ms 2 s), one each, while `count` records go one at a time; prints
// "acked <count> <GET /v1/faults>". Then one Fetch on the topic gets its first batch's CRC flipped: a consumer from the
// start prints "crc <message>" for each of the first two polls that threw, "first <values read>" and "left <rules>";
// the rules are removed, the next Fetch is throttled 300 ms, a fresh consumer prints the values, one a line, and
// "left <rules>".
import java.net.URI;
import java.net.http.*;
import java.time.Duration;
import java.util.*;
import org.apache.kafka.clients.consumer.*;
import org.apache.kafka.clients.producer.*;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.*;

public class FaultRecovery {
    static final HttpClient HTTP = HttpClient.newHttpClient();

    static String call(String method, String url, String body) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(url));
        if (body != null) b.header("content-type", "application/json");
        b.method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        HttpResponse<String> r = HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() >= 300) throw new RuntimeException(method + " " + url + ": " + r.statusCode() + " " + r.body());
        return r.body();
    }

    public static void main(String[] args) throws Exception {
        String bootstrap = args[0], http = args[1], topic = args[2];
        int count = Integer.parseInt(args[3]);
        if (args.length > 4 && args[4].equals("matrix")) {
            matrix(bootstrap, http, topic, count);
            return;
        }
        Properties p = new Properties();
        p.put("bootstrap.servers", bootstrap);
        p.put("enable.idempotence", "true");
        p.put("acks", "all");
        p.put("retry.backoff.ms", "20");
        p.put("metadata.max.age.ms", "60000");
        try (Producer<String, String> producer = new KafkaProducer<>(p, new StringSerializer(), new StringSerializer())) {
            producer.partitionsFor(topic);
            call("POST", http + "/v1/faults", "{\"api\":\"Produce\",\"topic\":\"" + topic + "\",\"action\":\"error\",\"error\":\"NOT_LEADER_OR_FOLLOWER\",\"count\":3}");
            call("POST", http + "/v1/faults", "{\"api\":\"Produce\",\"action\":\"drop\",\"when\":\"after\",\"count\":1}");
            for (int i = 0; i < count; i++) producer.send(new ProducerRecord<>(topic, 0, null, "v" + i)).get();
        }
        String left = call("GET", http + "/v1/faults", null);
        call("DELETE", http + "/v1/faults", null);
        System.out.println("left " + left);
        readBack(bootstrap, topic);
    }

    static void readBack(String bootstrap, String topic) {
        Properties c = new Properties();
        c.put("bootstrap.servers", bootstrap);
        c.put("enable.auto.commit", "false");
        try (Consumer<String, String> consumer = new KafkaConsumer<>(c, new StringDeserializer(), new StringDeserializer())) {
            TopicPartition tp = new TopicPartition(topic, 0);
            consumer.assign(List.of(tp));
            consumer.seekToBeginning(List.of(tp));
            long end = consumer.endOffsets(List.of(tp)).get(tp);
            while (consumer.position(tp) < end) {
                for (ConsumerRecord<String, String> r : consumer.poll(Duration.ofMillis(200))) System.out.println(r.value());
            }
        }
    }

    static void rule(String http, String json) throws Exception {
        call("POST", http + "/v1/faults", json);
    }

    static void matrix(String bootstrap, String http, String topic, int count) throws Exception {
        Properties p = new Properties();
        p.put("bootstrap.servers", bootstrap);
        p.put("enable.idempotence", "true");
        p.put("acks", "all");
        p.put("retry.backoff.ms", "20");
        p.put("request.timeout.ms", "2000");
        p.put("delivery.timeout.ms", "30000");
        String produce = "{\"api\":\"Produce\",\"topic\":\"" + topic + "\",\"count\":1,";
        try (Producer<String, String> producer = new KafkaProducer<>(p, new StringSerializer(), new StringSerializer())) {
            producer.partitionsFor(topic);
            rule(http, produce + "\"action\":\"delay\",\"ms\":500}");
            rule(http, produce + "\"action\":\"throttle\",\"ms\":300}");
            rule(http, produce + "\"action\":\"drop\",\"when\":\"before\"}");
            rule(http, produce + "\"action\":\"swallow\"}");
            for (int i = 0; i < count; i++) producer.send(new ProducerRecord<>(topic, 0, null, "v" + i)).get();
        }
        System.out.println("acked " + count + " " + call("GET", http + "/v1/faults", null));
        String fetch = "{\"api\":\"Fetch\",\"topic\":\"" + topic + "\",\"count\":1,";
        rule(http, fetch + "\"action\":\"corrupt-crc\"}");
        Properties c = new Properties();
        c.put("bootstrap.servers", bootstrap);
        c.put("enable.auto.commit", "false");
        List<String> first = new ArrayList<>();
        List<String> errors = new ArrayList<>();
        try (Consumer<String, String> consumer = new KafkaConsumer<>(c, new StringDeserializer(), new StringDeserializer())) {
            TopicPartition tp = new TopicPartition(topic, 0);
            consumer.assign(List.of(tp));
            consumer.seekToBeginning(List.of(tp));
            // The consumer keeps the bad batch: each poll throws again until the application seeks past it.
            long deadline = System.currentTimeMillis() + 10_000;
            while (first.size() < count && errors.size() < 2 && System.currentTimeMillis() < deadline) {
                try {
                    for (ConsumerRecord<String, String> r : consumer.poll(Duration.ofMillis(200))) first.add(r.value());
                } catch (KafkaException e) {
                    errors.add(e.getMessage() + " / " + (e.getCause() == null ? "" : e.getCause().getMessage()));
                }
            }
        }
        for (String e : errors) System.out.println("crc " + e);
        System.out.println("first " + String.join(",", first));
        System.out.println("left " + call("GET", http + "/v1/faults", null));
        call("DELETE", http + "/v1/faults", null);
        rule(http, fetch + "\"action\":\"throttle\",\"ms\":300}");
        readBack(bootstrap, topic);
        System.out.println("left " + call("GET", http + "/v1/faults", null));
    }
}
