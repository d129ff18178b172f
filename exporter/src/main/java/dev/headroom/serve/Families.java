package dev.headroom.serve;

import io.prometheus.metrics.model.snapshots.ClassicHistogramBuckets;
import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import io.prometheus.metrics.model.snapshots.CounterSnapshot.CounterDataPointSnapshot;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot.GaugeDataPointSnapshot;
import io.prometheus.metrics.model.snapshots.HistogramSnapshot;
import io.prometheus.metrics.model.snapshots.HistogramSnapshot.HistogramDataPointSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;

/**
 * Collects metric families for one scrape with little ceremony and builds them as client_java snapshots
 * ({@link #build}); a family with no data point is left out. client_java's model orders the families by name
 * and the points by labels, so callers add them in whatever order they come.
 *
 * <p>Usage: {@code f.gauge(TunnelMetrics.UP, 1.0); f.gauge(TunnelMetrics.THROUGHPUT, 2.0, "direction", "download");}
 */
final class Families {
  private final Map<Family, MetricSnapshot.Builder<?>> builders = new LinkedHashMap<>();

  /** Adds a gauge point; NaN means unknown and is skipped rather than exposed. */
  void gauge(Family family, double value, String... labels) {
    family.require(Family.Type.GAUGE);
    if (!Double.isNaN(value)) {
      builder(family, GaugeSnapshot::builder)
          .dataPoint(GaugeDataPointSnapshot.builder().value(value).labels(Labels.of(labels)).build());
    }
  }

  void counter(Family family, double value, String... labels) {
    builder(family.require(Family.Type.COUNTER), CounterSnapshot::builder)
        .dataPoint(CounterDataPointSnapshot.builder().value(value).labels(Labels.of(labels)).build());
  }

  /**
   * Adds an enum as one gauge series per state, 1 for the active states and 0 for the rest (node_exporter
   * style, so the state label has a readable name rather than the metric's own, as OpenMetrics StateSets do).
   */
  void stateSet(Family family, String stateLabel, String[] states, Set<String> active, String... labels) {
    for (String s : states) {
      String[] all = Arrays.copyOf(labels, labels.length + 2);
      all[labels.length] = stateLabel;
      all[labels.length + 1] = s;
      gauge(family, active.contains(s) ? 1 : 0, all);
    }
  }

  /** Adds a classic histogram point: upper bounds ending in +Inf, counts per bucket (not cumulative). */
  void histogram(Family family, double[] upperBounds, long[] perBucket, double sum, String... labels) {
    if (upperBounds.length != perBucket.length || upperBounds[upperBounds.length - 1] != Double.POSITIVE_INFINITY) {
      throw new IllegalArgumentException(family.name() + ": bounds must end in +Inf and match the buckets");
    }
    builder(family.require(Family.Type.HISTOGRAM), HistogramSnapshot::builder)
        .dataPoint(HistogramDataPointSnapshot.builder()
            .classicHistogramBuckets(ClassicHistogramBuckets.of(upperBounds, perBucket))
            .sum(sum).labels(Labels.of(labels)).build());
  }

  /** The family's snapshot builder, made on its first point; {@link Family#require} has checked its type. */
  @SuppressWarnings("unchecked")
  private <B extends MetricSnapshot.Builder<B>> B builder(Family family, Supplier<B> create) {
    return (B) builders.computeIfAbsent(family, f -> create.get().name(f.name()).help(f.help()));
  }

  MetricSnapshots build() {
    MetricSnapshots.Builder out = MetricSnapshots.builder();
    builders.values().forEach(b -> out.metricSnapshot(b.build()));
    return out.build();
  }
}
