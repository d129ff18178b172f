package dev.headroom.sample;

import dev.headroom.read.ReadException;
import dev.headroom.read.wg.NetbirdStatus;
import dev.headroom.read.wg.NetbirdMetricsReader;
import dev.headroom.read.wg.NetbirdStatusReader;
import java.util.Optional;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * NetBird's one status call, {@code netbird status --json}, whose answers give the peer counts ({@link #lastStatus})
 * and, when NetBird runs in netstack mode (no interface to read), the tunnel's bytes from its per-peer counters.
 * Each call is a gRPC round trip to the daemon and, now and then, a health probe of management, signal and relays:
 * it runs every status interval while no interface of the tunnel's name exists, else every peers interval, on the
 * executor it is given, never the sampling thread. The sampling thread calls {@link #collect}, which starts a
 * call when one is due and none is running, and folds each new answer, while netstack is looked for, into a
 * {@link PeerCounterTracker} (per public key, see there). Between answers the rates of the last two answers
 * stand: they are the measurement, at the status interval's resolution. An answer that is an error (not
 * installed, daemon down, not JSON) or a call killed at its timeout marks the source down, counts an error, and
 * makes the rates unknown (NaN), never the last ones repeated. A call still running past its timeout plus one interval is counted once as stalled.
 *
 * <p>The datapath is netstack while the latest answer says NetBird is connected with no kernel interface; through
 * failed calls it stays netstack for {@link #HOLD_INTERVALS} status intervals (a slow health probe is not NetBird
 * down), then it is absent, as is NetBird answering but not connected, or answering with a kernel interface.
 *
 * <p>Threads: {@link #collect} on the sampling thread only (tracker, health); the call on the executor, one at a
 * time; they meet in an {@link AtomicReference} holding an immutable answer.
 *
 * <p>Usage: {@code NetstackState n = new NetstackCollector(NetstackCollector.source(reader), exec, 5_000_000_000L, 30_000_000_000L, 5_000_000_000L, System::nanoTime).collect(false, now, 1.25e9);}
 */
public final class NetstackCollector {
  public static final String SOURCE = "netbird_status";
  /** Failed calls in a row the netstack datapath outlives; past them NetBird is taken as down. */
  static final int HOLD_INTERVALS = 3;
  private static final Logger log = LoggerFactory.getLogger(NetstackCollector.class);

  /** Asks NetBird once; the seam a test uses to stand in NetBird's answers or a call that never returns. */
  @FunctionalInterface
  public interface StatusSource {
    NetbirdStatus read() throws ReadException;
  }

  /** NetBird's CLI as a source: an empty read is an error carrying the reader's reason. */
  public static StatusSource source(NetbirdStatusReader reader) {
    return () -> reader.read().orElseThrow(() -> new ReadException(reader.lastProblem().orElse("no status")));
  }

  /**
   * NetBird's CLI, else its local metrics endpoint ({@code metrics} null: never): whichever answers gives the peer
   * counts; only the CLI gives bytes and names. Both failing is an error naming both reasons.
   */
  public static StatusSource source(NetbirdStatusReader reader, NetbirdMetricsReader metrics) {
    if (metrics == null) {
      return source(reader);
    }
    return () -> {
      Optional<NetbirdStatus> s = reader.read();
      if (s.isPresent()) {
        return s.get();
      }
      return metrics.read().map(NetbirdStatus::of).orElseThrow(() -> new ReadException(
          reader.lastProblem().orElse("no status") + "; " + metrics.lastProblem().orElse("no metrics")));
    };
  }

  /** One finished call. {@code status} null: it failed with {@code error}. */
  private record Answer(long atNanos, NetbirdStatus status, String error) {}

  private final StatusSource source;
  private final Executor executor;
  /** How often NetBird is asked while no interface exists; 0: netstack is never looked for. */
  private final long intervalNanos;
  /** How often it is asked otherwise, for the peer counts alone; 0: not then. */
  private final long peersNanos;
  private final long timeoutNanos;
  private final LongSupplier nanoClock;

  // Shared with the call.
  private final AtomicReference<Answer> latest = new AtomicReference<>();
  private final AtomicBoolean running = new AtomicBoolean();

  // Sampling thread only.
  private final PeerCounterTracker tracker;
  private final SourceHealthTracker health = new SourceHealthTracker(SOURCE);
  private long askedAt;
  private boolean asked;
  /** The answer last taken in: each call sets a new one. */
  private Answer seen;
  private boolean stallCounted;
  private NetbirdStatus status;
  private NetbirdStatus lastStatus;
  private boolean netstack;
  private long lastNetstackAt;
  private Traffic traffic = Traffic.NONE;
  private boolean looking;
  private long netstackAnswers;

  /**
   * @param statusIntervalNanos how often NetBird is asked while no interface exists (0: netstack is never looked for)
   * @param peersIntervalNanos how often otherwise (0: not then); the shorter of the two while no interface exists
   * @param timeoutNanos the bound the source promises on one call (the CLI is killed then); a call running past
   *     it plus one interval is counted as stalled
   * @param nanoClock the clock the call's answer is stamped with, on the sampler's scale (an answer's stamp is
   *     compared with the sample's); asked on the executor, so a clock without side effects: the daemon passes
   *     {@code System::nanoTime}
   */
  public NetstackCollector(StatusSource source, Executor executor, long statusIntervalNanos, long peersIntervalNanos,
      long timeoutNanos, LongSupplier nanoClock) {
    this.source = source;
    this.executor = executor;
    this.intervalNanos = peersIntervalNanos > 0 ? Math.min(statusIntervalNanos, peersIntervalNanos)
        : statusIntervalNanos;
    this.peersNanos = peersIntervalNanos;
    this.timeoutNanos = timeoutNanos;
    this.nanoClock = nanoClock;
    this.tracker = new PeerCounterTracker(intervalNanos / 1e9);
  }

  /** NetBird's latest answer, whatever the datapath (its peer counts); null before it and after a failed call. */
  public NetbirdStatus lastStatus() {
    return lastStatus;
  }

  /**
   * One pass of the sampler.
   *
   * @param interfacePresent an interface of the tunnel's name exists: that is the tunnel, NetBird's answers give
   *     the peer counts only
   * @param maxBytesPerSecond the fastest the tunnel could move bytes (see {@link InterfaceTracker#maxBytesPerSecond})
   */
  public NetstackState collect(boolean interfacePresent, long nowNanos, double maxBytesPerSecond) {
    boolean look = !interfacePresent && intervalNanos > 0;
    if (look != looking) {
      looking = look;
      asked = false; // no interface now: ask at once whether NetBird went to netstack or down
      if (!look) {
        tracker.forget(); // a later netstack tunnel is another datapath: its first answer only sets a baseline
        netstack = false;
        status = null;
      }
    }
    long every = look ? intervalNanos : peersNanos;
    boolean due = every > 0 && (!asked || nowNanos - askedAt >= every - every / 10);
    if (due && running.compareAndSet(false, true)) {
      asked = true;
      askedAt = nowNanos;
      stallCounted = false;
      try {
        executor.execute(this::ask);
      } catch (RuntimeException e) {
        running.set(false); // executor shut down: the daemon is closing
      }
    }
    Answer a = latest.get();
    if (a != null && a != seen) {
      seen = a;
      lastStatus = a.status();
      if (look) {
        fold(a, maxBytesPerSecond);
      }
    }
    if (!look) {
      health.ok(); // an interface is the tunnel: NetBird's answers are its peer counts only
    } else if (running.get() && nowNanos - askedAt >= timeoutNanos + every && !stallCounted) {
      stallCounted = true;
      health.failed("netbird status has not answered after " + (nowNanos - askedAt) / 1_000_000_000L + " s");
      tracker.unreadable();
      traffic = tracker.snapshot();
    }
    if (netstack && !health.up() && nowNanos - lastNetstackAt > HOLD_INTERVALS * intervalNanos) {
      log.info("netbird has not answered as connected for {} s: taking it as down",
          (nowNanos - lastNetstackAt) / 1_000_000_000L);
      netstack = false;
    }
    return new NetstackState(netstack, status, traffic, health.snapshot(), intervalNanos / 1e9, netstackAnswers,
        lastNetstackAt);
  }

  private void fold(Answer a, double maxBytesPerSecond) {
    if (a.status() == null) {
      health.failed(a.error());
      tracker.unreadable();
    } else {
      health.ok();
      status = a.status();
      boolean now = status.connectedWithoutKernelInterface();
      if (now) {
        if (!netstack) {
          log.info("no interface and NetBird connected without a kernel interface: netstack datapath, "
              + "tunnel bytes from its per-peer counters every {} s", intervalNanos / 1e9);
        }
        tracker.update(status.transfers(), a.atNanos(), maxBytesPerSecond);
        lastNetstackAt = a.atNanos();
        netstackAnswers++;
      } else {
        tracker.forget();
      }
      netstack = now;
    }
    traffic = tracker.snapshot();
  }

  /** One call, on the executor. */
  private void ask() {
    try {
      long start = nanoClock.getAsLong();
      NetbirdStatus s = null;
      String error = null;
      try {
        s = source.read();
      } catch (ReadException e) {
        error = e.getMessage();
      } catch (RuntimeException e) {
        error = e.toString();
      }
      // The counters were read somewhere inside the call: its midpoint is the least wrong timestamp.
      long end = nanoClock.getAsLong();
      latest.set(new Answer(start + (end - start) / 2, s, error));
    } finally {
      running.set(false);
    }
  }
}
