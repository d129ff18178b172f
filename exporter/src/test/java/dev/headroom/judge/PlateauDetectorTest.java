package dev.headroom.judge;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.List;
import org.junit.jupiter.api.Test;

class PlateauDetectorTest {
  private static final double GBPS = Units.BYTES_PER_GBPS;

  private static PlateauDetector replay(String trace, double untilSeconds) throws IOException {
    PlateauDetector p = PlateauDetector.defaults();
    for (double[] row : Traces.read(trace)) {
      if (row[0] <= untilSeconds) {
        p.add(row[0], row[1]);
      }
    }
    return p;
  }

  @Test
  void aRisingThenFlatTracePlateausAtTheFlatLevelAfterItFlattens() throws IOException {
    assertTrue(replay("rising_then_flat.csv", 60).plateau().isEmpty(), "no plateau while it still climbs");
    PlateauDetector p = replay("rising_then_flat.csv", 120);
    assertTrue(p.plateau().isPresent());
    assertEquals(6.8, Units.gbps(p.plateau().get().bytesPerSecond()), 0.2);
    double since = p.plateau().get().sinceSeconds();
    // Found within two windows (20 s) of the climb ending at 60 s; "since" is where the compared windows start.
    assertTrue(since >= 40 && since <= 70, "plateau found soon after the climb ends, since " + since);
  }

  @Test
  void aNoisyFlatTracePlateausAtItsMean() throws IOException {
    PlateauDetector p = replay("noisy_flat.csv", 120);
    assertTrue(p.plateau().isPresent());
    assertEquals(2.3, Units.gbps(p.plateau().get().bytesPerSecond()), 0.1);
    assertTrue(p.peak() > 2.4 * GBPS, "the noise reaches above the plateau");
  }

  @Test
  void aTraceThatKeepsRisingHasNoPlateau() throws IOException {
    PlateauDetector p = replay("never_flat.csv", 120);
    assertTrue(p.plateau().isEmpty());
    assertTrue(Units.gbps(p.bestWindowMean()) > 5.5, "the best window is a lower bound near the end");
  }

  @Test
  void aPlateauSurvivesTheLoadStoppingButNotAFurtherClimb() {
    PlateauDetector p = PlateauDetector.defaults();
    int t = 0;
    for (; t < 30; t++) {
      p.add(t, 3 * GBPS);
    }
    assertEquals(3 * GBPS, p.plateau().orElseThrow().bytesPerSecond(), 1);
    for (; t < 45; t++) {
      p.add(t, 6 * GBPS); // more streams found more capacity: 3 Gbps was too little load
    }
    assertTrue(p.plateau().isEmpty() || p.plateau().get().bytesPerSecond() > 5 * GBPS);
    for (; t < 75; t++) {
      p.add(t, 6 * GBPS);
    }
    assertEquals(6 * GBPS, p.plateau().orElseThrow().bytesPerSecond(), 1);
    for (; t < 100; t++) {
      p.add(t, 0); // the load generator finished
    }
    assertEquals(6 * GBPS, p.plateau().orElseThrow().bytesPerSecond(), 1);
  }

  @Test
  void anIdleTraceIsNotAPlateau() {
    PlateauDetector p = PlateauDetector.defaults();
    for (int t = 0; t < 60; t++) {
      p.add(t, 0);
    }
    assertTrue(p.plateau().isEmpty());
  }

  @Test
  void timeMustMoveForward() {
    PlateauDetector p = PlateauDetector.defaults();
    p.add(5, 1);
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> p.add(5, 1));
    assertTrue(e.getMessage().contains("increase"));
    assertThrows(IllegalArgumentException.class, () -> p.add(6, -1));
  }

  @Test
  void theTracesAreTheDocumentedShapes() throws IOException {
    List<double[]> rows = Traces.read("rising_then_flat.csv");
    assertEquals(120, rows.size());
    assertTrue(rows.get(0)[1] < GBPS && rows.get(119)[1] > 6 * GBPS);
  }
}
