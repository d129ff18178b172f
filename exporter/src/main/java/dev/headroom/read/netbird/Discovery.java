package dev.headroom.read.netbird;

import dev.headroom.read.netbird.NetbirdApi.ApiException;
import dev.headroom.read.netbird.NetbirdApi.Outcome;
import dev.headroom.serve.RateLimitedLog;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps NetBird's inventory fresh: reads it every {@code --netbird.refresh-interval}, and after a failure (429, 5xx,
 * timeout, a refused token, a schema change) backs off exponentially, from {@link #FIRST_RETRY} (or the interval, if
 * shorter) doubling up to {@link #LONGEST_BACKOFF} (or the interval, if longer), never sooner than a Retry-After.
 * A failed refresh never replaces the last good inventory: {@link #snapshot()} keeps it, with its time, and the
 * failures are counted and logged (once per kind a minute).
 *
 * <p>Usage: {@code Discovery d = new Discovery(reader, Duration.ofMinutes(1), System::currentTimeMillis); d.refresh(); d.start();}
 */
public final class Discovery implements AutoCloseable {
  static final Duration FIRST_RETRY = Duration.ofSeconds(5);
  static final Duration LONGEST_BACKOFF = Duration.ofMinutes(5);
  private static final Logger log = LoggerFactory.getLogger(Discovery.class);

  /** The last good inventory, when it was read (Unix millis), and the how-manieth good one it is. */
  public record Snapshot(Inventory inventory, long refreshedAtMillis, long sequence) {}

  /** The state as served: the last good snapshot (null before the first) and the refreshes failed in a row. */
  public record State(Snapshot snapshot, int failuresInARow, String lastError) {}

  private final InventoryReader reader;
  private final Duration interval;
  private final LongSupplier wallMillis;
  private final RateLimitedLog problems = new RateLimitedLog(log, Duration.ofMinutes(1), System::nanoTime);
  private final AtomicLong sequence = new AtomicLong();
  private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
    Thread t = new Thread(r, "headroom-discover-refresh");
    t.setDaemon(true);
    return t;
  });
  private volatile State state = new State(null, 0, "");

  public Discovery(InventoryReader reader, Duration interval, LongSupplier wallMillis) {
    this.reader = reader;
    this.interval = interval;
    this.wallMillis = wallMillis;
  }

  public State state() {
    return state;
  }

  /** The last good inventory, or null before the first. */
  public Snapshot snapshot() {
    return state.snapshot();
  }

  public InventoryReader reader() {
    return reader;
  }

  /**
   * Reads the inventory once; on success it becomes the snapshot. Returns the failure, if any; a failure leaves
   * the snapshot as it was.
   */
  public Optional<ApiException> refresh() throws InterruptedException {
    return refresh(true);
  }

  /** As {@link #refresh()}; {@code logFailure} false leaves a failure to the caller to tell (the first, at start). */
  public Optional<ApiException> refresh(boolean logFailure) throws InterruptedException {
    State before = state;
    try {
      Inventory inventory = reader.read();
      state = new State(new Snapshot(inventory, wallMillis.getAsLong(), sequence.incrementAndGet()), 0, "");
      if (before.failuresInARow() > 0) {
        log.info("NetBird inventory read again after {} failed refreshes: {} Networks", before.failuresInARow(),
            inventory.networks().size());
      }
      return Optional.empty();
    } catch (ApiException e) {
      state = new State(before.snapshot(), before.failuresInARow() + 1, e.getMessage());
      Snapshot kept = before.snapshot();
      String keeping = kept == null ? "no inventory yet, the service discovery list answers 503"
          : "keeping the inventory of " + kept.inventory().networks().size() + " Networks read "
              + (wallMillis.getAsLong() - kept.refreshedAtMillis()) / 1000 + " s ago";
      String message = (e.outcome() == Outcome.SCHEMA ? "NetBird API schema changed: " : "NetBird API: ")
          + e.getMessage() + "; " + keeping;
      if (logFailure) {
        problems.warn(e.outcome().label() + (e.getMessage().split(":", 2)[0]), message, null);
      }
      return Optional.of(e);
    }
  }

  /** Inconsistent answers (a router naming an unknown peer), logged once a minute per message. */
  public void inconsistency(String message) {
    problems.warn(message, "NetBird inventory: " + message, null);
  }

  /** Refreshes from now on, after {@code first}, at the interval, backing off after failures. */
  public void start(Duration first) {
    timer.schedule(this::tick, first.toMillis(), TimeUnit.MILLISECONDS);
  }

  private void tick() {
    Optional<ApiException> failure;
    try {
      failure = refresh();
    } catch (InterruptedException e) {
      return; // closing
    } catch (RuntimeException e) {
      // A bug must not end the refreshes: the last good list stays served and the next tick tries again.
      log.error("NetBird inventory refresh failed unexpectedly", e);
      failure = Optional.of(new ApiException(Outcome.ERROR, 0, Optional.empty(), e.toString()));
    }
    if (!timer.isShutdown()) {
      Duration next = delay(interval, state.failuresInARow(), failure.flatMap(ApiException::retryAfter));
      timer.schedule(this::tick, next.toMillis(), TimeUnit.MILLISECONDS);
    }
  }

  /** How long to wait after {@code failure}, the first refresh's. */
  public static Duration delayAfter(Duration interval, ApiException failure) {
    return delay(interval, 1, failure.retryAfter());
  }

  /** How long to wait before the next refresh, after {@code failures} failed ones in a row. */
  static Duration delay(Duration interval, int failures, Optional<Duration> retryAfter) {
    if (failures == 0) {
      return interval;
    }
    Duration first = FIRST_RETRY.compareTo(interval) < 0 ? FIRST_RETRY : interval;
    Duration cap = LONGEST_BACKOFF.compareTo(interval) > 0 ? LONGEST_BACKOFF : interval;
    Duration grown = first.multipliedBy(1L << Math.min(failures - 1, 20));
    Duration d = grown.compareTo(cap) > 0 ? cap : grown;
    return retryAfter.filter(r -> r.compareTo(d) > 0).orElse(d);
  }

  @Override
  public void close() {
    timer.shutdownNow();
  }
}
