package dev.headroom.sample;

import dev.headroom.config.Config;
import dev.headroom.config.TestConfig;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.awaitility.Awaitility.await;

import dev.headroom.read.Datapath;
import dev.headroom.read.wg.TunnelPeer;
import dev.headroom.sample.census.CensusSnapshot;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class CensusCollectorTest {
  private static final long S = 1_000_000_000L;
  private static final long TIMEOUT = 2 * S;
  private final ExecutorService censusThread = Executors.newSingleThreadExecutor();

  @AfterEach
  void stop() {
    censusThread.shutdownNow();
  }

  private static Config settings() {
    return TestConfig.fixture(Path.of("/nonexistent/sys"), Path.of("/nonexistent/proc"), "--census.interval=1s",
        "--sample.peak-window=5m", "--path.rundir=/nonexistent/run");
  }

  private static List<TunnelPeer> onePeer(long tx) {
    return List.of(new TunnelPeer("ab".repeat(32), tx / 10, tx, 1_764_460_790L, "10.0.0.2:51820", 1));
  }

  @Test
  void aCensusThatNeverReturnsIsCountedOnceAsStalledWhileCollectKeepsAnswering() throws Exception {
    CountDownLatch release = new CountDownLatch(1);
    AtomicInteger reads = new AtomicInteger();
    CensusCollector c = new CensusCollector(settings(), (dp, iface) -> {
      if (reads.incrementAndGet() == 2) {
        try {
          release.await(); // the second census hangs, as a wedged datapath would hold it
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }
      return onePeer(1_000_000L * reads.get());
    }, censusThread, TIMEOUT, System::nanoTime);

    c.collect(Datapath.USERSPACE, 0, 0, false, null);
    idle(); // the first census has returned, and let go of the census thread: the next one is due at 1 s
    // One sample a second for a minute of the sampling thread's clock: every call returns, none waits.
    CensusState s = null;
    for (int i = 1; i <= 60; i++) {
      s = c.collect(Datapath.USERSPACE, i * S, i * 1000L, false, null);
      if (i >= 4) {
        assertFalse(s.health().up(), "stalled at " + i + " s: " + s.health());
        assertEquals(1, s.health().errors(), "a stall counts once, however long it lasts");
        assertTrue(s.health().lastError().contains("has not returned"), s.health().lastError());
      }
    }
    assertNotNull(s.snapshot(), "the last finished census stays published while one hangs");
    // The hanging census was handed over at 1 s; its thread may start it only now, on a loaded host.
    await().atMost(Duration.ofSeconds(10)).until(() -> reads.get() >= 2);
    assertEquals(2, reads.get(), "no second census starts while one hangs");

    release.countDown();
    idle();
    assertTrue(c.collect(Datapath.USERSPACE, 61 * S, 0, false, null).health().up(), "up once the census returned");
    idle();
    assertEquals(3, reads.get(), "the census after it was taken");
    CensusState after = c.collect(Datapath.USERSPACE, 63 * S, 0, false, null);
    assertTrue(after.health().up());
    assertEquals(1, after.health().errors(), "the stall stays counted after the census returns");
  }

  /**
   * Waits until every census handed to the census thread has finished, its {@code finally} included: the thread
   * runs one task at a time, so an empty task behind them returns only then. Waiting for the census's result
   * instead would race the moment the collector learns the census is no longer running.
   */
  private void idle() throws Exception {
    censusThread.submit(() -> {}).get(10, TimeUnit.SECONDS);
  }

  @Test
  void onTheCallersThreadTheCensusOfThisSampleIsReturned() {
    AtomicInteger reads = new AtomicInteger();
    CensusCollector c = new CensusCollector(settings(), (dp, iface) -> onePeer(reads.incrementAndGet() * 1_000_000L),
        Runnable::run, TIMEOUT, System::nanoTime);
    assertEquals(1, c.collect(Datapath.USERSPACE, 0, 0, false, null).snapshot().tunnels());
    assertEquals(1, c.collect(Datapath.USERSPACE, 1 * S, 1000, false, null).snapshot().tunnels());
    assertEquals(2, reads.get());
    assertTrue(c.collect(Datapath.USERSPACE, 1 * S + 1, 1000, true, null).snapshot().hasRates(), "a tunnel restart takes a census at once");
    assertEquals(3, reads.get());
  }

  @Test
  void aCensusReadThatStartsLateCountsTheRateOfItsOwnInterval() {
    // One tunnel downloading 10 MB/s. Each read reaches the counters some time after the sample that asked for
    // it began, 0.1 s then 0.9 s then 0.1 s ..., as a census thread and a wg that start late on a busy peer do.
    double rate = 10e6;
    long[] delays = {S / 10, 9 * S / 10};
    AtomicLong sampleAt = new AtomicLong();
    AtomicLong clock = new AtomicLong();
    AtomicInteger reads = new AtomicInteger();
    CensusCollector c = new CensusCollector(settings(), (dp, iface) -> {
      clock.set(sampleAt.get() + delays[reads.getAndIncrement() % 2]);
      return onePeer((long) (rate * clock.get() / 1e9));
    }, Runnable::run, TIMEOUT, clock::get);

    for (int i = 0; i < 6; i++) {
      sampleAt.set(i * 2 * S);
      CensusSnapshot s = c.collect(Datapath.USERSPACE, i * 2 * S, i * 2000L, false, null).snapshot();
      if (i > 0) {
        // Stamped with the sample's start, these read 1.4x and 0.6x the rate in turn.
        assertEquals(rate, s.directions().download().hottestBytesPerSecond(), rate * 1e-9, "census " + i);
      }
    }
    assertEquals(6, reads.get());
  }

  @Test
  void aSlowCensusIsNotTakenTwiceAtOnce() throws Exception {
    CountDownLatch release = new CountDownLatch(1);
    AtomicInteger reads = new AtomicInteger();
    CensusCollector c = new CensusCollector(settings(), (dp, iface) -> {
      reads.incrementAndGet();
      try {
        release.await(10, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      return onePeer(1);
    }, censusThread, TIMEOUT, System::nanoTime);
    for (int i = 0; i < 3; i++) {
      c.collect(Datapath.USERSPACE, i * S, 0, false, null);
    }
    release.countDown();
    await().atMost(Duration.ofSeconds(10)).until(() -> c.collect(Datapath.USERSPACE, 3 * S, 0, false, null).snapshot() != null);
    assertTrue(reads.get() <= 2, "reads: " + reads.get());
  }
}
