package dev.headroom.sample;

import java.util.concurrent.atomic.AtomicLong;

/**
 * The highest rate since the last scrape took it. The sampler offers every rate; a scrape takes the peak
 * and starts a new period. With two Prometheus servers scraping, each sees the peak since either's scrape.
 *
 * <p>Usage: {@code peak.offer(bps); double sinceLastScrape = peak.take();}
 */
public final class ScrapePeak {
  private final AtomicLong bits = new AtomicLong(Double.doubleToRawLongBits(0));
  private volatile double last;

  /** An unknown rate (NaN) is no peak: it is skipped, and the next period starts from zero. */
  public void offer(double rate) {
    if (Double.isNaN(rate)) {
      last = 0;
      return;
    }
    bits.accumulateAndGet(
        Double.doubleToRawLongBits(rate),
        (a, b) -> Double.longBitsToDouble(b) > Double.longBitsToDouble(a) ? b : a);
    last = rate;
  }

  /** Returns the peak since the previous take; the new period starts at the latest rate. */
  public double take() {
    return Double.longBitsToDouble(bits.getAndSet(Double.doubleToRawLongBits(last)));
  }
}
