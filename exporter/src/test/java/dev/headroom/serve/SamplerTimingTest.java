package dev.headroom.serve;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** Sampler lateness lands in the bucket of its upper bound and accumulates immutably. */
class SamplerTimingTest {
  @Test
  void eachLatenessCountsInTheFirstBucketWhoseBoundItDoesNotExceed() {
    SamplerTiming t = SamplerTiming.NONE.observe(0.0, 0).observe(0.001, 0).observe(0.08, 0).observe(0.1, 2)
        .observe(3.0, 1);
    assertArrayEquals(new long[] {2, 0, 0, 0, 0, 2, 0, 0, 0, 1}, t.perBucket());
    assertEquals(5, Arrays.stream(t.perBucket()).sum());
    assertEquals(3.181, t.lateSecondsSum(), 1e-9);
    assertEquals(3, t.skipped());
    assertEquals(0, Arrays.stream(SamplerTiming.NONE.perBucket()).sum(), "observing returns a new timing; the old one is unchanged");
  }

}
