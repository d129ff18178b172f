package dev.headroom.daemon;

/**
 * When the sampler should run next: a fixed grid of planned starts (the baseline, the first rate soon after
 * and never sooner than half that step after the baseline ends, then one per interval), how late each actual
 * start is, and which planned starts to skip. When the thread gets the CPU only after more than one planned
 * start has passed, the latest one runs and the older ones are skipped and counted, rather than run back to
 * back as a fixed-rate executor would (a burst of near-empty intervals). Pure arithmetic on nanosecond
 * readings, so tests drive it without a clock.
 *
 * <p>Usage: {@code Cadence c = new Cadence(now, 100_000_000L, 1_000_000_000L); long late = c.begin(now); long delay = c.advance(now);}
 */
final class Cadence {
  private final long firstStep;
  private final long interval;
  private long planned;
  private boolean first = true;
  private long skipped;

  Cadence(long startNanos, long firstStepNanos, long intervalNanos) {
    if (intervalNanos <= 0) {
      throw new IllegalArgumentException("interval must be positive, got " + intervalNanos + " ns");
    }
    this.planned = startNanos;
    this.firstStep = Math.min(firstStepNanos, intervalNanos);
    this.interval = intervalNanos;
  }

  /**
   * A sample starts at {@code nowNanos}: it takes the latest planned start that has come (older ones it
   * overtook are skipped) and returns how late it is against that plan (never negative).
   */
  long begin(long nowNanos) {
    catchUp(nowNanos);
    return Math.max(0, nowNanos - planned);
  }

  /**
   * Moves to the next planned start after a sample ended at {@code nowNanos}, skipping every planned start
   * that a later one has already overtaken; returns the delay until it (0 when it is due now).
   */
  long advance(long nowNanos) {
    if (first) {
      // A baseline that outlasted the first step would have the first rate taken at once, over a few
      // milliseconds: CPU ticks (10 ms each) make that a 0 % or 100 % core. It gets half the step at least.
      planned = Math.max(planned + firstStep, nowNanos + firstStep / 2);
      first = false;
      return planned - nowNanos;
    }
    planned += interval;
    catchUp(nowNanos);
    return Math.max(0, planned - nowNanos);
  }

  private void catchUp(long nowNanos) {
    if (nowNanos - planned >= interval) {
      long missed = (nowNanos - planned) / interval;
      planned += missed * interval;
      skipped += missed;
    }
  }

  long skipped() {
    return skipped;
  }
}
