// Kafka Streams word count with processing.guarantee=exactly_once_v2: lines from the input topic are split into
// words, grouped by word (through a repartition topic) and counted in Kafka Streams' default persistent store
// (RocksDB; after an unclean stop exactly-once wipes it and restores it from its changelog with read_committed);
// each new count goes to the output topic (key: word, value: 8-byte long).
// Usage: java -cp '<streams libs>/*' WordCount.java <bootstrap> <application.id> <input> <output> <state.dir> [classic|streams]
// The last argument picks the rebalance protocol: classic (the default; static membership) or streams (KIP-1071,
// group.protocol=streams: the broker assigns the tasks; Kafka 4.3.1 serves no static members there).
// Prints "STATE <state>" on every state change; stops cleanly when stdin closes, or dies on SIGKILL.
import java.time.Duration;
import java.util.Arrays;
import java.util.Locale;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.kstream.Grouped;
import org.apache.kafka.streams.kstream.Materialized;
import org.apache.kafka.streams.kstream.Produced;
import org.apache.kafka.streams.state.KeyValueStore;

public class WordCount {
  public static void main(String[] args) throws Exception {
    if (args.length != 5 && args.length != 6) {
      System.err.println("usage: WordCount <bootstrap> <application.id> <input> <output> <state.dir> [classic|streams]");
      System.exit(2);
    }
    Properties props = new Properties();
    props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, args[0]);
    props.put(StreamsConfig.APPLICATION_ID_CONFIG, args[1]);
    props.put(StreamsConfig.STATE_DIR_CONFIG, args[4]);
    props.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.EXACTLY_ONCE_V2);
    props.put(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, 200);
    props.put(StreamsConfig.REPLICATION_FACTOR_CONFIG, 1);
    props.put(StreamsConfig.DEFAULT_KEY_SERDE_CLASS_CONFIG, Serdes.StringSerde.class);
    props.put(StreamsConfig.DEFAULT_VALUE_SERDE_CLASS_CONFIG, Serdes.StringSerde.class);
    // Static membership: a restarted instance takes its old member's place at once instead of waiting for
    // the session timeout. A persistent store makes Streams keep its process id in the state dir, so a restart
    // on the same dir has the same transactional id: its InitProducerId fences the old instance and aborts its
    // open transaction at once.
    boolean streamsProtocol = args.length == 6 && args[5].equals("streams");
    if (streamsProtocol) {
      props.put(StreamsConfig.GROUP_PROTOCOL_CONFIG, "streams");
    } else {
      props.put(StreamsConfig.consumerPrefix("group.instance.id"), args[1] + "-instance");
      props.put(StreamsConfig.consumerPrefix("session.timeout.ms"), 10000);
    }
    props.put(StreamsConfig.RECONNECT_BACKOFF_MAX_MS_CONFIG, 500);
    props.put(StreamsConfig.RETRY_BACKOFF_MS_CONFIG, 100);

    StreamsBuilder builder = new StreamsBuilder();
    builder.<String, String>stream(args[2])
        .flatMapValues(line -> Arrays.asList(line.toLowerCase(Locale.ROOT).split("\\W+")))
        .filter((key, word) -> !word.isEmpty())
        .groupBy((key, word) -> word, Grouped.with("words", Serdes.String(), Serdes.String()))
        .count(Materialized.<String, Long, KeyValueStore<Bytes, byte[]>>as("counts")
            .withKeySerde(Serdes.String()).withValueSerde(Serdes.Long()))
        .toStream()
        .to(args[3], Produced.with(Serdes.String(), Serdes.Long()));

    KafkaStreams streams = new KafkaStreams(builder.build(), props);
    CountDownLatch done = new CountDownLatch(1);
    streams.setStateListener((now, before) -> {
      System.out.println("STATE " + now);
      System.out.flush();
      if (now == KafkaStreams.State.ERROR || now == KafkaStreams.State.NOT_RUNNING) done.countDown();
    });
    streams.setUncaughtExceptionHandler(e -> {
      System.out.println("ERROR " + e);
      System.out.flush();
      return org.apache.kafka.streams.errors.StreamsUncaughtExceptionHandler.StreamThreadExceptionResponse.REPLACE_THREAD;
    });
    streams.start();
    Thread stdin = new Thread(() -> {
      try { while (System.in.read() >= 0) { } } catch (Exception ignored) { }
      done.countDown();
    });
    stdin.setDaemon(true);
    stdin.start();
    done.await();
    streams.close(Duration.ofSeconds(20));
    System.out.println("CLOSED");
  }
}
