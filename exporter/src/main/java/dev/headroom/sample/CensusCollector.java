package dev.headroom.sample;

import dev.headroom.config.Config;
import dev.headroom.read.Datapath;
import dev.headroom.read.ReadException;
import dev.headroom.read.wg.NetbirdStatus;
import dev.headroom.read.wg.PeerTransfer;
import dev.headroom.read.wg.TunnelPeer;
import dev.headroom.read.wg.TunnelPeersReader;
import dev.headroom.sample.census.CensusConfig;
import dev.headroom.sample.census.CensusSnapshot;
import dev.headroom.sample.census.CensusTotals;
import dev.headroom.sample.census.TunnelCensus;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The census of every tunnel, taken less often than the per-second sources since a peer can hold thousands
 * of them, and at once when the tunnel restarted.
 *
 * <p>The census runs on the executor it is given, never on the caller's thread unless that executor is
 * {@code Runnable::run}: reading thousands of tunnels over a UAPI socket or {@code wg show} can take up to
 * its timeout, and a sample must not wait for it. The sampling thread calls {@link #collect}, which starts a
 * census when one is due and none is running, and returns the latest finished one. A census still running
 * past the reader's timeout plus one census interval is stalled: counted once as a census error and shown as
 * a failing source until it returns; the sampler stays on time throughout.
 *
 * <p>Threads: {@link #collect} on the sampling thread only; the census state ({@link TunnelCensus}, totals,
 * health) on the census task only, one task at a time; they meet in an {@link AtomicReference} holding an
 * immutable {@link CensusState}.
 *
 * <p>Usage: {@code CensusState c = new CensusCollector(config, censusThread).collect(Datapath.USERSPACE, now, wallMillis, false, null);}
 */
public final class CensusCollector {
  static final String SOURCE = "census";
  private static final Logger log = LoggerFactory.getLogger(CensusCollector.class);

  /** Reads every tunnel of the interface; the seam a test uses to stand in a census that never returns. */
  @FunctionalInterface
  public interface PeersSource {
    List<TunnelPeer> read(Datapath datapath, String iface) throws ReadException;
  }

  private final Config config;
  private final PeersSource peers;
  private final Executor executor;
  private final long stallNanos;
  private final LongSupplier readClock;

  // Census task only.
  private final TunnelCensus census = new TunnelCensus(CensusConfig.defaults());
  private final CensusTotals totals = new CensusTotals();
  private final SourceHealthTracker health = new SourceHealthTracker(SOURCE);

  // Shared: the latest finished census, and whether one is running.
  private final AtomicReference<CensusState> latest =
      new AtomicReference<>(new CensusState(null, null, new SourceHealth(true, 0, "")));
  private final AtomicBoolean running = new AtomicBoolean();

  // Sampling thread only.
  private long takenAt;
  private boolean taken;
  private long stalls;
  private boolean stallCounted;

  public CensusCollector(Config config, Executor executor) {
    this(config, new TunnelPeersReader(config.paths().runDir(), "wg")::read, executor,
        TunnelPeersReader.TIMEOUT.toNanos(), System::nanoTime);
  }

  /**
   * @param readerTimeoutNanos the bound the source promises on one read; a census running longer than this
   *     plus one census interval is counted as stalled
   * @param readClock stamps each read as it returns, {@link System#nanoTime()} scale; asked on the census
   *     thread, so not a clock with side effects such as the replay tests' reading clock (the two-argument
   *     constructor, which the daemon's sampler uses, passes {@code System::nanoTime})
   */
  public CensusCollector(Config config, PeersSource peers, Executor executor, long readerTimeoutNanos,
      LongSupplier readClock) {
    this.config = config;
    this.peers = peers;
    this.executor = executor;
    this.stallNanos = readerTimeoutNanos + config.sampling().censusInterval().toNanos();
    this.readClock = readClock;
  }

  /**
   * Starts a census when one is due and none is running; returns the latest finished one, its health
   * failing while a census is stalled. {@code netbird}: NetBird's latest status, which names the tunnels and says
   * how each is carried; null without one.
   */
  public CensusState collect(Datapath datapath, long nowNanos, long wallMillis, boolean tunnelRestarted,
      NetbirdStatus netbird) {
    // Netstack has no socket or device to read: its census comes from NetBird's answers (see offer).
    boolean due = datapath != Datapath.NETSTACK
        && (!taken || nowNanos - takenAt >= dueNanos() || tunnelRestarted);
    if (due && running.compareAndSet(false, true)) {
      start(nowNanos, () -> take(datapath, wallMillis, netbird));
    }
    CensusState s = latest.get();
    boolean stalled = running.get() && nowNanos - takenAt >= stallNanos;
    if (stalled && !stallCounted) {
      stallCounted = true;
      stalls++;
      log.warn("census has not returned after {} s (still sampling the rest)", (nowNanos - takenAt) / 1_000_000_000L);
    }
    if (stalls == 0) {
      return s;
    }
    SourceHealth h = s.health();
    return new CensusState(s.snapshot(), s.totals(), stalled
        ? new SourceHealth(false, h.errors() + stalls,
            "census has not returned after " + (nowNanos - takenAt) / 1_000_000_000L + " s")
        : new SourceHealth(h.up(), h.errors() + stalls, h.lastError()));
  }

  /**
   * Netstack: a census of the tunnels NetBird listed in one status answer, taken on the census executor at the
   * time NetBird read its counters, so each tunnel's rate spans two answers exactly. Skipped while a census runs
   * (the next answer comes one status interval later). Sampling thread only.
   */
  public void offer(NetbirdStatus status, long atNanos, long wallMillis) {
    if (taken && atNanos <= takenAt || !running.compareAndSet(false, true)) {
      return;
    }
    start(atNanos, () -> take(status, atNanos, wallMillis));
  }

  /** Starts a census taken at {@code atNanos} on the executor, once {@code running} is set. */
  private void start(long atNanos, Runnable census) {
    taken = true;
    takenAt = atNanos;
    stallCounted = false;
    try {
      executor.execute(census);
    } catch (RuntimeException e) {
      running.set(false); // executor shut down: the daemon is closing
    }
  }

  /**
   * One census, on the census task. Its rates divide by the time between two reads, so each read is stamped
   * when it returns, not when the sample that asked for it began: the wait for the census thread and for
   * {@code wg} to start varies on a busy peer, and a read that started late would count more bytes than
   * its interval held. The counters are read near the end of a read; what follows (the rest of the answer,
   * its parse) is about the same each time, so it cancels in the difference.
   */
  private void take(Datapath datapath, long wallMillis, NetbirdStatus netbird) {
    try {
      if (datapath == Datapath.ABSENT) {
        health.ok();
        latest.set(new CensusState(null, latest.get().totals(), health.snapshot()));
      } else {
        List<TunnelPeer> read = peers.read(datapath, config.sampling().tunnelInterface());
        latest.set(census(read, readClock.getAsLong(), wallMillis, netbird == null ? Map.of() : netbird.byKey()));
      }
    } catch (ReadException e) {
      failed(e.getMessage());
    } catch (RuntimeException e) {
      failed(e.toString());
    } finally {
      running.set(false);
    }
  }

  /** A census of tunnels handed over (netstack), on the census task. */
  private void take(NetbirdStatus status, long nowNanos, long wallMillis) {
    try {
      List<TunnelPeer> peers = status.transfers().stream().map(PeerTransfer::toTunnelPeer).toList();
      latest.set(census(peers, nowNanos, wallMillis, status.byKey()));
    } catch (RuntimeException e) {
      failed(e.toString());
    } finally {
      running.set(false);
    }
  }

  /** No census this time: the totals so far stand. */
  private void failed(String message) {
    health.failed(message);
    latest.set(new CensusState(null, latest.get().totals(), health.snapshot()));
  }

  private CensusState census(List<TunnelPeer> tunnels, long nowNanos, long wallMillis,
      Map<String, PeerTransfer> netbird) {
    CensusSnapshot c = census.update(nowNanos, wallMillis / 1000, tunnels, netbird);
    totals.add(c);
    health.ok();
    return new CensusState(c, totals.copy(), health.snapshot());
  }

  /**
   * A census is due when its interval has nearly passed: samples start with some jitter, and without the
   * slack a census every interval would skip every few samples when both intervals are equal.
   */
  private long dueNanos() {
    return config.sampling().censusInterval().toNanos() - config.sampling().interval().toNanos() / 2;
  }
}
