/**
 * Prometheus metrics (house-style rule 9). Each `createMetrics` owns its own prom-client `Registry`: nothing
 * touches prom-client's global default registry, so two instances (two tests, two stages in one embedded
 * process) never collide, and nothing registers itself behind the composition root's back (rules 1 and 3).
 *
 * Names are `ton_<service>_<thing>_<unit>` (`ton_indexer_rows_inserted_total`, `ton_follower_lag_seconds`), so
 * the same dashboard works whether the stages run in one process or in many. Labels must stay bounded: a
 * stage, a topic, a status, a route pattern; never an address, a hash, a seqno or an lt, each of which would
 * create a time series per value. Such values belong in logs.
 */
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { NonRetryableError } from './errors.js';

/** What every metric declaration states. */
export interface MetricDefinition<L extends string> {
  /** The thing measured, snake_case: `rows_inserted`, `consumer_lag`. */
  name: string;
  /** The unit, snake_case and plural where it counts: `seconds`, `bytes`, `rows`; counters end in `total`. */
  unit: string;
  help: string;
  /** Label names; each must have a small, fixed set of values. */
  labels?: readonly L[];
}

/** A histogram's definition. */
export interface HistogramDefinition<L extends string> extends MetricDefinition<L> {
  /** Bucket upper bounds; required unless `unit` is `seconds` (prom-client's defaults are seconds). */
  buckets?: number[];
}

/** A gauge's definition. */
export interface GaugeDefinition<L extends string> extends MetricDefinition<L> {
  /** Called on every scrape to refresh the gauge (e.g. from a buffer's length). */
  collect?: (this: Gauge<L>) => void | Promise<void>;
}

/** One service's metrics: a private registry and the helpers that declare metrics on it. */
export interface Metrics {
  readonly service: string;
  readonly registry: Registry;
  /** `Content-Type` of `text()`. */
  readonly contentType: string;
  /** Declares (or returns the already declared) counter `ton_<service>_<name>_<unit>`. */
  counter<L extends string = never>(definition: MetricDefinition<L>): Counter<L>;
  gauge<L extends string = never>(definition: GaugeDefinition<L>): Gauge<L>;
  histogram<L extends string = never>(definition: HistogramDefinition<L>): Histogram<L>;
  /** The same registry under another service prefix: several stages in one process share one `/metrics`. */
  forService(service: string): Metrics;
  /** Prometheus exposition text of everything registered. */
  text(): Promise<string>;
}

/** Options of `createMetrics`. */
export interface MetricsOptions {
  /** snake_case service name: `follower`, `indexer`, `gateway`. */
  service: string;
  /** Register prom-client's process metrics (CPU, memory, event loop lag, GC); default true. */
  processMetrics?: boolean;
}

const SNAKE = /^[a-z][a-z0-9]*(?:_[a-z0-9]+)*$/;

/**
 * Label names that stand for unbounded values. A metric labelled by one of these grows a time series per
 * account or block and eventually takes Prometheus down; the check turns that into an error at declaration.
 */
const UNBOUNDED_LABEL =
  /(?:^|_)(?:address|addr|account|wallet|hash|lt|seqno|tx|trace|query|url|path|ip|user|key|id)(?:_|$)/;

/** Thrown at declaration for a name, unit or label that breaks the conventions: a programming error. */
export class MetricDefinitionError extends NonRetryableError {
  constructor(message: string) {
    super('METRIC_DEFINITION', message);
  }
}

/**
 * Creates a registry with prom-client's default process metrics and typed helpers that declare metrics on it.
 * @example
 * const metrics = createMetrics({ service: 'indexer' });
 * const rows = metrics.counter({ name: 'rows_inserted', unit: 'total', help: 'Rows inserted', labels: ['table'] });
 * rows.inc({ table: 'transactions' }, 120);
 */
export function createMetrics(options: MetricsOptions): Metrics {
  const registry = new Registry();
  if (options.processMetrics ?? true) collectDefaultMetrics({ register: registry });
  return bind(registry, options.service);
}

function bind(registry: Registry, service: string): Metrics {
  if (!SNAKE.test(service)) throw new MetricDefinitionError(`service "${service}" must be snake_case`);

  function check<L extends string>(kind: string, d: MetricDefinition<L>): string {
    if (!SNAKE.test(d.name)) throw new MetricDefinitionError(`metric name "${d.name}" must be snake_case`);
    if (!SNAKE.test(d.unit)) throw new MetricDefinitionError(`metric unit "${d.unit}" must be snake_case`);
    if (kind === 'counter' && !/(?:^|_)total$/.test(d.unit)) {
      throw new MetricDefinitionError(`counter ${d.name}: unit must end in "total" (Prometheus counter convention)`);
    }
    for (const label of d.labels ?? []) {
      if (!SNAKE.test(label)) throw new MetricDefinitionError(`label "${label}" of ${d.name} must be snake_case`);
      if (UNBOUNDED_LABEL.test(label)) {
        throw new MetricDefinitionError(
          `label "${label}" of ${d.name} looks unbounded (one series per value); log such values instead`,
        );
      }
    }
    return `ton_${service}_${d.name}_${d.unit}`;
  }

  /**
   * Declaring is idempotent for an identical definition (a stage built twice in one process gets the same
   * metric back); a different type or label set under the same name is an error.
   */
  function existing<M>(name: string, type: abstract new (...args: never[]) => M, labels: readonly string[]): M | undefined {
    const found = registry.getSingleMetric(name);
    if (found === undefined) return undefined;
    const foundLabels = (found as unknown as { labelNames: readonly string[] }).labelNames;
    if (!(found instanceof type) || foundLabels.join(',') !== [...labels].join(',')) {
      throw new MetricDefinitionError(`metric ${name} is already declared with another type or labels`);
    }
    return found;
  }

  return {
    service,
    registry,
    contentType: registry.contentType,
    counter<L extends string = never>(d: MetricDefinition<L>): Counter<L> {
      const name = check('counter', d);
      const labels = d.labels ?? [];
      return (
        existing<Counter<L>>(name, Counter, labels) ??
        new Counter<L>({ name, help: d.help, labelNames: labels, registers: [registry] })
      );
    },
    gauge<L extends string = never>(d: GaugeDefinition<L>): Gauge<L> {
      const name = check('gauge', d);
      const labels = d.labels ?? [];
      return (
        existing<Gauge<L>>(name, Gauge, labels) ??
        new Gauge<L>({
          name,
          help: d.help,
          labelNames: labels,
          registers: [registry],
          ...(d.collect === undefined ? {} : { collect: d.collect }),
        })
      );
    },
    histogram<L extends string = never>(d: HistogramDefinition<L>): Histogram<L> {
      const name = check('histogram', d);
      if (d.buckets === undefined && d.unit !== 'seconds') {
        throw new MetricDefinitionError(`histogram ${name}: give buckets (the defaults are for seconds)`);
      }
      const labels = d.labels ?? [];
      return (
        existing<Histogram<L>>(name, Histogram, labels) ??
        new Histogram<L>({
          name,
          help: d.help,
          labelNames: labels,
          registers: [registry],
          ...(d.buckets === undefined ? {} : { buckets: d.buckets }),
        })
      );
    },
    forService: (other) => bind(registry, other),
    text: () => registry.metrics(),
  };
}
