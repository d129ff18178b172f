package dev.headroom.sample;

import dev.headroom.read.CpuReading;
import dev.headroom.read.CpuSource;
import dev.headroom.read.CpuTimes;
import dev.headroom.read.ReadException;
import java.util.Arrays;
import java.util.List;

/**
 * Per-core busy ratios and mode deltas from a {@link CpuSource}, keyed by real CPU id, correct across cores
 * going offline and back online: a core's previous times are forgotten while it is offline, so its first
 * interval back only sets a baseline.
 *
 * <p>State lives in arrays indexed by CPU id (ids are small and dense), so a pass allocates only the cores it
 * returns. Only the sampling thread calls it.
 *
 * <p>Usage: {@code CpuState c = new CpuCollector(CpuSource.forRoots(sys, proc)).collect();}
 */
public final class CpuCollector {
  static final String SOURCE = "cpu";

  private final CpuSource source;
  private final SourceHealthTracker health = new SourceHealthTracker(SOURCE);
  /** Previous times per id, null while unknown or offline. */
  private CpuTimes[] prev = new CpuTimes[0];
  /** The last state of every id ever seen (offline ones kept as offline), null for ids never seen. */
  private Core[] last = new Core[0];
  /** Ids read in this pass: marked with the pass's number, so nothing is cleared between passes. */
  private long[] seenIn = new long[0];
  private long update;
  private int known;

  public CpuCollector(CpuSource source) {
    this.source = source;
  }

  public CpuState collect() {
    CpuReading reading;
    try {
      reading = source.read();
    } catch (ReadException e) {
      // The previous times stay, so the next good read covers the gap.
      health.failed(e.getMessage());
      return new CpuState(List.of(), 0, 0, 0, 0, health.snapshot());
    }
    // Summed deltas in ms: user+nice, system, softirq, total.
    long dUser = 0;
    long dSystem = 0;
    long dSoftirq = 0;
    long dTotal = 0;
    update++;
    for (CpuTimes t : reading.cores()) {
      int id = t.cpu();
      grow(id + 1);
      seenIn[id] = update;
      CpuTimes p = prev[id];
      Core core = Core.between(p, t);
      if (core.hasShares()) {
        dUser += (t.user() - p.user()) + (t.nice() - p.nice());
        dSystem += t.system() - p.system();
        dSoftirq += t.softirq() - p.softirq();
        dTotal += t.total() - p.total();
      }
      prev[id] = t;
      if (last[id] == null) {
        known++;
      }
      last[id] = core;
    }
    Core[] out = new Core[known];
    int k = 0;
    for (int id = 0; id < last.length; id++) {
      if (last[id] == null) {
        continue;
      }
      if (seenIn[id] != update || !reading.online().contains(id)) {
        prev[id] = null;
        if (last[id].online()) {
          last[id] = Core.offline(id);
        }
      }
      out[k++] = last[id];
    }
    health.ok();
    return new CpuState(List.of(out), dUser, dSystem, dSoftirq, dTotal, health.snapshot());
  }

  private void grow(int ids) {
    if (ids > last.length) {
      prev = Arrays.copyOf(prev, ids);
      last = Arrays.copyOf(last, ids);
      seenIn = Arrays.copyOf(seenIn, ids);
    }
  }
}
