package dev.headroom.judge;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.headroom.sample.census.CensusConfig;
import dev.headroom.sample.census.CensusSnapshot;
import dev.headroom.sample.census.Talker;
import dev.headroom.sample.census.TunnelCensus;
import dev.headroom.read.ProcStatCpuSource;
import dev.headroom.sample.Direction;
import dev.headroom.sample.Sample;
import dev.headroom.sample.Sampler;
import dev.headroom.config.TestConfig;
import dev.headroom.testing.FakeClock;
import dev.headroom.testing.FixtureTree;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ObservationsTest {
  private static CensusSnapshot census(int active, Talker... talkers) {
    CensusSnapshot empty = new TunnelCensus(CensusConfig.defaults()).update(0, 0, List.of());
    return new CensusSnapshot(5, talkers.length, talkers.length, active, 0, 0, 0, empty.directions(),
        List.of(talkers), java.util.Map.of());
  }

  private static Talker talker(String endpoint, boolean active) {
    return new Talker("k", endpoint, 1e6, 1e5, 10, active, null, dev.headroom.read.wg.Connection.ofEndpoint(endpoint));
  }

  @ParameterizedTest
  @ValueSource(strings = {"10.0.3.7:51820", "172.20.1.1:51820", "192.168.1.9:1", "[fd00::17]:51820"})
  void datacenterAddressesArePrivate(String endpoint) {
    assertTrue(Observations.isPrivate(endpoint), endpoint);
  }

  @ParameterizedTest
  @ValueSource(strings = {"3.120.4.5:51820", "100.64.0.1:51820", "[2a05:d014::1]:51820", "face:51820", "", "nope"})
  void internetAddressesAndNamesAreNot(String endpoint) {
    assertFalse(Observations.isPrivate(endpoint), endpoint);
  }

  @Test
  void aJumboPathNeedsEveryActiveTunnelListedAndPrivate() {
    assertTrue(Observations.privateEndpointsOnly(census(2, talker("10.0.0.2:51820", true),
        talker("10.0.0.3:51820", true), talker("3.3.3.3:51820", false))), "an idle internet tunnel does not count");
    assertFalse(Observations.privateEndpointsOnly(census(2, talker("10.0.0.2:51820", true),
        talker("3.3.3.3:51820", true))), "one user across the internet");
    assertFalse(Observations.privateEndpointsOnly(census(3, talker("10.0.0.2:51820", true),
        talker("10.0.0.3:51820", true))), "an active tunnel the census did not list may be anywhere");
    assertFalse(Observations.privateEndpointsOnly(census(0)), "no active tunnel says nothing about the path");
    assertFalse(Observations.privateEndpointsOnly(null));
  }

  @Test
  void anUnreadableTunnelCounterIsAnUnknownRateNotAnIdleOne(@TempDir Path dir) {
    FixtureTree t = FixtureTree.copy("kernel", dir.resolve("tree"));
    FakeClock clock = new FakeClock();
    Sampler sampler = new Sampler(TestConfig.fixture(t.sys(), t.proc(), "--underlay.line-rate=10gbit",
        "--datapath.process=wireguard-go"),
        new ProcStatCpuSource(t.sys(), t.proc()), clock, () -> 0L, Runnable::run, null);
    sampler.sample();
    t.traffic("wt0", 100_000_000, 80_000, 10_000_000, 8_000);
    clock.advanceSeconds(1);
    Observation known = Observations.from(sampler.sample(), Double.NaN, false);
    assertEquals(1e8, known.throughput(Direction.DOWNLOAD), 1.0);

    t.write(t.netFile("wt0", "statistics/tx_bytes"), "garbage\n");
    clock.advanceSeconds(1);
    Sample s = sampler.sample();
    assertTrue(Double.isNaN(s.throughput(Direction.DOWNLOAD)), "the sampler does not know the rate");
    Observation o = Observations.from(s, Double.NaN, false);
    assertTrue(Double.isNaN(o.throughput(Direction.DOWNLOAD)), "and the judge is not told it was 0");
  }
}
