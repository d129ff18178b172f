package dev.headroom.sample.census;

import java.util.Arrays;

/**
 * How many tunnels moved how fast in one direction during one sample interval, in fixed log-spaced
 * buckets (1-2.5-5 per decade, 1 kB/s to 1 GB/s), suitable for a Prometheus histogram: bucket bounds
 * never change, so series never churn. Counts here are per bucket, not cumulative.
 *
 * <p>Usage: {@code for (int i = 0; i < h.bucketCount(); i++) totals[i] += h.countInBucket(i);}
 */
public final class RateHistogram {

  /** Upper bounds in bytes per second; a last implicit +Inf bucket follows. 5 Mbit/s = 625 kB/s. */
  static final double[] UPPER_BOUNDS = {
      1e3, 2.5e3, 5e3,
      1e4, 2.5e4, 5e4,
      1e5, 2.5e5, 5e5,
      1e6, 2.5e6, 5e6,
      1e7, 2.5e7, 5e7,
      1e8, 2.5e8, 5e8,
      1e9,
  };

  private final long[] counts;
  private final double sum;

  RateHistogram(long[] counts, double sum) {
    this.counts = counts.clone();
    this.sum = sum;
  }

  /** The bucket a rate falls in: the first bound {@code >=} the rate (Prometheus {@code le}). */
  static int bucketOf(double bytesPerSecond) {
    int i = Arrays.binarySearch(UPPER_BOUNDS, bytesPerSecond);
    return i >= 0 ? i : -i - 1;
  }

  /** The fixed upper bounds, bytes per second, without +Inf. */
  public static double[] upperBounds() {
    return UPPER_BOUNDS.clone();
  }

  /** Number of buckets including the +Inf one. */
  public int bucketCount() {
    return counts.length;
  }

  /** Tunnels in bucket {@code i} alone. */
  public long countInBucket(int i) {
    return counts[i];
  }

  /** Sum of the observed rates, bytes per second. */
  public double sum() {
    return sum;
  }

  @Override
  public String toString() {
    return "RateHistogram{sum=" + sum + ", buckets=" + Arrays.toString(counts) + "}";
  }
}
