package dev.headroom.daemon;

import dev.headroom.config.Config;
import dev.headroom.judge.CeilingLearner;
import dev.headroom.judge.CeilingSelector;
import dev.headroom.judge.Classifier;
import dev.headroom.judge.ConfigCeilings;
import dev.headroom.judge.Judgement;
import dev.headroom.judge.Observation;
import dev.headroom.judge.Observations;
import dev.headroom.judge.Thresholds;
import dev.headroom.read.CpuModel;
import dev.headroom.read.CpuSource;
import dev.headroom.read.wg.NetbirdMetricsReader;
import dev.headroom.read.wg.NetbirdStatusReader;
import dev.headroom.sample.NetstackCollector;
import dev.headroom.sample.Sample;
import dev.headroom.sample.Sampler;
import dev.headroom.serve.Published;
import dev.headroom.serve.RateLimitedLog;
import dev.headroom.serve.SamplerTiming;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The sampling loop: one thread reads, samples and publishes an immutable snapshot every interval.
 *
 * <p>Usage: {@code try (Daemon d = Daemon.start(config, System::nanoTime)) { Published p = d.published(); }}
 */
public final class Daemon implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(Daemon.class);
  /** A pass that fails fails again a second later: one line a minute, not one a sample. */
  private final RateLimitedLog failures = new RateLimitedLog(log, Duration.ofMinutes(1), System::nanoTime);

  private static final long FIRST_RATE_AFTER_NANOS = 100_000_000L;

  private final Sampler sampler;
  private final ExecutorService censusThread;
  /** NetBird's one status call and its answers; null with both when NetBird is never asked. */
  private final ExecutorService netbirdThread;
  private final NetstackCollector netbird;
  private final double flowCap;
  private final boolean jumboPath;
  private final Classifier classifier;
  private final ConfigCeilings configCeilings;
  /** The measured profile the ceilings are chosen from. */
  private final ProfileWatch profile;
  private final CeilingLearner learner;
  private final StateStore state;
  private final ScheduledExecutorService thread;
  private final Cadence cadence;
  private SamplerTiming timing = SamplerTiming.NONE;
  private long skippedSeen;
  private final AtomicReference<Published> published = new AtomicReference<>();
  private final List<Consumer<Published>> listeners = new CopyOnWriteArrayList<>();

  private Daemon(Config config, LongSupplier readingClock) {
    // The census reads every tunnel (seconds at worst, bounded by its reader's timeout) on a thread of its
    // own, so the sampling thread never waits on it; the sampler picks up its latest result.
    this.censusThread = Executors.newSingleThreadExecutor(daemonThread("headroom-census"));
    // NetBird's status call, one for the peer counts and the netstack datapath's bytes, on a thread of its own too:
    // it is a gRPC round trip and now and then a health probe, and must not delay a sample. Its timeout is the
    // shorter cadence it may run at.
    Duration peers = config.netbird().interval();
    Duration status = config.netbird().statusInterval();
    Duration timeout = status.isZero() || peers.compareTo(status) < 0 ? peers : status;
    this.netbirdThread = peers.isZero() ? null : Executors.newSingleThreadExecutor(daemonThread("headroom-netbird"));
    this.netbird = peers.isZero() ? null : new NetstackCollector(
        NetstackCollector.source(new NetbirdStatusReader(config.netbird().command(), timeout),
            config.netbird().metricsAddress().isEmpty() ? null : new NetbirdMetricsReader(
                NetbirdMetricsReader.uriForListenAddress(config.netbird().metricsAddress()), timeout)), netbirdThread,
        status.toNanos(), peers.toNanos(), timeout.toNanos(), System::nanoTime);
    this.sampler = new Sampler(config, CpuSource.forRoots(config.paths().sysfs(), config.paths().procfs()),
        readingClock, System::currentTimeMillis, censusThread, netbird);
    this.flowCap = config.ceilings().flowCap().orElse(Double.NaN);
    this.jumboPath = config.ceilings().jumboPath();
    Thresholds thresholds = Thresholds.defaults().withCpuSaturation(config.ceilings().cpuSaturation());
    this.configCeilings = new ConfigCeilings(config.ceilings().download(), config.ceilings().upload());
    this.profile = new ProfileWatch(config.ceilings().profileFile(), System.nanoTime());
    this.classifier = new Classifier(thresholds);
    this.state = new StateStore(config.paths().stateDir());
    this.learner = new CeilingLearner(config.ceilings().learnAfter(), config.ceilings().costAfter(), thresholds,
        CpuModel.read(config.paths().procfs()), state.load());
    this.cadence = new Cadence(System.nanoTime(), FIRST_RATE_AFTER_NANOS, config.sampling().interval().toNanos());
    this.thread = Executors.newSingleThreadScheduledExecutor(daemonThread("headroom-sampler"));
  }

  private static ThreadFactory daemonThread(String name) {
    return r -> {
      Thread t = new Thread(r, name);
      t.setDaemon(true);
      return t;
    };
  }

  /**
   * Takes the first sample at once (the baseline), the second soon after, then one per interval. NetBird's status,
   * when asked for, is read on another thread: the CLI can take seconds to answer, which the sampler must not wait
   * on. {@code readingClock} stamps each reading of the counters: {@code System::nanoTime}, or for a tree of
   * counters replayed at the time they stand for (a fixture peer) its own, which brings its files up to that time
   * before it answers.
   */
  public static Daemon start(Config config, LongSupplier readingClock) {
    Daemon d = new Daemon(config, readingClock);
    // The baseline at once and the first rate a tenth of a second later, so a new daemon is ready (has rates)
    // as soon as its server is (docs/benchmarks.md, "Settings that stay"); byte rates divide by the measured
    // interval, and CPU ticks of 10 ms give that first rate's per-core busy to a tenth, replaced a second
    // later. From then on one sample per interval (see Cadence).
    d.thread.execute(d::tick);
    return d;
  }

  private void tick() {
    long late = cadence.begin(System.nanoTime());
    try {
      long skipped = cadence.skipped();
      timing = timing.observe(late / 1e9, skipped - skippedSeen);
      skippedSeen = skipped;
      Sample s = sampler.sample();
      profile.check(s.monotonicNanos());
      Observation o = Observations.from(s, flowCap, jumboPath);
      CeilingLearner.Known known = learner.known(o);
      Judgement j = classifier.observe(o,
          CeilingSelector.selectBoth(o, profile.current(), configCeilings, known.observed(), known.cost()));
      learn(known, j, s);
      Published p = new Published(s, j, netbird == null ? null : netbird.lastStatus(), timing,
          learner.snapshot(known, state.health()));
      published.set(p);
      for (Consumer<Published> l : listeners) {
        l.accept(p);
      }
    } catch (RuntimeException | Error e) {
      // A bug in one pass must not end sampling; readiness turns false if it keeps happening.
      failures.error(e.getClass().getName(), "sampling pass failed", e);
    } finally {
      try {
        thread.schedule(this::tick, cadence.advance(System.nanoTime()), TimeUnit.NANOSECONDS);
      } catch (RejectedExecutionException closed) {
        // close() ran: no more samples
      }
    }
  }

  /** Feeds the learner, logs what it reports and saves its state when it asks. */
  private void learn(CeilingLearner.Known known, Judgement j, Sample s) {
    CeilingLearner.Update u = learner.update(known, j, s.monotonicNanos(), Instant.ofEpochMilli(s.wallMillis()));
    LearnerLog.log(u);
    if (u.save()) {
      state.save(learner.contents());
    }
  }

  /**
   * Runs {@code listener} on the sampling thread after each publish, for state that follows samples (the
   * live page's history); it must be quick and must not block.
   */
  public void addListener(Consumer<Published> listener) {
    listeners.add(listener);
  }

  /** The latest snapshot, or null before the first sample. */
  public Published published() {
    return published.get();
  }

  @Override
  public void close() {
    thread.shutdownNow();
    try {
      // The sampling thread is the only writer: wait for its pass to end before saving what it left.
      if (thread.awaitTermination(2, TimeUnit.SECONDS) && learner.unsaved()) {
        state.save(learner.contents());
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    censusThread.shutdownNow();
    if (netbirdThread != null) {
      netbirdThread.shutdownNow();
    }
  }
}
