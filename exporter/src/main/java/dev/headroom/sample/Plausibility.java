package dev.headroom.sample;

/**
 * How fast an interface could possibly count: a delta beyond this is a lying or broken counter, not
 * traffic. Tunnel bytes cross the underlay NIC, so its line rate bounds both.
 *
 * <p>Usage: {@code double max = Plausibility.maxBytesPerSecond(sample.lineRateBytesPerSecond());}
 */
public final class Plausibility {
  /**
   * Twice the line rate: drivers that refresh their statistics on a timer can hand two intervals' worth
   * of bytes to one read, and the sampling interval itself jitters.
   */
  public static final double LINE_RATE_SLACK = 2;
  /** Without a line rate: 800 Gbit/s, the fastest Ethernet port there is, in bytes per second. */
  public static final double UNKNOWN_LINE_RATE_MAX = 100e9;

  private Plausibility() {}

  /** The bound for a line rate in bytes per second (NaN or 0 when unknown). */
  public static double maxBytesPerSecond(double lineRateBytesPerSecond) {
    return lineRateBytesPerSecond > 0 ? LINE_RATE_SLACK * lineRateBytesPerSecond : UNKNOWN_LINE_RATE_MAX;
  }
}
