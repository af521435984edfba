// IBM Sarama scenarios for the compat runner.
// Usage: sarama-compat <scenario> <bootstrap> <name-prefix>; exit 0 = pass, 1 = fail with the reason on stderr;
// "OBSERVE <key> <json>" lines feed the differential mode (see runner/external.ts).
// "member <bootstrap> <group> <topic>" runs one group member until killed (group-rebalance's crash).
package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/IBM/sarama"
)

// limit stops a broken run from hanging; it is not a claim about speed.
const limit = 60 * time.Second

// The broker's group.min.session.timeout.ms: a crashed member is noticed after this long.
const sessionTimeout = 6 * time.Second

var bootstrap, prefix string

func main() {
	scenarios := map[string]func() error{
		"metadata": metadata, "topic-admin": topicAdmin, "produce-consume": produceConsume, "group-rebalance": groupRebalance,
		"commit-resume": commitResume, "offset-reset": offsetReset, "two-groups": twoGroups, "seek-replay": seekReplay,
		"offsets-for-times": offsetsForTimes, "idempotent-producer": idempotentProducer, "transactions": transactions,
		"broker-restart-before": brokerRestartBefore, "broker-restart-after": brokerRestartAfter,
		"error-unknown-topic": errorUnknownTopic, "error-message-too-large": errorMessageTooLarge,
		"error-invalid-topic": errorInvalidTopic, "error-invalid-config": errorInvalidConfig,
		"newest-versions": newestVersions, "auth-failure": authFailure,
	}
	if len(os.Args) == 5 && os.Args[1] == "member" {
		bootstrap = os.Args[2]
		runMember(context.Background(), os.Args[3], os.Args[4], &member{})
		return
	}
	if len(os.Args) != 4 || scenarios[os.Args[1]] == nil {
		fmt.Fprintln(os.Stderr, "usage: sarama-compat <scenario> <bootstrap> <name-prefix>")
		os.Exit(2)
	}
	bootstrap, prefix = os.Args[2], os.Args[3]
	if err := scenarios[os.Args[1]](); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

func observe(key string, value any) {
	encoded, err := json.Marshal(value)
	if err != nil {
		panic(err)
	}
	fmt.Printf("OBSERVE %s %s\n", key, encoded)
}

func config() *sarama.Config {
	c := sarama.NewConfig()
	c.Version = sarama.V4_0_0_0
	c.ClientID = "gregor-compat-sarama"
	c.Producer.Return.Successes = true
	c.Producer.RequiredAcks = sarama.WaitForAll
	c.Producer.Partitioner = sarama.NewManualPartitioner
	c.Consumer.Offsets.Initial = sarama.OffsetOldest
	c.Consumer.Offsets.AutoCommit.Enable = false
	c.Consumer.Return.Errors = true
	if err := secure(c); err != nil {
		panic(err)
	}
	return c
}

func admin() (sarama.ClusterAdmin, error) {
	return sarama.NewClusterAdmin([]string{bootstrap}, config())
}

// eventually polls until check returns nil or the limit passes.
func eventually(what string, check func() error) error {
	deadline := time.Now().Add(limit)
	for {
		err := check()
		if err == nil {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("gave up waiting for %s: %w", what, err)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

func same(want, have any, what string) error {
	if fmt.Sprint(want) != fmt.Sprint(have) {
		return fmt.Errorf("%s: want %v, have %v", what, want, have)
	}
	return nil
}

// errorCodeNames names the Kafka error codes these scenarios meet; Sarama itself has only descriptions.
var errorCodeNames = map[sarama.KError]string{
	sarama.ErrUnknownTopicOrPartition: "UNKNOWN_TOPIC_OR_PARTITION", sarama.ErrMessageSizeTooLarge: "MESSAGE_TOO_LARGE",
	sarama.ErrInvalidTopic: "INVALID_TOPIC_EXCEPTION", sarama.ErrTopicAlreadyExists: "TOPIC_ALREADY_EXISTS",
	sarama.ErrInvalidPartitions: "INVALID_PARTITIONS", sarama.ErrInvalidConfig: "INVALID_CONFIG",
	sarama.ErrInvalidReplicationFactor: "INVALID_REPLICATION_FACTOR", sarama.ErrInvalidRequest: "INVALID_REQUEST",
	sarama.ErrPolicyViolation: "POLICY_VIOLATION",
}

// failsWith runs work, which must fail, and names the Kafka error it failed with.
func failsWith(what string, work func() error) (string, error) {
	err := work()
	if err == nil {
		return "", fmt.Errorf("%s succeeded; Kafka refuses it", what)
	}
	var kerr sarama.KError
	if errors.As(err, &kerr) {
		if name, ok := errorCodeNames[kerr]; ok {
			return name, nil
		}
		return fmt.Sprintf("code %d", int16(kerr)), nil
	}
	var produceErrs sarama.ProducerErrors
	if errors.As(err, &produceErrs) && len(produceErrs) > 0 {
		return failsWith(what, func() error { return produceErrs[0].Err })
	}
	return "not a Kafka error: " + err.Error(), nil
}

func createTopic(adm sarama.ClusterAdmin, topic string, partitions int32, configs map[string]*string) error {
	return adm.CreateTopic(topic, &sarama.TopicDetail{NumPartitions: partitions, ReplicationFactor: 1, ConfigEntries: configs}, false)
}

func create(topic string, partitions int32) error {
	adm, err := admin()
	if err != nil {
		return err
	}
	defer adm.Close()
	return createTopic(adm, topic, partitions, nil)
}

func str(s string) *string { return &s }

func producer(tweak func(*sarama.Config)) (sarama.SyncProducer, error) {
	c := config()
	if tweak != nil {
		tweak(c)
	}
	return sarama.NewSyncProducer([]string{bootstrap}, c)
}

func produceNumbered(topic string, from, count int) ([]int64, error) {
	p, err := producer(nil)
	if err != nil {
		return nil, err
	}
	defer p.Close()
	var offsets []int64
	for i := from; i < from+count; i++ {
		_, offset, err := p.SendMessage(&sarama.ProducerMessage{Topic: topic, Partition: 0, Value: sarama.StringEncoder(fmt.Sprintf("m%d", i))})
		if err != nil {
			return nil, err
		}
		offsets = append(offsets, offset)
	}
	return offsets, nil
}

func numbered(from, count int) []string {
	var out []string
	for i := from; i < from+count; i++ {
		out = append(out, fmt.Sprintf("m%d", i))
	}
	return out
}

type record struct {
	Partition int32
	Offset    int64
	Key       []byte
	Value     []byte
	Headers   []*sarama.RecordHeader
}

func positions(records []record) []string {
	var out []string
	for _, r := range records {
		out = append(out, fmt.Sprintf("%d:%d", r.Partition, r.Offset))
	}
	return out
}

func values(records []record) []string {
	var out []string
	for _, r := range records {
		out = append(out, string(r.Value))
	}
	return out
}

// collector is a consumer-group handler that hands each record to the reader and commits it once the reader has
// kept it, so what the reader kept is committed and nothing more.
type collector struct {
	records   chan record
	committed chan struct{}
}

func (c *collector) Setup(sarama.ConsumerGroupSession) error   { return nil }
func (c *collector) Cleanup(sarama.ConsumerGroupSession) error { return nil }
func (c *collector) ConsumeClaim(session sarama.ConsumerGroupSession, claim sarama.ConsumerGroupClaim) error {
	for message := range claim.Messages() {
		select {
		case c.records <- record{message.Partition, message.Offset, message.Key, message.Value, message.Headers}:
		case <-session.Context().Done():
			return nil
		}
		session.MarkMessage(message, "")
		session.Commit()
		c.committed <- struct{}{}
	}
	return nil
}

// readGroup reads with a consumer group until done holds, committing as it goes, then leaves the group.
func readGroup(group, topic string, tweak func(*sarama.Config), done func([]record) bool) ([]record, error) {
	c := config()
	if tweak != nil {
		tweak(c)
	}
	consumerGroup, err := sarama.NewConsumerGroup([]string{bootstrap}, group, c)
	if err != nil {
		return nil, err
	}
	defer consumerGroup.Close()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	handler := &collector{records: make(chan record), committed: make(chan struct{})}
	failed := make(chan error, 1)
	go func() {
		for ctx.Err() == nil {
			if err := consumerGroup.Consume(ctx, []string{topic}, handler); err != nil && ctx.Err() == nil {
				failed <- err
				return
			}
		}
	}()
	var received []record
	timeout := time.After(limit)
	for !done(received) {
		select {
		case r := <-handler.records:
			received = append(received, r)
			<-handler.committed
		case err := <-failed:
			return received, err
		case err := <-consumerGroup.Errors():
			return received, err
		case <-timeout:
			return received, fmt.Errorf("have %d records: %v", len(received), positions(received))
		}
	}
	return received, nil
}

func atLeast(n int) func([]record) bool { return func(r []record) bool { return len(r) >= n } }
func reaches(offset int64) func([]record) bool {
	return func(records []record) bool {
		for _, r := range records {
			if r.Offset >= offset {
				return true
			}
		}
		return false
	}
}

func committed(adm sarama.ClusterAdmin, group, topic string) (int64, error) {
	response, err := adm.ListConsumerGroupOffsets(group, map[string][]int32{topic: {0}})
	if err != nil {
		return 0, err
	}
	block := response.GetBlock(topic, 0)
	if block == nil {
		return -1, nil
	}
	if block.Err != sarama.ErrNoError {
		return 0, block.Err
	}
	return block.Offset, nil
}

func topicConfigs(adm sarama.ClusterAdmin, topic string, names []string) (map[string]string, error) {
	entries, err := adm.DescribeConfig(sarama.ConfigResource{Type: sarama.TopicResource, Name: topic, ConfigNames: names})
	if err != nil {
		return nil, err
	}
	values := map[string]string{}
	for _, entry := range entries {
		values[entry.Name] = entry.Value
	}
	return values, nil
}
