import { register as globalRegistry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { createMetrics, MetricDefinitionError } from './metrics.js';

describe('createMetrics', () => {
  it('exposes declared metrics named ton_<service>_<thing>_<unit> with their labels', async () => {
    const metrics = createMetrics({ service: 'indexer' });
    const rows = metrics.counter({ name: 'rows_inserted', unit: 'total', help: 'Rows inserted', labels: ['table'] });
    const lag = metrics.gauge({ name: 'consumer_lag', unit: 'messages', help: 'Messages behind', labels: ['topic', 'partition'] });
    const flush = metrics.histogram({ name: 'flush_duration', unit: 'seconds', help: 'Flush time' });
    const size = metrics.histogram({ name: 'batch_size', unit: 'rows', help: 'Rows per batch', buckets: [10, 100, 1000] });
    rows.inc({ table: 'transactions' }, 120);
    lag.set({ topic: 'tonflow.raw-blocks', partition: 3 }, 7);
    flush.observe(0.2);
    size.observe(50);

    const text = await metrics.text();
    expect(text).toContain('# TYPE ton_indexer_rows_inserted_total counter');
    expect(text).toContain('ton_indexer_rows_inserted_total{table="transactions"} 120');
    expect(text).toContain('ton_indexer_consumer_lag_messages{topic="tonflow.raw-blocks",partition="3"} 7');
    expect(text).toContain('ton_indexer_flush_duration_seconds_count 1');
    expect(text).toContain('ton_indexer_batch_size_rows_bucket{le="100"} 1');
    expect(metrics.contentType).toMatch(/^text\/plain/);
  });

  it('registers the default process metrics on its own registry, not the global one', async () => {
    const before = (await globalRegistry.getMetricsAsJSON()).length;
    const metrics = createMetrics({ service: 'follower' });
    const text = await metrics.text();
    for (const name of ['process_cpu_user_seconds_total', 'process_resident_memory_bytes', 'nodejs_eventloop_lag_seconds', 'nodejs_heap_size_used_bytes']) {
      expect(text).toContain(`# TYPE ${name} `);
    }
    expect((await globalRegistry.getMetricsAsJSON()).length).toBe(before);
    expect(await createMetrics({ service: 'follower', processMetrics: false }).text()).not.toContain('process_cpu');
  });

  it('keeps instances apart and lets stages share one registry through forService', async () => {
    const a = createMetrics({ service: 'gateway', processMetrics: false });
    const b = createMetrics({ service: 'gateway', processMetrics: false });
    a.counter({ name: 'requests', unit: 'total', help: 'Requests' }).inc();
    b.counter({ name: 'requests', unit: 'total', help: 'Requests' }).inc(5);
    expect(await a.text()).toContain('ton_gateway_requests_total 1');
    expect(await b.text()).toContain('ton_gateway_requests_total 5');

    const follower = a.forService('follower');
    follower.gauge({ name: 'head', unit: 'seqno', help: 'Masterchain head' }).set(45_000_000);
    expect(follower.registry).toBe(a.registry);
    expect(await a.text()).toContain('ton_follower_head_seqno 45000000');
  });

  it('returns the same metric for the same declaration and refuses a conflicting one', () => {
    const metrics = createMetrics({ service: 'indexer', processMetrics: false });
    const first = metrics.counter({ name: 'batches', unit: 'total', help: 'Batches', labels: ['stage'] });
    expect(metrics.counter({ name: 'batches', unit: 'total', help: 'Batches', labels: ['stage'] })).toBe(first);
    expect(() => metrics.counter({ name: 'batches', unit: 'total', help: 'Batches', labels: ['topic'] })).toThrow(MetricDefinitionError);
    expect(() => metrics.gauge({ name: 'batches', unit: 'total', help: 'Batches', labels: ['stage'] })).toThrow(MetricDefinitionError);
  });

  it('refreshes collect gauges on scrape', async () => {
    const metrics = createMetrics({ service: 'indexer', processMetrics: false });
    let buffered = 3;
    metrics.gauge({ name: 'buffered', unit: 'rows', help: 'Rows waiting', collect() { this.set(buffered); } });
    expect(await metrics.text()).toContain('ton_indexer_buffered_rows 3');
    buffered = 9;
    expect(await metrics.text()).toContain('ton_indexer_buffered_rows 9');
  });

  it('rejects names, units and labels that break the conventions', () => {
    const m = createMetrics({ service: 'indexer', processMetrics: false });
    const def = { name: 'rows', unit: 'total', help: 'x' };
    expect(() => createMetrics({ service: 'Indexer' })).toThrow(/snake_case/);
    expect(() => m.counter({ ...def, name: 'rowsInserted' })).toThrow(/snake_case/);
    expect(() => m.counter({ ...def, unit: 'rows' })).toThrow(/must end in "total"/);
    expect(() => m.histogram({ ...def, unit: 'rows' })).toThrow(/give buckets/);
    for (const label of ['address', 'account_address', 'tx_hash', 'hash', 'lt', 'mc_seqno', 'trace_id']) {
      expect(() => m.counter({ ...def, name: `by_${label}`, labels: [label] })).toThrow(/looks unbounded/);
    }
    expect(() => m.counter({ ...def, labels: ['stage', 'status', 'topic', 'partition', 'route'] })).not.toThrow();
  });
});
