package dev.headroom.sample;

import static dev.headroom.sample.InterfaceTracker.RX_BYTES;
import static dev.headroom.sample.InterfaceTracker.TX_BYTES;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.headroom.read.ReadException;
import dev.headroom.read.wg.NetbirdStatus;
import dev.headroom.read.wg.NetbirdStatusParser;
import dev.headroom.testing.FakeClock;
import dev.headroom.testing.NetbirdJson;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The status calls' cadence and outcomes, with NetBird's answers scripted and the call's thread held by the test
 * (so "still running" and "timed out" are states, not timings).
 */
class NetstackCollectorTest {
  private static final long S = 1_000_000_000L;
  private static final double LINE = 1.25e9;

  private final FakeClock clock = new FakeClock();
  /** NetBird's answers in order: a JSON document, or an error message prefixed "!". */
  private final Deque<String> answers = new ArrayDeque<>();
  private int calls;
  /** Calls handed to the executor and not yet run: the test runs them when it wants them answered. */
  private final Deque<Runnable> pending = new ArrayDeque<>();

  private final NetstackCollector c = new NetstackCollector(this::answer, pending::add, 5 * S, 0, 5 * S, clock);

  private NetbirdStatus answer() throws ReadException {
    calls++;
    String a = answers.removeFirst();
    if (a.startsWith("!")) {
      throw new ReadException(a.substring(1));
    }
    return NetbirdStatusParser.parse(a);
  }

  /** One sample at the clock's time, with the call that is due answered at once. */
  private NetstackState sample(boolean interfacePresent) {
    NetstackState s = c.collect(interfacePresent, clock.getAsLong(), LINE);
    if (pending.isEmpty()) {
      return s;
    }
    pending.removeFirst().run();
    return c.collect(interfacePresent, clock.getAsLong(), LINE);
  }

  /** Samples once a second for {@code seconds}. */
  private NetstackState run(int seconds) {
    NetstackState s = null;
    for (int i = 0; i < seconds; i++) {
      clock.advanceSeconds(1);
      s = sample(false);
    }
    return s;
  }

  @Test
  void netstackAsksEveryStatusIntervalAndHoldsTheRateBetweenAnswers() {
    answers.add(NetbirdJson.netstack(NetbirdJson.peer("A=", 1_000, 1_000_000), NetbirdJson.peer("B=", 0, 0)));
    answers.add(NetbirdJson.netstack(NetbirdJson.peer("A=", 6_000, 26_000_000), NetbirdJson.peer("B=", 500, 5_000_000)));
    NetstackState first = sample(false);
    assertTrue(first.netstack());
    assertEquals(1, calls);
    NetstackState between = run(4);
    assertEquals(1, calls); // not asked every second
    assertTrue(Double.isNaN(between.traffic().rate(TX_BYTES)), "one answer is a baseline: no rate until the next");
    NetstackState fifth = run(1);
    assertEquals(2, calls);
    assertEquals(30_000_000 / 5.0, fifth.traffic().rate(TX_BYTES), 1e-9);
    assertEquals(5_500 / 5.0, fifth.traffic().rate(RX_BYTES), 1e-9);
    assertEquals(5.0, fifth.resolutionSeconds());
    // The rate of the last two answers stands until the next: it is the measurement, at 5 s resolution.
    assertEquals(30_000_000 / 5.0, run(3).traffic().rate(TX_BYTES), 1e-9);
    assertEquals(new SourceHealth(true, 0, ""), fifth.health());
  }

  @Test
  void anErrorAnswerIsTheSourceDownCountedAndNoStaleRate() {
    answers.add(NetbirdJson.netstack(NetbirdJson.peer("A=", 0, 1_000_000)));
    answers.add(NetbirdJson.netstack(NetbirdJson.peer("A=", 0, 6_000_000)));
    answers.add("!netbird status --json exited 1: failed to connect to daemon");
    answers.add(NetbirdJson.netstack(NetbirdJson.peer("A=", 0, 16_000_000)));
    sample(false);
    assertEquals(1_000_000, run(5).traffic().rate(TX_BYTES), 1e-9);
    NetstackState failed = run(5);
    assertFalse(failed.health().up());
    assertEquals(1, failed.health().errors());
    assertTrue(failed.health().lastError().contains("failed to connect to daemon"), failed.health().lastError());
    assertTrue(Double.isNaN(failed.traffic().rate(TX_BYTES)), "the last rate is not repeated");
    assertTrue(Double.isNaN(run(4).traffic().rate(TX_BYTES)));
    assertTrue(failed.netstack(), "one failed call is not NetBird down");
    // The next good answer spans the gap: 10 MB over 10 s, nothing lost, nothing counted twice.
    NetstackState back = run(1);
    assertTrue(back.health().up());
    assertEquals(1, back.health().errors());
    assertEquals(1_000_000, back.traffic().rate(TX_BYTES), 1e-9);
    assertEquals(15_000_000, back.traffic().total(TX_BYTES));
  }

  @Test
  void aCallThatDoesNotReturnIsCountedOnceAsStalledWithTheRateUnknown() {
    answers.add(NetbirdJson.netstack(NetbirdJson.peer("A=", 0, 1_000_000)));
    answers.add(NetbirdJson.netstack(NetbirdJson.peer("A=", 0, 6_000_000)));
    sample(false);
    run(5);
    // The next call hangs: handed to the executor, never run (the CLI is killed at its timeout in the daemon).
    NetstackState s = null;
    for (int i = 0; i < 16; i++) {
      clock.advanceSeconds(1);
      s = c.collect(false, clock.getAsLong(), LINE);
    }
    assertEquals(1, pending.size()); // no second call piled on the hung one
    assertFalse(s.health().up());
    assertEquals(1, s.health().errors());
    assertTrue(s.health().lastError().contains("has not answered"), s.health().lastError());
    assertTrue(Double.isNaN(s.traffic().rate(TX_BYTES)));
    for (int i = 0; i < 10; i++) {
      clock.advanceSeconds(1);
      s = c.collect(false, clock.getAsLong(), LINE);
    }
    assertEquals(1, s.health().errors(), "a stall is counted once");
    assertFalse(s.netstack(), "NetBird not answering for longer than the hold is taken as down");
  }

  @Test
  void netbirdDownIsNotNetstackAndNetstackIsNotDown() {
    answers.add("!cannot run netbird: error=2, No such file or directory");
    NetstackState down = sample(false);
    assertFalse(down.netstack());
    assertFalse(down.health().up());
    answers.add(NetbirdJson.document("NeedsLogin", false, false, List.of()));
    NetstackState loggedOut = run(5);
    assertFalse(loggedOut.netstack(), "answering but not connected");
    assertTrue(loggedOut.health().up());
    answers.add(NetbirdJson.netstack(NetbirdJson.peer("A=", 0, 1_000)));
    assertTrue(run(5).netstack());
    // Connected again but with a kernel interface of another name: not netstack either.
    answers.add(NetbirdJson.document("Connected", true, true, List.of(NetbirdJson.peer("A=", 0, 2_000))));
    assertFalse(run(5).netstack());
  }

  @Test
  void withATunnelInterfaceNetbirdIsNotAskedAndAReturnToNetstackStartsFromABaseline() {
    NetstackState s = sample(true);
    assertFalse(s.netstack());
    assertNull(s.status());
    assertEquals(0, calls);
    answers.add(NetbirdJson.netstack(NetbirdJson.peer("A=", 0, 1_000)));
    answers.add(NetbirdJson.netstack(NetbirdJson.peer("A=", 0, 6_000)));
    sample(false);
    run(5);
    assertEquals(6_000 - 1_000, c.collect(false, clock.getAsLong(), LINE).traffic().total(TX_BYTES));
    clock.advanceSeconds(1);
    sample(true); // NetBird restarted with a TUN
    answers.add(NetbirdJson.netstack(NetbirdJson.peer("A=", 0, 900_000_000)));
    clock.advanceSeconds(1);
    NetstackState again = sample(false);
    assertTrue(again.netstack());
    assertTrue(Double.isNaN(again.traffic().rate(TX_BYTES)), "a baseline, not 900 MB in one interval");
    assertEquals(5_000, again.traffic().total(TX_BYTES));
  }

  @Test
  void oneCallOnTheShorterCadenceFeedsThePeerCountsAndTheNetstackBytes() {
    NetstackCollector both = new NetstackCollector(this::answer, pending::add, 5 * S, 30 * S, 5 * S, clock);
    answers.add(NetbirdJson.document("Connected", true, true, List.of(NetbirdJson.peer("A=", 0, 1_000))));
    answers.add(NetbirdJson.document("Connected", true, true, List.of(NetbirdJson.peer("A=", 0, 2_000))));
    answers.add(NetbirdJson.netstack(NetbirdJson.peer("A=", 0, 1_000), NetbirdJson.peer("B=", 0, 0)));
    answers.add(NetbirdJson.netstack(NetbirdJson.peer("A=", 0, 6_000), NetbirdJson.peer("B=", 0, 0)));
    // With an interface: asked every peers interval, for the peer counts only.
    for (int i = 0; i < 27; i++) { // "due" allows a tenth of the interval early: the next call at 27 s
      both.collect(true, clock.getAsLong(), LINE);
      while (!pending.isEmpty()) {
        pending.removeFirst().run();
      }
      assertFalse(both.collect(true, clock.getAsLong(), LINE).netstack());
      clock.advanceSeconds(1);
    }
    assertEquals(1, calls);
    assertEquals(1, both.lastStatus().transfers().size());
    both.collect(true, clock.getAsLong(), LINE);
    pending.removeFirst().run();
    assertEquals(2, calls);
    // The interface gone: asked at once, then every status interval; each answer is both the bytes and the counts.
    clock.advanceSeconds(1);
    both.collect(false, clock.getAsLong(), LINE);
    pending.removeFirst().run();
    assertTrue(both.collect(false, clock.getAsLong(), LINE).netstack());
    assertEquals(3, calls);
    assertEquals(2, both.lastStatus().transfers().size());
    NetstackState s = null;
    for (int i = 0; i < 5; i++) {
      clock.advanceSeconds(1);
      s = both.collect(false, clock.getAsLong(), LINE);
    }
    assertEquals(1, pending.size(), "asked again after the status interval, not the peers interval");
    pending.removeFirst().run();
    s = both.collect(false, clock.getAsLong(), LINE);
    assertEquals(4, calls);
    assertEquals(5_000 / 5.0, s.traffic().rate(TX_BYTES), 1e-9);
    assertEquals(5.0, s.resolutionSeconds());
    assertEquals(6_000, both.lastStatus().transfers().get(0).sentBytes());
  }
}
