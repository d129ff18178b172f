package dev.headroom.serve;

/**
 * How punctual the sampler is: a histogram of its lateness (actual start of a sample minus its planned start)
 * and the planned samples it skipped because a later one was already due. Immutable; the sampling thread
 * publishes a new one with every sample. Rates stay exact when a sample is late or skipped (they divide by
 * the measured interval); this shows an operator that the peer is too busy to be sampled on time.
 *
 * <p>Usage: {@code SamplerTiming t = SamplerTiming.NONE.observe(0.004, 0); t.perBucket();}
 */
public record SamplerTiming(long[] perBucket, double lateSecondsSum, long skipped) {
  /** Upper bounds of the lateness buckets in seconds, ending in +Inf. */
  private static final double[] BOUNDS = {0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, Double.POSITIVE_INFINITY};

  /** No sample taken yet. */
  public static final SamplerTiming NONE = new SamplerTiming(new long[BOUNDS.length], 0, 0);

  public static double[] upperBounds() {
    return BOUNDS.clone();
  }

  /** This timing plus one sample that started {@code lateSeconds} after its plan, with {@code skippedBefore} skipped. */
  public SamplerTiming observe(double lateSeconds, long skippedBefore) {
    long[] b = perBucket.clone();
    int i = 0;
    while (lateSeconds > BOUNDS[i]) { // never past +Inf
      i++;
    }
    b[i]++;
    return new SamplerTiming(b, lateSecondsSum + lateSeconds, skipped + skippedBefore);
  }

  @Override
  public long[] perBucket() {
    return perBucket.clone();
  }
}
