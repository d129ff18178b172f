package dev.headroom.judge;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class PlateauDetectorTest {
  private static final double GBPS = Units.BYTES_PER_GBPS;

  private static PlateauDetector steps(double... gbps) {
    PlateauDetector p = new PlateauDetector(0.05, 2);
    for (double g : gbps) {
      p.addStep(g * GBPS);
    }
    return p;
  }

  @Test
  void aFlatStepAfterTheFirstClientIsNotAPlateauWhenTheSecondClientRaisesThroughput() {
    PlateauDetector p = steps(2.0, 2.02);
    assertTrue(p.plateau().isEmpty(), "one flat step is not two");
    p.addStep(3.5 * GBPS);
    assertTrue(p.plateau().isEmpty(), "client 3 raised it: still rising");
    p.addStep(3.55 * GBPS);
    assertTrue(p.plateau().isEmpty(), "only one flat step since the last rise");
  }

  @Test
  void twoConsecutiveStepsEachRaisingLessThanFivePercentAreThePlateauAtTheMeanOfItsSteps() {
    PlateauDetector p = steps(2.0, 4.0, 6.0, 6.2, 6.1);
    PlateauDetector.Plateau x = p.plateau().orElseThrow();
    assertEquals(5, x.step());
    assertEquals(4, x.firstFlatStep());
    assertEquals((6.0 + 6.2 + 6.1) / 3, Units.gbps(x.bytesPerSecond()), 1e-9, "the step that set the level and the flat ones");
  }

  @Test
  void aStepJustOverFivePercentRestartsTheCount() {
    PlateauDetector p = steps(2.0, 2.08, 2.2, 2.3);
    // 2.08 is +4 % (flat), 2.2 is +5.8 % (a rise), 2.3 is +4.5 % (flat): one flat step since the rise.
    assertTrue(p.plateau().isEmpty());
    assertEquals(0.058, p.gain(3), 0.001);
    p.addStep(2.3 * GBPS);
    assertEquals(5, p.plateau().orElseThrow().step());
  }

  @Test
  void theFirstStepCanNeverPlateauEvenFlatOnesStartingFromIdle() {
    PlateauDetector p = steps(0, 0, 0);
    assertTrue(p.plateau().isEmpty(), "no load is not a plateau");
    p.addStep(1 * GBPS);
    assertTrue(p.plateau().isEmpty());
    assertTrue(Double.isNaN(p.gain(1)));
  }

  @Test
  void oneStepThatReadHighIsNotTheCeilingThePlateauHolds() {
    // As measured on the lab's one-core datapath: a noisy high step, then more clients at the sustained level.
    PlateauDetector p = steps(0.24, 0.25, 0.32, 0.27, 0.26);
    assertEquals(5, p.plateau().orElseThrow().step());
    assertEquals(0.85 / 3, Units.gbps(p.plateau().get().bytesPerSecond()), 1e-9);
    assertEquals(0.32, Units.gbps(p.best()), 1e-9, "the best step stays the lower bound shown without a plateau");
  }

  @Test
  void settingsAndLevelsAreChecked() {
    assertThrows(IllegalArgumentException.class, () -> new PlateauDetector(0, 2));
    assertThrows(IllegalArgumentException.class, () -> new PlateauDetector(0.05, 0));
    assertThrows(IllegalArgumentException.class, () -> new PlateauDetector(0.05, 2).addStep(Double.NaN));
    assertThrows(IllegalArgumentException.class, () -> new PlateauDetector(0.05, 2).addStep(-1));
  }
}
