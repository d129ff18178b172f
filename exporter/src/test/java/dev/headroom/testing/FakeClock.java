package dev.headroom.testing;

import java.util.function.LongSupplier;

/**
 * A monotonic clock a test moves by hand, so rates are exact.
 *
 * <p>Usage: {@code FakeClock c = new FakeClock(); c.advanceSeconds(1);}
 */
public final class FakeClock implements LongSupplier {
  private long nanos = 1_000_000_000L;

  @Override
  public long getAsLong() {
    return nanos;
  }

  public void advanceSeconds(double s) {
    nanos += (long) (s * 1e9);
  }
}
