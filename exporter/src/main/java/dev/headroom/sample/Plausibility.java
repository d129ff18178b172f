package dev.headroom.sample;

/**
 * How fast an interface could possibly count: a delta beyond this rate (over the interval plus one interval
 * of grace, see {@link InterfaceTracker}) is a lying or broken counter, not traffic. Tunnel bytes cross the
 * underlay NIC, so its line rate bounds both.
 *
 * <p>Usage: {@code double max = Plausibility.maxBytesPerSecond(sample.lineRateBytesPerSecond());}
 */
public final class Plausibility {
  /** Without a line rate: 800 Gbit/s, the fastest Ethernet port there is, in bytes per second. */
  public static final double UNKNOWN_LINE_RATE_MAX = 100e9;

  private Plausibility() {}

  /** The bound for a line rate in bytes per second (NaN or 0 when unknown). */
  public static double maxBytesPerSecond(double lineRateBytesPerSecond) {
    return lineRateBytesPerSecond > 0 ? lineRateBytesPerSecond : UNKNOWN_LINE_RATE_MAX;
  }
}
