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

  public long total(int field) {
    return totals[field];
  }

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
