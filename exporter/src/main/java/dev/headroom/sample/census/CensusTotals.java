package dev.headroom.sample.census;

import dev.headroom.sample.Direction;

/**
 * Cumulative per-tunnel rate observations: every census adds each active tunnel's rate to a classic
 * histogram, so {@code rate(_count)} is the mean number of active tunnels per census and
 * {@code rate(_sum) / rate(_count)} the mean rate per active user. Immutable snapshots via {@link #copy()}.
 *
 * <p>Usage: {@code totals.add(snapshot); double sum = totals.sum(Direction.DOWNLOAD);}
 */
public final class CensusTotals {
  private final long[][] buckets = new long[2][RateHistogram.UPPER_BOUNDS.length + 1];
  private final double[] sums = new double[2];

  public void add(CensusSnapshot s) {
    if (!s.hasRates()) {
      return;
    }
    for (Direction d : Direction.values()) {
      RateHistogram h = s.direction(d).histogram();
      int i = d.ordinal();
      for (int b = 0; b < h.bucketCount(); b++) {
        buckets[i][b] += h.countInBucket(b);
      }
      sums[i] += h.sum();
    }
  }

  /** Observations per bucket (not cumulative), the last bucket being +Inf. */
  public long[] perBucket(Direction d) {
    return buckets[d.ordinal()].clone();
  }

  public double sum(Direction d) {
    return sums[d.ordinal()];
  }

  public CensusTotals copy() {
    CensusTotals c = new CensusTotals();
    for (int i = 0; i < 2; i++) {
      System.arraycopy(buckets[i], 0, c.buckets[i], 0, buckets[i].length);
      c.sums[i] = sums[i];
    }
    return c;
  }
}
