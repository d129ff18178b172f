package dev.headroom.serve;

import io.prometheus.metrics.model.snapshots.ClassicHistogramBuckets;
import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import io.prometheus.metrics.model.snapshots.CounterSnapshot.CounterDataPointSnapshot;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot.GaugeDataPointSnapshot;
import io.prometheus.metrics.model.snapshots.HistogramSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import java.util.Arrays;
import java.util.IdentityHashMap;
import java.util.Map;

/**
 * Collects metric families for one scrape with little ceremony; a family with no data point is left out.
 * The points are kept as plain values, in the order client_java's model sorts them (families by name, points
 * by label names then values), and can become client_java snapshots ({@link #build}) or be written straight
 * to bytes ({@link TextExposition}). One instance can be {@link #reset} and reused, so a render allocates
 * little more than the label arrays its callers pass.
 *
 * <p>Usage: {@code f.gauge(TunnelMetrics.UP, 1.0); f.gauge(TunnelMetrics.THROUGHPUT, 2.0, "direction", "download");}
 */
final class Families {
  /** Slot per family ever seen by this instance; slots of families without points this render are skipped. */
  private final Map<Family, Integer> slots = new IdentityHashMap<>();
  private Family[] families = new Family[64];
  private int[] head = new int[64];
  private int[] tail = new int[64];
  private int slotCount;

  private String[][] labels = new String[256][];
  private double[] values = new double[256];
  private long[][] buckets = new long[256][];
  private double[][] bounds = new double[256][];
  private int[] next = new int[256];
  private int points;

  Families() {
    Arrays.fill(head, -1);
  }

  /** Forgets every point; the family slots stay, so a reused instance allocates nothing for them. */
  void reset() {
    Arrays.fill(head, 0, slotCount, -1);
    Arrays.fill(labels, 0, points, null);
    Arrays.fill(buckets, 0, points, null);
    Arrays.fill(bounds, 0, points, null);
    points = 0;
  }

  /** Adds a gauge point; NaN means unknown and is skipped rather than exposed. */
  void gauge(Family family, double value, String... labels) {
    int slot = slot(family.require(Family.Type.GAUGE));
    if (!Double.isNaN(value)) {
      add(slot, value, labels, null, null);
    }
  }

  /** Adds a counter point. */
  void counter(Family family, double value, String... labels) {
    add(slot(family.require(Family.Type.COUNTER)), value, labels, null, null);
  }

  /**
   * Adds an enum as one gauge series per state, 1 for the active states and 0 for the rest (node_exporter
   * style, so the state label has a readable name rather than the metric's own, as OpenMetrics StateSets do).
   */
  void stateSet(Family family, String stateLabel, String[] states, java.util.Set<String> active,
      String... labels) {
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
    add(slot(family.require(Family.Type.HISTOGRAM)), sum, labels, upperBounds, perBucket);
  }

  private int slot(Family family) {
    Integer s = slots.get(family);
    if (s == null) {
      if (slotCount == families.length) {
        int n = slotCount * 2;
        families = Arrays.copyOf(families, n);
        head = Arrays.copyOf(head, n);
        tail = Arrays.copyOf(tail, n);
        Arrays.fill(head, slotCount, n, -1);
      }
      s = slotCount++;
      families[s] = family;
      slots.put(family, s);
    }
    return s;
  }

  private void add(int slot, double value, String[] pairs, double[] upperBounds, long[] perBucket) {
    if ((pairs.length & 1) != 0) {
      throw new IllegalArgumentException(families[slot].name() + ": labels come in name, value pairs");
    }
    sortPairs(pairs);
    if (points == values.length) {
      int n = points * 2;
      labels = Arrays.copyOf(labels, n);
      values = Arrays.copyOf(values, n);
      buckets = Arrays.copyOf(buckets, n);
      bounds = Arrays.copyOf(bounds, n);
      next = Arrays.copyOf(next, n);
    }
    int p = points++;
    labels[p] = pairs;
    values[p] = value;
    bounds[p] = upperBounds;
    buckets[p] = perBucket;
    next[p] = -1;
    if (head[slot] < 0) {
      head[slot] = p;
    } else {
      next[tail[slot]] = p;
    }
    tail[slot] = p;
  }

  /** Label pairs sorted by name, as {@link Labels#of} keeps them. */
  private static void sortPairs(String[] pairs) {
    for (int i = 2; i < pairs.length; i += 2) {
      String name = pairs[i];
      String value = pairs[i + 1];
      int j = i - 2;
      while (j >= 0 && pairs[j].compareTo(name) > 0) {
        pairs[j + 2] = pairs[j];
        pairs[j + 3] = pairs[j + 1];
        j -= 2;
      }
      pairs[j + 2] = name;
      pairs[j + 3] = value;
    }
  }

  // Read access for the writers, in exposition order.

  /** The slots of the families with points, sorted by family name, into {@code out}; returns how many. */
  int sortedFamilies(int[] out) {
    int n = 0;
    for (int s = 0; s < slotCount; s++) {
      if (head[s] >= 0) {
        int j = n++;
        String name = families[s].name();
        while (j > 0 && families[out[j - 1]].name().compareTo(name) > 0) {
          out[j] = out[j - 1];
          j--;
        }
        out[j] = s;
      }
    }
    return n;
  }

  /** Slots ever seen: the size {@link #sortedFamilies} needs. */
  int slotCount() {
    return slotCount;
  }

  Family family(int slot) {
    return families[slot];
  }

  /** Points of this render: the size {@link #sortedPoints} needs. */
  int pointCount() {
    return points;
  }

  /**
   * The points of one family in the order client_java's snapshots keep them (label names, then values, as
   * {@link Labels#compareTo} orders), into {@code out}; {@code scratch} is as large. Returns how many.
   */
  int sortedPoints(int slot, int[] out, int[] scratch) {
    int n = 0;
    for (int p = head[slot]; p >= 0; p = next[p]) {
      out[n++] = p;
    }
    mergeSort(out, scratch, n);
    return n;
  }

  String[] labels(int point) {
    return labels[point];
  }

  /** The gauge or counter value, or a histogram's sum. */
  double value(int point) {
    return values[point];
  }

  double[] upperBounds(int point) {
    return bounds[point];
  }

  long[] perBucket(int point) {
    return buckets[point];
  }

  private void mergeSort(int[] a, int[] tmp, int n) {
    for (int width = 1; width < n; width *= 2) {
      for (int lo = 0; lo < n - width; lo += 2 * width) {
        int mid = lo + width;
        int hi = Math.min(lo + 2 * width, n);
        if (compare(a[mid - 1], a[mid]) <= 0) {
          continue; // already in order, the usual case
        }
        System.arraycopy(a, lo, tmp, lo, hi - lo);
        int i = lo;
        int j = mid;
        for (int k = lo; k < hi; k++) {
          if (j >= hi || (i < mid && compare(tmp[i], tmp[j]) <= 0)) {
            a[k] = tmp[i++];
          } else {
            a[k] = tmp[j++];
          }
        }
      }
    }
  }

  /** {@link Labels#compareTo}: all names first (a shorter list first when one is a prefix), then all values. */
  private int compare(int p, int q) {
    int c = compare(labels[p], labels[q], 0);
    return c != 0 ? c : compare(labels[p], labels[q], 1);
  }

  private static int compare(String[] a, String[] b, int offset) {
    for (int i = offset; i < a.length; i += 2) {
      if (b.length <= i) {
        return 1;
      }
      int c = a[i].compareTo(b[i]);
      if (c != 0) {
        return c;
      }
    }
    return a.length < b.length ? -1 : 0;
  }

  /** The same families as client_java snapshots (the registry's path: filtered and debug scrapes, tests). */
  MetricSnapshots build() {
    MetricSnapshots.Builder out = MetricSnapshots.builder();
    for (int s = 0; s < slotCount; s++) {
      if (head[s] < 0) {
        continue;
      }
      Family f = families[s];
      switch (f.type()) {
        case GAUGE -> {
          GaugeSnapshot.Builder b = GaugeSnapshot.builder().name(f.name()).help(f.help());
          for (int p = head[s]; p >= 0; p = next[p]) {
            b.dataPoint(GaugeDataPointSnapshot.builder().value(values[p]).labels(Labels.of(labels[p])).build());
          }
          out.metricSnapshot(b.build());
        }
        case COUNTER -> {
          CounterSnapshot.Builder b = CounterSnapshot.builder().name(f.name()).help(f.help());
          for (int p = head[s]; p >= 0; p = next[p]) {
            b.dataPoint(CounterDataPointSnapshot.builder().value(values[p]).labels(Labels.of(labels[p])).build());
          }
          out.metricSnapshot(b.build());
        }
        case HISTOGRAM -> {
          HistogramSnapshot.Builder b = HistogramSnapshot.builder().name(f.name()).help(f.help());
          for (int p = head[s]; p >= 0; p = next[p]) {
            b.dataPoint(HistogramSnapshot.HistogramDataPointSnapshot.builder()
                .classicHistogramBuckets(ClassicHistogramBuckets.of(bounds[p], buckets[p]))
                .sum(values[p]).labels(Labels.of(labels[p])).build());
          }
          out.metricSnapshot(b.build());
        }
      }
    }
    return out.build();
  }
}
