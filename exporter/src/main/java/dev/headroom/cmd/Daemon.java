package dev.headroom.cmd;

import dev.headroom.config.Config;
import dev.headroom.read.CpuSource;
import dev.headroom.sample.Direction;
import dev.headroom.sample.Sample;
import dev.headroom.sample.Sampler;
import dev.headroom.serve.Published;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The sampling loop: one thread reads, samples and publishes an immutable snapshot every interval.
 *
 * <p>Usage: {@code try (Daemon d = Daemon.start(config)) { Published p = d.published(); }}
 */
public final class Daemon implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(Daemon.class);

  private final Sampler sampler;
  private final ScheduledExecutorService thread;
  private final AtomicReference<Published> published = new AtomicReference<>();
  private final Published.ScrapePeaks peaks;
  private final java.util.List<java.util.function.Consumer<Published>> listeners =
      new java.util.concurrent.CopyOnWriteArrayList<>();

  private Daemon(Config config) {
    this.sampler = new Sampler(
        config.samplerSettings(), CpuSource.forRoots(config.sysfs(), config.procfs()), System::nanoTime);
    this.peaks = new Published.ScrapePeaks(sampler.scrapePeak(Direction.DOWNLOAD), sampler.scrapePeak(Direction.UPLOAD));
    this.thread = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, "headroom-sampler");
      t.setDaemon(true);
      return t;
    });
  }

  /** Takes the first sample at once (the baseline), then one per interval. */
  public static Daemon start(Config config) {
    Daemon d = new Daemon(config);
    d.thread.scheduleAtFixedRate(d::tick, 0, config.sampleInterval().toNanos(), TimeUnit.NANOSECONDS);
    return d;
  }

  private void tick() {
    try {
      Sample s = sampler.sample();
      Published p = new Published(s, peaks);
      published.set(p);
      for (java.util.function.Consumer<Published> l : listeners) {
        l.accept(p);
      }
    } catch (RuntimeException | Error e) {
      // A bug in one pass must not end sampling; readiness turns false if it keeps happening.
      log.error("sampling pass failed", e);
    }
  }

  /**
   * Runs {@code listener} on the sampling thread after each publish, for state that follows samples (the
   * live page's history); it must be quick and must not block.
   */
  public void addListener(java.util.function.Consumer<Published> listener) {
    listeners.add(listener);
  }

  /** The latest snapshot, or null before the first sample. */
  public Published published() {
    return published.get();
  }

  @Override
  public void close() {
    thread.shutdownNow();
  }
}
