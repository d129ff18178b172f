package dev.headroom.daemon;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

/** The sampler's planned starts, its lateness against them, and the starts it skips when the CPU is busy. */
class CadenceTest {
  private static final long MS = 1_000_000L;
  private static final long S = 1_000 * MS;

  @Test
  void onTimeSamplesFollowTheBaselineTheFirstRateAndThenTheInterval() {
    Cadence c = new Cadence(0, 250 * MS, S);
    assertEquals(0, c.begin(0));
    assertEquals(248 * MS, c.advance(2 * MS), "first rate a quarter second after the baseline");
    assertEquals(0, c.begin(250 * MS));
    assertEquals(1250 * MS - 253 * MS, c.advance(253 * MS), "then one interval from the plan, not from the end");
    assertEquals(0, c.skipped());
  }

  @Test
  void aLateStartIsMeasuredAgainstThePlanAndTheGridDoesNotDrift() {
    Cadence c = new Cadence(0, S, S);
    c.begin(0);
    c.advance(MS);
    assertEquals(80 * MS, c.begin(S + 80 * MS));
    assertEquals(S - 81 * MS, c.advance(S + 81 * MS), "the next start stays on the grid at 2 s");
    assertEquals(0, c.begin(2 * S));
  }

  @Test
  void aThreadThatWakesAfterSeveralPlannedStartsTakesTheLatestAndCountsTheRest() {
    Cadence c = new Cadence(0, S, S);
    c.begin(0);
    c.advance(MS);
    // The thread gets the CPU back only at 4.3 s: the starts planned for 1, 2 and 3 s were overtaken by 4 s.
    assertEquals(300 * MS, c.begin(4 * S + 300 * MS));
    assertEquals(3, c.skipped());
    assertEquals(S - 301 * MS, c.advance(4 * S + 301 * MS), "next at 5 s, not a burst of catch-up samples");
  }

  @Test
  void aStartLessThanOneIntervalLateRunsLateAndIsNotSkipped() {
    Cadence c = new Cadence(0, S, S);
    c.begin(0);
    c.advance(MS);
    assertEquals(900 * MS, c.begin(S + 900 * MS));
    assertEquals(0, c.skipped());
  }

  @Test
  void aSampleThatOutlastsAnIntervalSkipsTheStartsItOverran() {
    Cadence c = new Cadence(0, S, S);
    c.begin(0);
    c.advance(MS);
    c.begin(S);
    assertEquals(0, c.advance(3 * S + 500 * MS), "ended at 3.5 s: 2 s skipped, 3 s due now");
    assertEquals(1, c.skipped());
    assertEquals(500 * MS, c.begin(3 * S + 500 * MS));
  }

  @Test
  void aBaselineThatOutlastsTheFirstStepStillGivesTheFirstRateHalfAStep() {
    Cadence c = new Cadence(0, 100 * MS, S);
    c.begin(0);
    assertEquals(50 * MS, c.advance(180 * MS), "baseline ended at 180 ms: first rate at 230 ms, not at once");
    assertEquals(0, c.begin(230 * MS));
    assertEquals(1230 * MS - 240 * MS, c.advance(240 * MS), "then one interval from that start");
    assertEquals(0, c.skipped());
  }

  @Test
  void aNonPositiveIntervalIsRefused() {
    assertThrows(IllegalArgumentException.class, () -> new Cadence(0, 0, 0));
  }
}
