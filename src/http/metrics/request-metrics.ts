/**
 * Kafka's RequestMetrics and BrokerTopicMetrics and the socket server's connection counts, named as the JMX
 * exporter's Kafka configuration (example_configs/kafka-2_0_0.yml, lower-case names) turns Kafka's MBeans into
 * Prometheus series: kafka.network:type=RequestMetrics,name=RequestsPerSec,request=Produce,version=11 becomes
 * kafka_network_requestmetrics_requests_total{request="Produce",version="11"}. TotalTimeMs is a Prometheus
 * histogram (milliseconds) per request and version, where the JMX exporter gives quantile gauges per request.
 */
import type { Registry } from 'prom-client';
import { errorName } from '../../protocol/error-codes.js';
import { LATENCY_BUCKETS_MS } from '../../server/request-metrics.js';
import type { HttpContext } from '../context.js';
import { registerScraped, type Sample } from './scraped-metric.js';

export function registerRequestMetrics(registry: Registry, ctx: HttpContext): void {
  const apiName = (apiKey: number): string =>
    ctx.broker.handlers.find((h) => h.api.apiKey === apiKey)?.api.name ?? String(apiKey);

  registerScraped(registry, {
    name: 'kafka_network_requestmetrics_requests_total',
    help: 'Requests answered, per API (request) and version (Kafka\'s RequestsPerSec).',
    type: 'counter',
    collect: () => !ctx.ready ? [] : [...ctx.requestMetrics.byVersion()].map(({ apiKey, version, stats }) =>
      ({ labels: { request: apiName(apiKey), version }, value: stats.requests })),
  });
  registerScraped(registry, {
    name: 'kafka_network_requestmetrics_errors_total',
    help: 'Error codes in responses, per API (request) and error name, NONE included (Kafka\'s ErrorsPerSec).',
    type: 'counter',
    collect: () => !ctx.ready ? [] : [...ctx.requestMetrics.byError()].map(({ apiKey, errorCode, count }) =>
      ({ labels: { request: apiName(apiKey), error: errorName(errorCode) }, value: count })),
  });
  registerScraped(registry, {
    name: 'kafka_network_requestmetrics_totaltimems',
    help: 'Time from a request\'s dispatch to its response, in milliseconds, per API (request) and version (Kafka\'s TotalTimeMs).',
    type: 'histogram',
    collect: () => {
      if (!ctx.ready) return [];
      const samples: Sample[] = [];
      for (const { apiKey, version, stats } of ctx.requestMetrics.byVersion()) {
        const labels = { request: apiName(apiKey), version };
        let cumulative = 0;
        LATENCY_BUCKETS_MS.forEach((bound, i) => {
          cumulative += stats.buckets[i]!;
          samples.push({ metricName: 'kafka_network_requestmetrics_totaltimems_bucket', labels: { ...labels, le: bound }, value: cumulative });
        });
        samples.push({ metricName: 'kafka_network_requestmetrics_totaltimems_bucket', labels: { ...labels, le: '+Inf' }, value: stats.requests });
        samples.push({ metricName: 'kafka_network_requestmetrics_totaltimems_sum', labels, value: stats.timeSumMs });
        samples.push({ metricName: 'kafka_network_requestmetrics_totaltimems_count', labels, value: stats.requests });
      }
      return samples;
    },
  });

  const topicCounter = (name: string, help: string, read: (stats: { messagesIn: number; bytesIn: number; bytesOut: number }) => number) =>
    registerScraped(registry, {
      name, help, type: 'counter',
      collect: () => {
        if (!ctx.ready) return [];
        const samples: Sample[] = [];
        let all = 0;
        const { topicStats } = ctx.replicaManager;
        for (const [topic, stats] of [...topicStats.entries()]) {
          // A deleted topic's counts go with it, as Kafka removes its BrokerTopicMetrics.
          if (ctx.store.topic(topic) === undefined) {
            topicStats.remove(topic);
            continue;
          }
          all += read(stats);
          samples.push({ labels: { topic }, value: read(stats) });
        }
        // Kafka's all-topics meter: the same MBean without the topic key.
        samples.push({ labels: {}, value: all });
        return samples;
      },
    });
  topicCounter('kafka_server_brokertopicmetrics_messagesin_total', 'Records appended, per topic; without a topic label, all topics (Kafka\'s MessagesInPerSec).', (s) => s.messagesIn);
  topicCounter('kafka_server_brokertopicmetrics_bytesin_total', 'Record batch bytes appended as producers sent them, per topic; without a topic label, all topics (Kafka\'s BytesInPerSec).', (s) => s.bytesIn);
  topicCounter('kafka_server_brokertopicmetrics_bytesout_total', 'Record bytes sent in Fetch responses, per topic; without a topic label, all topics (Kafka\'s BytesOutPerSec).', (s) => s.bytesOut);

  registerScraped(registry, {
    name: 'kafka_server_socket_server_metrics_connection_count',
    help: 'Open client connections, per listener (Kafka\'s socket-server-metrics connection-count).',
    type: 'gauge',
    collect: () => !ctx.ready ? [] : [...ctx.connections().byListener].map(([listener, count]) => ({ labels: { listener }, value: count })),
  });
}
