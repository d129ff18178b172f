package dev.headroom.judge;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.headroom.cmd.ProfileCommand;
import org.junit.jupiter.api.Test;

class ArmCostTest {
  private static final double GBPS = Units.BYTES_PER_GBPS;

  @Test
  void cpuSecondsPerGbitAreCoresOverGbpsSplitByKind() {
    // 0.3 Gbps driven plus 0.01 of ACKs back: 0.31 Gbps moved; 0.62 cores user, 0.31 system, 0.155 softirq.
    ArmCost c = ArmCost.of(0.3 * GBPS, 0.31 * GBPS, (0.6 + 0.64) / 2, 0.31, 0.155);
    assertEquals(0.3 * GBPS, c.bytesPerSecond(), 1e-6);
    assertEquals(2.0, c.userSecondsPerGbit(), 1e-9);
    assertEquals(1.0, c.systemSecondsPerGbit(), 1e-9);
    assertEquals(0.5, c.softirqSecondsPerGbit(), 1e-9);
    assertEquals(3.5, c.secondsPerGbit(), 1e-9);
    assertEquals("0.3 Gbps, CPU 3.5 s/Gbit (user 2, system 1, softirq 0.5)", ProfileCommand.costText(c));
  }

  @Test
  void theTunnelRetainsItsRateOverTheUnderlays() {
    ArmCost tunnel = new ArmCost(0.25 * GBPS, 4, 2, 1);
    ArmCost underlay = new ArmCost(2.0 * GBPS, 0.3, 0.4, 0.2);
    assertEquals(0.125, tunnel.retained(underlay).getAsDouble(), 1e-12);
    assertTrue(tunnel.retained(new ArmCost(0, 0, 0, 0)).isEmpty(), "nothing moved without the tunnel: unknown");
  }

  @Test
  void nothingMovedIsAnUnknownCostNotAnInfiniteOne() {
    ArmCost c = ArmCost.of(0.0, 0.0, 0.1, 0.1, 0.0);
    assertTrue(Double.isNaN(c.userSecondsPerGbit()));
    assertEquals("0 Gbps, CPU ? s/Gbit (user ?, system ?, softirq ?)", ProfileCommand.costText(c));
  }
}
