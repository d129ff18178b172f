package dev.headroom.sample;

/**
 * An interface's running totals and last-interval rates, indexed by the {@link InterfaceTracker} field
 * constants. Immutable: arrays are private copies.
 *
 * <p>Usage: {@code double upload = traffic.rate(InterfaceTracker.RX_BYTES);}
 */
public final class Traffic {
  public static final Traffic NONE = new Traffic(new long[8], new double[8], 0, 0, 0, 0);

  private final long[] totals;
  private final double[] rates;
  private final long restarts;
  private final long tooFast;
  private final long wentBack;
  private final double intervalSeconds;

  Traffic(long[] totals, double[] rates, long restarts, long tooFast, long wentBack, double intervalSeconds) {
    this.totals = totals;
    this.rates = rates;
    this.restarts = restarts;
    this.tooFast = tooFast;
    this.wentBack = wentBack;
    this.intervalSeconds = intervalSeconds;
  }

  /**
   * The rates of {@code active} with the totals and counts of both: one tunnel read two ways (its interface, or
   * NetBird's per-peer counters in netstack mode), each adding only while it is the one in use, so the sum stays
   * monotonic when the datapath changes and a counter's consumer sees no reset and no jump.
   */
  static Traffic combined(Traffic active, Traffic other) {
    long[] t = active.totals.clone();
    for (int i = 0; i < t.length; i++) {
      t[i] += other.totals[i];
    }
    return new Traffic(t, active.rates, active.restarts + other.restarts, active.tooFast + other.tooFast,
        active.wentBack + other.wentBack, active.intervalSeconds);
  }

  /** Nothing was ever counted: no total, no restart, no dropped delta. */
  boolean empty() {
    for (long v : totals) {
      if (v != 0) {
        return false;
      }
    }
    return restarts == 0 && tooFast == 0 && wentBack == 0;
  }

  public long total(int field) {
    return totals[field];
  }

  /** Per-second rate of a field over the last interval; NaN when unknown (unreadable, or dropped as implausible). */
  public double rate(int field) {
    return rates[field];
  }

  public long restarts() {
    return restarts;
  }

  /** Counter deltas dropped because they were faster than the interface could carry. */
  public long tooFast() {
    return tooFast;
  }

  /** Error or drop counters that stepped back while the byte and packet counters did not. */
  public long wentBack() {
    return wentBack;
  }

  public double intervalSeconds() {
    return intervalSeconds;
  }

  /** Bytes per packet in the interval, 0 when no packet moved, NaN when either rate is unknown. */
  public double meanPacketSize(int bytesField, int packetsField) {
    double p = rates[packetsField];
    if (Double.isNaN(p) || Double.isNaN(rates[bytesField])) {
      return Double.NaN;
    }
    return p > 0 ? rates[bytesField] / p : 0;
  }
}
