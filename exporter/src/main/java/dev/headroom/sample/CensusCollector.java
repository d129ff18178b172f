package dev.headroom.sample;

import dev.headroom.read.Datapath;
import dev.headroom.read.ReadException;
import dev.headroom.read.wg.TunnelPeersReader;
import dev.headroom.sample.census.CensusConfig;
import dev.headroom.sample.census.CensusSnapshot;
import dev.headroom.sample.census.CensusTotals;
import dev.headroom.sample.census.TunnelCensus;

/**
 * The census of every tunnel, taken less often than the per-second sources since a peer can hold thousands
 * of them, and at once when the tunnel restarted. Only the sampling thread calls it.
 *
 * <p>Usage: {@code CensusState c = new CensusCollector(settings).collect(Datapath.USERSPACE, now, wallMillis, false);}
 */
public final class CensusCollector {
  static final String SOURCE = "census";

  private final SamplerSettings settings;
  private final TunnelPeersReader peers;
  private final TunnelCensus census = new TunnelCensus(CensusConfig.defaults());
  private final CensusTotals totals = new CensusTotals();
  private final SourceHealthTracker health = new SourceHealthTracker(SOURCE);
  private CensusSnapshot last;
  private CensusTotals lastTotals;
  private long takenAt;

  public CensusCollector(SamplerSettings settings) {
    this.settings = settings;
    this.peers = new TunnelPeersReader(settings.runDir(), "wg");
  }

  public CensusState collect(Datapath datapath, long nowNanos, long wallMillis, boolean tunnelRestarted) {
    if (takenAt == 0 || nowNanos - takenAt >= dueNanos() || tunnelRestarted) {
      takenAt = nowNanos;
      if (datapath == Datapath.ABSENT) {
        last = null;
        health.ok();
      } else {
        try {
          CensusSnapshot c = census.update(nowNanos, wallMillis / 1000, peers.read(datapath, settings.tunnelInterface()));
          totals.add(c);
          last = c;
          lastTotals = totals.copy();
          health.ok();
        } catch (ReadException e) {
          last = null;
          health.failed(e.getMessage());
        }
      }
    }
    return new CensusState(last, lastTotals, health.snapshot());
  }

  /**
   * A census is due when its interval has nearly passed: samples start with some jitter, and without the
   * slack a census every interval would skip every few samples when both intervals are equal.
   */
  private long dueNanos() {
    return settings.censusInterval().toNanos() - settings.interval().toNanos() / 2;
  }
}
