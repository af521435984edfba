// franz-go (idempotent by default) through injected faults: adds rules over gregor's HTTP API (NOT_LEADER_OR_FOLLOWER
// to the next 3 Produce requests on the topic, a connection dropped after one Produce is handled), produces `count`
// records one at a time, removes the rules (DELETE /v1/faults), then reads the partition from the start and prints
// each value on its own line.
//
//	faults <bootstrap> <http base> <topic> <count>
//
// With a fifth argument, an error name: the next 3 Produce requests on the topic get that error while a do-nothing
// rule on Metadata counts the client's metadata requests; produces 5 records and prints "metadata <requests>" and
// "acked <records>". A NOT_LEADER_OR_FOLLOWER carrying the current leader (KIP-951) needs no metadata refresh.
//
//	faults <bootstrap> <http base> <topic> 5 <error>
//
// With "matrix" as the fifth argument: the next Produce requests on the topic are delayed 500 ms, throttled 300 ms,
// dropped before handling and swallowed (request timeout about 2 s), one each, while `count` records go one at a
// time; prints "acked <count> <GET /v1/faults>". Then one Fetch on the topic gets its first batch's CRC flipped: a
// consumer from the start prints "crc <first fetch error or none>", "first <values read>" and "left <rules>"; the
// rules are removed, the next Fetch is throttled 300 ms, a fresh consumer prints the values, one a line, and
// "left <rules>".
//
//	faults <bootstrap> <http base> <topic> <count> matrix
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/twmb/franz-go/pkg/kgo"
)

func call(method, url, body string) string {
	req, err := http.NewRequest(method, url, strings.NewReader(body))
	must(err)
	if body != "" {
		req.Header.Set("content-type", "application/json")
	}
	resp, err := http.DefaultClient.Do(req)
	must(err)
	defer resp.Body.Close()
	text, _ := io.ReadAll(resp.Body)
	if resp.StatusCode >= 300 {
		must(fmt.Errorf("%s %s: %d %s", method, url, resp.StatusCode, text))
	}
	return string(text)
}

func metadataRequests(ctx context.Context, bootstrap, base, topic string, count int, errorName string) {
	producer, err := kgo.NewClient(kgo.SeedBrokers(bootstrap), kgo.DefaultProduceTopic(topic), kgo.RetryBackoffFn(func(int) time.Duration { return 20 * time.Millisecond }))
	must(err)
	defer producer.Close()
	// The partition's leader and epoch are known before the faults.
	must(producer.ProduceSync(ctx, &kgo.Record{Partition: 0, Value: []byte("warm")}).FirstErr())
	call("POST", base+"/v1/faults", `{"api":"Metadata","action":"delay","ms":0}`)
	call("POST", base+"/v1/faults", `{"api":"Produce","topic":"`+topic+`","action":"error","error":"`+errorName+`","count":3}`)
	acked := 0
	for i := 0; i < count; i++ {
		must(producer.ProduceSync(ctx, &kgo.Record{Partition: 0, Value: []byte("v" + strconv.Itoa(i))}).FirstErr())
		acked++
	}
	var listed struct {
		Rules []struct {
			API   string `json:"api"`
			Fired int    `json:"fired"`
		} `json:"rules"`
	}
	must(json.Unmarshal([]byte(call("GET", base+"/v1/faults", "")), &listed))
	call("DELETE", base+"/v1/faults", "")
	for _, rule := range listed.Rules {
		if rule.API == "Metadata" {
			fmt.Println("metadata", rule.Fired)
		}
	}
	fmt.Println("acked", acked)
}

func must(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

func main() {
	bootstrap, base, topic := os.Args[1], os.Args[2], os.Args[3]
	count, err := strconv.Atoi(os.Args[4])
	must(err)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	if len(os.Args) > 5 && os.Args[5] == "matrix" {
		matrix(ctx, bootstrap, base, topic, count)
		return
	}
	if len(os.Args) > 5 {
		metadataRequests(ctx, bootstrap, base, topic, count, os.Args[5])
		return
	}
	producer, err := kgo.NewClient(kgo.SeedBrokers(bootstrap), kgo.DefaultProduceTopic(topic), kgo.RetryBackoffFn(func(int) time.Duration { return 20 * time.Millisecond }))
	must(err)
	must(producer.Ping(ctx))
	call("POST", base+"/v1/faults", `{"api":"Produce","topic":"`+topic+`","action":"error","error":"NOT_LEADER_OR_FOLLOWER","count":3}`)
	call("POST", base+"/v1/faults", `{"api":"Produce","action":"drop","when":"after","count":1}`)
	for i := 0; i < count; i++ {
		must(producer.ProduceSync(ctx, &kgo.Record{Partition: 0, Value: []byte("v" + strconv.Itoa(i))}).FirstErr())
	}
	producer.Close()
	call("DELETE", base+"/v1/faults", "")
	readBack(ctx, bootstrap, topic, count)
}

// readBack prints the partition's first `count` values, one a line, read by a fresh consumer.
func readBack(ctx context.Context, bootstrap, topic string, count int) {
	consumer, err := kgo.NewClient(kgo.SeedBrokers(bootstrap), kgo.ConsumePartitions(map[string]map[int32]kgo.Offset{topic: {0: kgo.NewOffset().AtStart()}}))
	must(err)
	defer consumer.Close()
	for read := 0; read < count; {
		fetches := consumer.PollFetches(ctx)
		must(ctx.Err())
		fetches.EachRecord(func(r *kgo.Record) {
			fmt.Println(string(r.Value))
			read++
		})
	}
}

func matrix(ctx context.Context, bootstrap, base, topic string, count int) {
	producer, err := kgo.NewClient(kgo.SeedBrokers(bootstrap), kgo.DefaultProduceTopic(topic),
		kgo.RetryBackoffFn(func(int) time.Duration { return 20 * time.Millisecond }),
		kgo.ProduceRequestTimeout(time.Second), kgo.RequestTimeoutOverhead(time.Second))
	must(err)
	must(producer.Ping(ctx))
	produce := `{"api":"Produce","topic":"` + topic + `","count":1,`
	call("POST", base+"/v1/faults", produce+`"action":"delay","ms":500}`)
	call("POST", base+"/v1/faults", produce+`"action":"throttle","ms":300}`)
	call("POST", base+"/v1/faults", produce+`"action":"drop","when":"before"}`)
	call("POST", base+"/v1/faults", produce+`"action":"swallow"}`)
	for i := 0; i < count; i++ {
		must(producer.ProduceSync(ctx, &kgo.Record{Partition: 0, Value: []byte("v" + strconv.Itoa(i))}).FirstErr())
	}
	producer.Close()
	fmt.Println("acked", count, call("GET", base+"/v1/faults", ""))
	fetch := `{"api":"Fetch","topic":"` + topic + `","count":1,`
	call("POST", base+"/v1/faults", fetch+`"action":"corrupt-crc"}`)
	consumer, err := kgo.NewClient(kgo.SeedBrokers(bootstrap), kgo.ConsumePartitions(map[string]map[int32]kgo.Offset{topic: {0: kgo.NewOffset().AtStart()}}))
	must(err)
	crc := "none"
	var first []string
	deadline, stop := context.WithTimeout(ctx, 10*time.Second)
	defer stop()
	for len(first) < count && deadline.Err() == nil {
		fetches := consumer.PollFetches(deadline)
		fetches.EachError(func(_ string, _ int32, err error) {
			if crc == "none" && deadline.Err() == nil {
				crc = err.Error()
			}
		})
		fetches.EachRecord(func(r *kgo.Record) { first = append(first, string(r.Value)) })
	}
	consumer.Close()
	fmt.Println("crc", crc)
	fmt.Println("first", strings.Join(first, ","))
	fmt.Println("left", call("GET", base+"/v1/faults", ""))
	call("DELETE", base+"/v1/faults", "")
	call("POST", base+"/v1/faults", fetch+`"action":"throttle","ms":300}`)
	readBack(ctx, bootstrap, topic, count)
	fmt.Println("left", call("GET", base+"/v1/faults", ""))
}
