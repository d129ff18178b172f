package dev.headroom.sample;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class CpuPerGigabyteTest {
  @Test
  void cpuSecondsOverGigabytesMovedSplitByKind() {
    // 0.85 s user, 0.2 s system, 0.5 s softirq while 2 GB moved.
    CpuPerGigabyte c = CpuPerGigabyte.of(0.85, 0.2, 0.5, 2e9);
    assertEquals(0.425, c.user(), 1e-12);
    assertEquals(0.1, c.system(), 1e-12);
    assertEquals(0.25, c.softirq(), 1e-12);
  }

  @Test
  void oneSecondsMeanCoresOverBytesPerSecondIsTheSameCost() {
    // 0.62 cores at 0.31 Gbps (38.75 MB/s): 16 s per gigabyte, 2 s per gigabit.
    CpuPerGigabyte c = CpuPerGigabyte.of(0.62, 0, 0, 0.31e9 / 8);
    assertEquals(16.0, c.user(), 1e-9);
    assertEquals(2.0, c.perGigabit().user(), 1e-9);
    assertEquals(0.0, c.perGigabit().system(), 0);
  }

  @Test
  void nothingMovedOrUnknownCpuIsNaNNeverInfinite() {
    CpuPerGigabyte idle = CpuPerGigabyte.of(0.1, 0.1, 0, 0);
    assertTrue(Double.isNaN(idle.user()) && Double.isNaN(idle.system()) && Double.isNaN(idle.softirq()));
    CpuPerGigabyte unknown = CpuPerGigabyte.of(Double.NaN, 0.2, 0.5, 1e9);
    assertTrue(Double.isNaN(unknown.user()));
    assertEquals(0.2, unknown.system(), 1e-12);
  }
}
