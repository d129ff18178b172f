package dev.headroom.judge;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.headroom.sample.census.CensusSnapshot;
import dev.headroom.sample.census.Talker;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ObservationsTest {
  private static CensusSnapshot census(int active, Talker... talkers) {
    CensusSnapshot empty = CensusSnapshot.empty(0);
    return new CensusSnapshot(0, 5, talkers.length, talkers.length, active, 0, 0, 0, empty.download(), empty.upload(),
        List.of(talkers));
  }

  private static Talker talker(String endpoint, boolean active) {
    return new Talker("k", endpoint, 1e6, 1e5, 10, active);
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
}
