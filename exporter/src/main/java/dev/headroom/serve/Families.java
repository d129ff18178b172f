package dev.headroom.serve;

import io.prometheus.metrics.model.snapshots.ClassicHistogramBuckets;
import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import io.prometheus.metrics.model.snapshots.HistogramSnapshot;
import io.prometheus.metrics.model.snapshots.CounterSnapshot.CounterDataPointSnapshot;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot.GaugeDataPointSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Collects metric families for one scrape with little ceremony; a family with no data point is left out.
 *
 * <p>Usage: {@code f.gauge(TunnelMetrics.UP, 1.0); f.gauge(TunnelMetrics.THROUGHPUT, 2.0, "direction", "download");}
 */
final class Families {
  private final Map<String, GaugeSnapshot.Builder> gauges = new LinkedHashMap<>();
  private final Map<String, CounterSnapshot.Builder> counters = new LinkedHashMap<>();
  private final Map<String, HistogramSnapshot.Builder> histograms = new LinkedHashMap<>();
  private final Map<String, Boolean> nonEmpty = new LinkedHashMap<>();
  private final Map<String, Object> order = new LinkedHashMap<>();

  /** Adds a gauge point; NaN means unknown and is skipped rather than exposed. */
  void gauge(Family family, double value, String... labels) {
    String name = family.require(Family.Type.GAUGE).name();
    String help = family.help();
    GaugeSnapshot.Builder b = gauges.computeIfAbsent(name, n -> {
      order.put(n, gauges);
      return GaugeSnapshot.builder().name(n).help(help);
    });
    if (!Double.isNaN(value)) {
      b.dataPoint(GaugeDataPointSnapshot.builder().value(value).labels(Labels.of(labels)).build());
      nonEmpty.put(name, true);
    }
  }

  /** Adds a counter point. */
  void counter(Family family, double value, String... labels) {
    String name = family.require(Family.Type.COUNTER).name();
    String help = family.help();
    CounterSnapshot.Builder b = counters.computeIfAbsent(name, n -> {
      order.put(n, counters);
      return CounterSnapshot.builder().name(n).help(help);
    });
    b.dataPoint(CounterDataPointSnapshot.builder().value(value).labels(Labels.of(labels)).build());
    nonEmpty.put(name, true);
  }

  /**
   * Adds an enum as one gauge series per state, 1 for the active states and 0 for the rest (node_exporter
   * style, so the state label has a readable name rather than the metric's own, as OpenMetrics StateSets do).
   */
  void stateSet(Family family, String stateLabel, String[] states, java.util.Set<String> active,
      String... labels) {
    for (String s : states) {
      String[] all = java.util.Arrays.copyOf(labels, labels.length + 2);
      all[labels.length] = stateLabel;
      all[labels.length + 1] = s;
      gauge(family, active.contains(s) ? 1 : 0, all);
    }
  }

  /** Adds a classic histogram point: upper bounds ending in +Inf, counts per bucket (not cumulative). */
  void histogram(Family family, double[] upperBounds, long[] perBucket, double sum, String... labels) {
    String name = family.require(Family.Type.HISTOGRAM).name();
    String help = family.help();
    HistogramSnapshot.Builder b = histograms.computeIfAbsent(name, n -> {
      order.put(n, histograms);
      return HistogramSnapshot.builder().name(n).help(help);
    });
    b.dataPoint(HistogramSnapshot.HistogramDataPointSnapshot.builder()
        .classicHistogramBuckets(ClassicHistogramBuckets.of(upperBounds, perBucket))
        .sum(sum).labels(Labels.of(labels)).build());
    nonEmpty.put(name, true);
  }

  MetricSnapshots build() {
    MetricSnapshots.Builder out = MetricSnapshots.builder();
    for (Map.Entry<String, Object> e : order.entrySet()) {
      String n = e.getKey();
      if (!nonEmpty.containsKey(n)) {
        continue;
      }
      if (e.getValue() == gauges) {
        out.metricSnapshot(gauges.get(n).build());
      } else if (e.getValue() == histograms) {
        out.metricSnapshot(histograms.get(n).build());
      } else {
        out.metricSnapshot(counters.get(n).build());
      }
    }
    return out.build();
  }
}
