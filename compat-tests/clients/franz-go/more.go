// franz-go scenarios beyond the first three: groups, offsets, idempotence, transactions, restart, errors.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kgo"
)

// The broker's group.min.session.timeout.ms: a crashed member is noticed after this long.
const sessionTimeout = 6 * time.Second

func observe(key string, value any) {
	encoded, err := json.Marshal(value)
	if err != nil {
		panic(err)
	}
	fmt.Printf("OBSERVE %s %s\n", key, encoded)
}

func same(want, have any, what string) error {
	if fmt.Sprint(want) != fmt.Sprint(have) {
		return fmt.Errorf("%s: want %v, have %v", what, want, have)
	}
	return nil
}

// failsWith runs work, which must fail, and names the Kafka error it failed with.
func failsWith(what string, work func() error) (string, error) {
	err := work()
	if err == nil {
		return "", fmt.Errorf("%s succeeded; Kafka refuses it", what)
	}
	var kafkaErr *kerr.Error
	if errors.As(err, &kafkaErr) {
		return kafkaErr.Message, nil
	}
	return "not a Kafka error: " + err.Error(), nil
}

func create(ctx context.Context, bootstrap, topic string, partitions int32, configs map[string]*string) error {
	client, adm, err := admin(bootstrap)
	if err != nil {
		return err
	}
	defer client.Close()
	return createTopic(ctx, adm, topic, partitions, configs)
}

func produceValues(ctx context.Context, bootstrap, topic string, values []string, opts ...kgo.Opt) ([]int64, error) {
	client, err := newClient(append([]kgo.Opt{kgo.SeedBrokers(bootstrap), kgo.DisableIdempotentWrite(), kgo.RecordPartitioner(kgo.ManualPartitioner())}, opts...)...)
	if err != nil {
		return nil, err
	}
	defer client.Close()
	var offsets []int64
	for _, v := range values {
		r, err := client.ProduceSync(ctx, &kgo.Record{Topic: topic, Partition: 0, Value: []byte(v)}).First()
		if err != nil {
			return nil, err
		}
		offsets = append(offsets, r.Offset)
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

func positions(records []*kgo.Record) []string {
	var out []string
	for _, r := range records {
		out = append(out, fmt.Sprintf("%d:%d", r.Partition, r.Offset))
	}
	return out
}

func values(records []*kgo.Record) []string {
	var out []string
	for _, r := range records {
		out = append(out, string(r.Value))
	}
	return out
}

// pollUntil polls until done holds; each record goes through onRecord first.
func pollUntil(ctx context.Context, client *kgo.Client, done func([]*kgo.Record) bool, onRecord func(*kgo.Record) error) ([]*kgo.Record, error) {
	pollCtx, cancel := context.WithTimeout(ctx, limit)
	defer cancel()
	var received []*kgo.Record
	for !done(received) {
		fetches := client.PollFetches(pollCtx)
		if pollCtx.Err() != nil {
			return received, fmt.Errorf("have %d records: %v", len(received), positions(received))
		}
		if errs := fetches.Errors(); len(errs) > 0 {
			return received, fmt.Errorf("fetch: %w", errs[0].Err)
		}
		for _, r := range fetches.Records() {
			if onRecord != nil {
				if err := onRecord(r); err != nil {
					return received, err
				}
			}
			received = append(received, r)
			if done(received) {
				break
			}
		}
	}
	return received, nil
}

// readGroup reads with a group until done holds, commits what it kept, and leaves.
func readGroup(ctx context.Context, bootstrap, group, topic string, done func([]*kgo.Record) bool, opts ...kgo.Opt) ([]*kgo.Record, error) {
	client, err := newClient(append([]kgo.Opt{kgo.SeedBrokers(bootstrap), kgo.ConsumerGroup(group), kgo.ConsumeTopics(topic),
		kgo.ConsumeResetOffset(kgo.NewOffset().AtStart()), kgo.DisableAutoCommit()}, opts...)...)
	if err != nil {
		return nil, err
	}
	defer client.Close()
	received, err := pollUntil(ctx, client, done, nil)
	if err != nil {
		return received, err
	}
	if len(received) > 0 {
		if err := client.CommitRecords(ctx, received...); err != nil {
			return received, err
		}
	}
	return received, nil
}

func atLeast(n int) func([]*kgo.Record) bool {
	return func(r []*kgo.Record) bool { return len(r) >= n }
}
func reaches(offset int64) func([]*kgo.Record) bool {
	return func(records []*kgo.Record) bool {
		for _, r := range records {
			if r.Offset >= offset {
				return true
			}
		}
		return false
	}
}

func committed(ctx context.Context, adm *kadm.Client, group, topic string) (int64, error) {
	fetched, err := adm.FetchOffsets(ctx, group)
	if err != nil {
		return 0, err
	}
	if err := fetched.Error(); err != nil {
		return 0, err
	}
	found, ok := fetched.Lookup(topic, 0)
	if !ok {
		return -1, nil
	}
	return found.At, found.Err
}

// ---- groups ---------------------------------------------------------------------------------------------------

type member struct {
	mu         sync.Mutex
	assignment map[int32]bool
	client     *kgo.Client
	failure    error
}

func (m *member) size() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return len(m.assignment)
}

// classicMember is a classic-protocol member's timing; consumer_protocol.go's members have the broker's.
var classicMember = []kgo.Opt{kgo.SessionTimeout(sessionTimeout), kgo.HeartbeatInterval(500 * time.Millisecond)}

func runMember(ctx context.Context, bootstrap, group, topic string, m *member, groupOpts []kgo.Opt) {
	m.assignment = map[int32]bool{}
	client, err := newClient(append([]kgo.Opt{kgo.SeedBrokers(bootstrap), kgo.ConsumerGroup(group), kgo.ConsumeTopics(topic),
		kgo.OnPartitionsAssigned(func(_ context.Context, _ *kgo.Client, assigned map[string][]int32) {
			m.mu.Lock()
			defer m.mu.Unlock()
			for _, p := range assigned[topic] {
				m.assignment[p] = true
			}
		}),
		kgo.OnPartitionsRevoked(func(_ context.Context, _ *kgo.Client, revoked map[string][]int32) {
			m.mu.Lock()
			defer m.mu.Unlock()
			for _, p := range revoked[topic] {
				delete(m.assignment, p)
			}
		}),
		kgo.OnPartitionsLost(func(_ context.Context, _ *kgo.Client, lost map[string][]int32) {
			m.mu.Lock()
			defer m.mu.Unlock()
			for _, p := range lost[topic] {
				delete(m.assignment, p)
			}
		})}, groupOpts...)...)
	if err != nil {
		m.failure = err
		return
	}
	m.client = client
	for ctx.Err() == nil {
		client.PollFetches(ctx)
	}
}

func startMember(bootstrap, group, topic string, groupOpts []kgo.Opt) (*member, func()) {
	ctx, cancel := context.WithCancel(context.Background())
	m := &member{}
	done := make(chan struct{})
	go func() {
		runMember(ctx, bootstrap, group, topic, m, groupOpts)
		close(done)
	}()
	return m, func() {
		cancel()
		<-done
		if m.client != nil {
			m.client.Close() // a clean leave: LeaveGroup
		}
	}
}

func groupRebalance(ctx context.Context, bootstrap, prefix string) error {
	topic, group := prefix+"topic", prefix+"group"
	if err := create(ctx, bootstrap, topic, 6, nil); err != nil {
		return err
	}
	client, adm, err := admin(bootstrap)
	if err != nil {
		return err
	}
	defer client.Close()
	steps := map[string]any{}
	settle := func(step string, live []*member, sizes []int, total int) error {
		var described kadm.DescribedGroup
		err := eventually(ctx, fmt.Sprintf("%s: sizes %v", step, sizes), func() error {
			var have []int
			for _, m := range live {
				if m.failure != nil {
					return m.failure
				}
				have = append(have, m.size())
			}
			sort.Ints(have)
			if err := same(sizes, have, "sizes"); err != nil {
				return err
			}
			groups, err := adm.DescribeGroups(ctx, group)
			if err != nil {
				return err
			}
			described = groups[group]
			if described.State != "Stable" || len(described.Members) != total {
				return fmt.Errorf("state %s with %d members", described.State, len(described.Members))
			}
			return nil
		})
		steps[step] = map[string]any{"sizes": sizes, "state": described.State, "members": total, "protocol": described.Protocol}
		return err
	}
	if err := rebalanceSteps(settle, func() (*member, func()) { return startMember(bootstrap, group, topic, classicMember) },
		[]string{"member", bootstrap, group, topic}); err != nil {
		return err
	}
	observe("steps", steps)
	return nil
}

// rebalanceSteps is group-rebalance's sequence (either protocol): 6 / 3+3 / 2+2+2, a clean leave (3+3), a member in
// a process of its own killed (2+2+2, then 3+3 once its session ends). crasher is that process's arguments.
func rebalanceSteps(settle func(step string, live []*member, sizes []int, total int) error, start func() (*member, func()), crasher []string) error {
	var stops []func()
	defer func() {
		for _, stop := range stops {
			stop()
		}
	}()
	a, stopA := start()
	stops = append(stops, stopA)
	if err := settle("one", []*member{a}, []int{6}, 1); err != nil {
		return err
	}
	b, stopB := start()
	stops = append(stops, stopB)
	if err := settle("two", []*member{a, b}, []int{3, 3}, 2); err != nil {
		return err
	}
	c, stopC := start()
	if err := settle("three", []*member{a, b, c}, []int{2, 2, 2}, 3); err != nil {
		stopC()
		return err
	}
	stopC()
	if err := settle("after-leave", []*member{a, b}, []int{3, 3}, 2); err != nil {
		return err
	}
	// Killed: it never leaves, the coordinator notices when its session ends.
	process := exec.Command(os.Args[0], crasher...)
	process.Stderr = os.Stderr
	if err := process.Start(); err != nil {
		return err
	}
	defer process.Process.Kill()
	if err := settle("rejoin", []*member{a, b}, []int{2, 2}, 3); err != nil {
		return err
	}
	process.Process.Kill()
	process.Wait()
	return settle("after-crash", []*member{a, b}, []int{3, 3}, 2)
}

func commitResume(ctx context.Context, bootstrap, prefix string) error {
	return commitResumeWith(ctx, bootstrap, prefix, nil, nil)
}

// commitResumeWith is commit-resume with the members' group options; afterLeave, if any, runs once the first member
// has left.
func commitResumeWith(ctx context.Context, bootstrap, prefix string, groupOpts []kgo.Opt, afterLeave func(adm *kadm.Client, group string) error) error {
	topic, group := prefix+"topic", prefix+"group"
	if err := create(ctx, bootstrap, topic, 1, nil); err != nil {
		return err
	}
	if _, err := produceValues(ctx, bootstrap, topic, numbered(0, 10)); err != nil {
		return err
	}
	client, adm, err := admin(bootstrap)
	if err != nil {
		return err
	}
	defer client.Close()
	// Reading up to offset 4 and committing what was kept commits 5.
	if _, err := readGroup(ctx, bootstrap, group, topic, reaches(4), groupOpts...); err != nil {
		return err
	}
	offset, err := committed(ctx, adm, group, topic)
	if err != nil {
		return err
	}
	if err := same(5, offset, "committed"); err != nil {
		return err
	}
	if afterLeave != nil {
		if err := afterLeave(adm, group); err != nil {
			return err
		}
	}
	resumed, err := readGroup(ctx, bootstrap, group, topic, reaches(9), groupOpts...)
	if err != nil {
		return err
	}
	if err := same(numbered(5, 5), values(resumed), "resumed"); err != nil {
		return err
	}
	observe("committed", offset)
	observe("resumed", positions(resumed))
	return nil
}

// resetOffsets runs kafka-consumer-groups --reset-offsets ... --execute and returns "partition:new-offset" rows.
func resetOffsets(bootstrap, group, topic string, how ...string) ([]string, error) {
	args := append([]string{"--bootstrap-server", bootstrap, "--group", group, "--topic", topic, "--reset-offsets"}, how...)
	output, err := exec.Command(os.Getenv("COMPAT_BIN_DIR")+"/kafka-consumer-groups", append(args, "--execute")...).CombinedOutput()
	if err != nil {
		return nil, fmt.Errorf("kafka-consumer-groups: %v: %s", err, output)
	}
	var rows []string
	for _, line := range strings.Split(string(output), "\n") {
		fields := strings.Fields(line)
		if len(fields) >= 4 && fields[0] == group && fields[1] == topic {
			rows = append(rows, fields[2]+":"+fields[3])
		}
	}
	return rows, nil
}

func offsetReset(ctx context.Context, bootstrap, prefix string) error {
	topic, group := prefix+"topic", prefix+"group"
	if err := create(ctx, bootstrap, topic, 1, nil); err != nil {
		return err
	}
	if _, err := produceValues(ctx, bootstrap, topic, numbered(0, 10)); err != nil {
		return err
	}
	if _, err := readGroup(ctx, bootstrap, group, topic, atLeast(10)); err != nil {
		return err
	}
	table, err := resetOffsets(bootstrap, group, topic, "--to-offset", "3")
	if err != nil {
		return err
	}
	if err := same([]string{"0:3"}, table, "the tool's table"); err != nil {
		return err
	}
	resumed, err := readGroup(ctx, bootstrap, group, topic, reaches(9))
	if err != nil {
		return err
	}
	if err := same(numbered(3, 7), values(resumed), "resumed"); err != nil {
		return err
	}
	observe("tool", map[string][]string{"toOffset": table})
	observe("resumed", positions(resumed))
	return nil
}

func twoGroups(ctx context.Context, bootstrap, prefix string) error {
	topic := prefix + "topic"
	if err := create(ctx, bootstrap, topic, 2, nil); err != nil {
		return err
	}
	producer, err := newClient(kgo.SeedBrokers(bootstrap), kgo.DisableIdempotentWrite())
	if err != nil {
		return err
	}
	for i := 0; i < 10; i++ {
		if err := producer.ProduceSync(ctx, &kgo.Record{Topic: topic, Key: []byte(fmt.Sprintf("key-%d", i)), Value: []byte(fmt.Sprintf("m%d", i))}).FirstErr(); err != nil {
			producer.Close()
			return err
		}
	}
	producer.Close()
	placement := func(group string) ([]string, error) {
		received, err := readGroup(ctx, bootstrap, group, topic, atLeast(10))
		var out []string
		for _, r := range received {
			out = append(out, fmt.Sprintf("%d:%d:%s", r.Partition, r.Offset, r.Value))
		}
		sort.Strings(out)
		return out, err
	}
	first, err := placement(prefix + "first")
	if err != nil {
		return err
	}
	second, err := placement(prefix + "second")
	if err != nil {
		return err
	}
	if err := same(first, second, "both groups read the same"); err != nil {
		return err
	}
	observe("placement", first)
	return nil
}

func seekReplay(ctx context.Context, bootstrap, prefix string) error {
	topic := prefix + "topic"
	if err := create(ctx, bootstrap, topic, 1, nil); err != nil {
		return err
	}
	if _, err := produceValues(ctx, bootstrap, topic, numbered(0, 10)); err != nil {
		return err
	}
	client, err := newClient(kgo.SeedBrokers(bootstrap), kgo.ConsumerGroup(prefix+"group"), kgo.ConsumeTopics(topic),
		kgo.ConsumeResetOffset(kgo.NewOffset().AtStart()), kgo.DisableAutoCommit())
	if err != nil {
		return err
	}
	defer client.Close()
	sought := false
	received, err := pollUntil(ctx, client, atLeast(17), func(r *kgo.Record) error {
		if !sought && r.Offset == 9 {
			sought = true
			client.SetOffsets(map[string]map[int32]kgo.EpochOffset{topic: {0: {Epoch: -1, Offset: 3}}})
		}
		return nil
	})
	if err != nil {
		return err
	}
	var offsets []int64
	for _, r := range received {
		offsets = append(offsets, r.Offset)
	}
	if err := same([]int64{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 3, 4, 5, 6, 7, 8, 9}, offsets, "offsets"); err != nil {
		return err
	}
	observe("offsets", offsets)
	return nil
}

const baseTime = int64(1_700_000_000_000)

func offsetsForTimes(ctx context.Context, bootstrap, prefix string) error {
	topic := prefix + "topic"
	if err := create(ctx, bootstrap, topic, 1, nil); err != nil {
		return err
	}
	producer, err := newClient(kgo.SeedBrokers(bootstrap), kgo.DisableIdempotentWrite())
	if err != nil {
		return err
	}
	for i := int64(0); i < 5; i++ {
		r := &kgo.Record{Topic: topic, Value: []byte(fmt.Sprintf("t%d", i)), Timestamp: time.UnixMilli(baseTime + i*1000)}
		if err := producer.ProduceSync(ctx, r).FirstErr(); err != nil {
			producer.Close()
			return err
		}
	}
	producer.Close()
	client, adm, err := admin(bootstrap)
	if err != nil {
		return err
	}
	defer client.Close()
	answers := map[string]int64{}
	for key, at := range map[string]int64{"before": baseTime - 1000, "exact": baseTime + 2000, "between": baseTime + 2500, "after": baseTime + 60_000} {
		listed, err := adm.ListOffsetsAfterMilli(ctx, at, topic)
		if err != nil {
			return err
		}
		found, _ := listed.Lookup(topic, 0)
		if found.Err != nil {
			return found.Err
		}
		answers[key] = found.Offset
	}
	// kadm answers a time after every record with the end offset, as Kafka's -1 means "none".
	if err := same(map[string]int64{"before": 0, "exact": 2, "between": 3, "after": 5}, answers, "offsets"); err != nil {
		return err
	}
	observe("offsets", answers)
	return nil
}

func idempotentProducer(ctx context.Context, bootstrap, prefix string) error {
	topic := prefix + "topic"
	if err := create(ctx, bootstrap, topic, 1, nil); err != nil {
		return err
	}
	client, err := newClient(kgo.SeedBrokers(bootstrap), kgo.RecordPartitioner(kgo.ManualPartitioner())) // idempotent by default
	if err != nil {
		return err
	}
	var records []*kgo.Record
	for _, v := range numbered(0, 9) {
		records = append(records, &kgo.Record{Topic: topic, Partition: 0, Value: []byte(v)})
	}
	results := client.ProduceSync(ctx, records...)
	client.Close()
	var offsets []int64
	for _, result := range results {
		if result.Err != nil {
			return result.Err
		}
		offsets = append(offsets, result.Record.Offset)
	}
	if err := same([]int64{0, 1, 2, 3, 4, 5, 6, 7, 8}, offsets, "offsets"); err != nil {
		return err
	}
	observe("offsets", offsets)
	received, err := readGroup(ctx, bootstrap, prefix+"group", topic, atLeast(9))
	if err != nil {
		return err
	}
	return same(numbered(0, 9), values(received), "read back")
}

func transactions(ctx context.Context, bootstrap, prefix string) error {
	topic := prefix + "topic"
	if err := create(ctx, bootstrap, topic, 1, nil); err != nil {
		return err
	}
	client, err := newClient(kgo.SeedBrokers(bootstrap), kgo.TransactionalID(prefix+"txn"), kgo.RecordPartitioner(kgo.ManualPartitioner()))
	if err != nil {
		return err
	}
	defer client.Close()
	// Committed (offsets 0-2, marker 3), aborted (4-5, marker 6), committed (7, marker 8).
	for _, step := range []struct {
		commit kgo.TransactionEndTry
		values []string
	}{{kgo.TryCommit, []string{"c0", "c1", "c2"}}, {kgo.TryAbort, []string{"a0", "a1"}}, {kgo.TryCommit, []string{"c3"}}} {
		if err := client.BeginTransaction(); err != nil {
			return err
		}
		for _, v := range step.values {
			if err := client.ProduceSync(ctx, &kgo.Record{Topic: topic, Partition: 0, Value: []byte(v)}).FirstErr(); err != nil {
				return err
			}
		}
		if err := client.EndTransaction(ctx, step.commit); err != nil {
			return err
		}
	}
	committedRead, err := readGroup(ctx, bootstrap, prefix+"committed", topic, atLeast(4), kgo.FetchIsolationLevel(kgo.ReadCommitted()))
	if err != nil {
		return err
	}
	if err := same([]string{"c0", "c1", "c2", "c3"}, values(committedRead), "read_committed"); err != nil {
		return err
	}
	everything, err := readGroup(ctx, bootstrap, prefix+"uncommitted", topic, atLeast(6))
	if err != nil {
		return err
	}
	if err := same([]string{"c0", "c1", "c2", "a0", "a1", "c3"}, values(everything), "read_uncommitted"); err != nil {
		return err
	}
	observe("read-committed", positions(committedRead))
	observe("read-uncommitted", positions(everything))
	return nil
}

func brokerRestartBefore(ctx context.Context, bootstrap, prefix string) error {
	topic := prefix + "topic"
	if err := create(ctx, bootstrap, topic, 1, nil); err != nil {
		return err
	}
	if _, err := produceValues(ctx, bootstrap, topic, numbered(0, 5)); err != nil {
		return err
	}
	_, err := readGroup(ctx, bootstrap, prefix+"group", topic, atLeast(5))
	return err
}

func brokerRestartAfter(ctx context.Context, bootstrap, prefix string) error {
	topic, group := prefix+"topic", prefix+"group"
	client, adm, err := admin(bootstrap)
	if err != nil {
		return err
	}
	defer client.Close()
	// The coordinator answers COORDINATOR_LOAD_IN_PROGRESS until it has loaded its offsets again.
	if err := eventually(ctx, "the committed offset", func() error {
		offset, err := committed(ctx, adm, group, topic)
		if err != nil {
			return err
		}
		return same(5, offset, "committed")
	}); err != nil {
		return err
	}
	offsets, err := produceValues(ctx, bootstrap, topic, numbered(5, 5))
	if err != nil {
		return err
	}
	if err := same([]int64{5, 6, 7, 8, 9}, offsets, "offsets after the restart"); err != nil {
		return err
	}
	resumed, err := readGroup(ctx, bootstrap, group, topic, reaches(9))
	if err != nil {
		return err
	}
	if err := same(numbered(5, 5), values(resumed), "resumed"); err != nil {
		return err
	}
	everything, err := readGroup(ctx, bootstrap, prefix+"all", topic, atLeast(10))
	if err != nil {
		return err
	}
	if err := same(numbered(0, 10), values(everything), "everything"); err != nil {
		return err
	}
	observe("resumed", positions(resumed))
	return nil
}

// ---- errors ---------------------------------------------------------------------------------------------------

func errorUnknownTopic(ctx context.Context, bootstrap, prefix string) error {
	topic := prefix + "missing"
	client, adm, err := admin(bootstrap)
	if err != nil {
		return err
	}
	defer client.Close()
	observations := map[string]func() error{
		// kadm asks for metadata without auto-creation.
		"metadata": func() error {
			described, err := adm.Metadata(ctx, topic)
			if err != nil {
				return err
			}
			return described.Topics[topic].Err
		},
		"describe-configs": func() error { _, err := topicConfigs(ctx, adm, topic); return err },
		"delete": func() error {
			deleted, err := adm.DeleteTopics(ctx, topic)
			if err != nil {
				return err
			}
			response, _ := deleted.On(topic, nil)
			return response.Err
		},
		"add-partitions": func() error {
			grown, err := adm.UpdatePartitions(ctx, 2, topic)
			if err != nil {
				return err
			}
			response, _ := grown.On(topic, nil)
			return response.Err
		},
	}
	for key, work := range observations {
		name, err := failsWith(key, work)
		if err != nil {
			return err
		}
		observe(key, name)
	}
	listed, err := adm.ListTopics(ctx)
	if err != nil {
		return err
	}
	if listed.Has(topic) {
		return errors.New("the topic was created")
	}
	return nil
}

func errorMessageTooLarge(ctx context.Context, bootstrap, prefix string) error {
	topic, other := prefix+"topic", prefix+"default"
	if err := create(ctx, bootstrap, topic, 1, map[string]*string{"max.message.bytes": kadm.StringPtr("2000")}); err != nil {
		return err
	}
	if err := create(ctx, bootstrap, other, 1, nil); err != nil {
		return err
	}
	// ProducerBatchMaxBytes raised so the broker, not the client, judges the size.
	client, err := newClient(kgo.SeedBrokers(bootstrap), kgo.DisableIdempotentWrite(), kgo.ProducerBatchMaxBytes(4_000_000),
		kgo.ProducerBatchCompression(kgo.NoCompression()), // uncompressed, so the size the broker judges is the size sent
		kgo.RecordRetries(0))
	if err != nil {
		return err
	}
	defer client.Close()
	for _, c := range []struct {
		key, topic string
		size       int
	}{{"over-topic-limit", topic, 3000}, {"over-broker-default", other, 1_100_000}} {
		name, err := failsWith(c.key, func() error {
			return client.ProduceSync(ctx, &kgo.Record{Topic: c.topic, Value: make([]byte, c.size)}).FirstErr()
		})
		if err != nil {
			return err
		}
		observe(c.key, name)
	}
	r, err := client.ProduceSync(ctx, &kgo.Record{Topic: topic, Value: make([]byte, 1000)}).First()
	if err != nil {
		return err
	}
	observe("under-limit-offset", r.Offset)
	return nil
}

func errorInvalidTopic(ctx context.Context, bootstrap, prefix string) error {
	client, adm, err := admin(bootstrap)
	if err != nil {
		return err
	}
	defer client.Close()
	for _, c := range []struct {
		key, topic string
		partitions int32
	}{{"space-and-bang", "bad name!", 1}, {"dot", ".", 1}, {"250-chars", strings.Repeat("x", 250), 1}, {"zero-partitions", prefix + "zero", 0}} {
		name, err := failsWith(c.key, func() error { return createTopic(ctx, adm, c.topic, c.partitions, nil) })
		if err != nil {
			return err
		}
		observe(c.key, name)
	}
	return nil
}

func errorInvalidConfig(ctx context.Context, bootstrap, prefix string) error {
	topic := prefix + "topic"
	client, adm, err := admin(bootstrap)
	if err != nil {
		return err
	}
	defer client.Close()
	for _, c := range []struct{ key, name, value string }{
		{"create-bad-value", "cleanup.policy", "bogus"}, {"create-bad-number", "retention.ms", "abc"}, {"create-unknown-name", "no.such.config", "1"},
	} {
		name, err := failsWith(c.key, func() error {
			return createTopic(ctx, adm, topic, 1, map[string]*string{c.name: kadm.StringPtr(c.value)})
		})
		if err != nil {
			return err
		}
		observe(c.key, name)
	}
	if err := createTopic(ctx, adm, topic, 1, nil); err != nil {
		return err
	}
	name, err := failsWith("retention.ms=abc", func() error {
		altered, err := adm.AlterTopicConfigs(ctx, []kadm.AlterConfig{{Op: kadm.SetConfig, Name: "retention.ms", Value: kadm.StringPtr("abc")}}, topic)
		if err != nil {
			return err
		}
		for _, response := range altered {
			if response.Err != nil {
				return response.Err
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	observe("alter-bad-value", name)
	return nil
}
