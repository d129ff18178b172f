package dev.headroom.sample;

import dev.headroom.read.Datapath;
import dev.headroom.read.DatapathCpuReader;
import dev.headroom.read.ReadException;
import java.util.List;
import java.util.Set;

/**
 * CPU of the datapath: the userspace process holding the TUN, or the kernel's WireGuard threads plus
 * softirq. Only the sampling thread calls it.
 *
 * <p>Usage: {@code DatapathState d = new DatapathCpuCollector(reader).collect(Datapath.KERNEL, now, cpuState, false);}
 */
public final class DatapathCpuCollector {
  static final String SOURCE = "datapath";

  private final DatapathCpuReader reader;
  private final SourceHealthTracker health = new SourceHealthTracker(SOURCE);
  private long prevMillis = -1;
  private List<Integer> prevPids = List.of();
  private long prevNanos;
  private long millisTotal;

  public DatapathCpuCollector(DatapathCpuReader reader) {
    this.reader = reader;
  }

  /**
   * @param cpu this pass's CPU state: kernel crypto and receive also run in softirq context
   * @param tunnelRestarted the tunnel was recreated, so its owner may be a new process
   */
  public DatapathState collect(Datapath datapath, long nowNanos, CpuState cpu, boolean tunnelRestarted) {
    if (tunnelRestarted) {
      reader.invalidate();
    }
    try {
      DatapathCpuReader.DatapathCpu d = reader.read(datapath, nowNanos);
      long ms = d.cpuMillis();
      double dt = (nowNanos - prevNanos) / 1e9;
      boolean continuous = prevMillis >= 0 && d.pids().equals(prevPids) && ms >= prevMillis;
      long delta = continuous ? ms - prevMillis : 0;
      if (datapath == Datapath.KERNEL) {
        delta += cpu.deltaSoftirqMillis();
      }
      millisTotal += delta;
      double cores = dt > 0 && prevMillis >= 0 ? delta / 1000.0 / dt : 0;
      boolean unknown = datapath.userspace() && d.pids().isEmpty()
          || datapath == Datapath.KERNEL && !cpu.health().up();
      prevMillis = ms;
      prevPids = d.pids();
      prevNanos = nowNanos;
      health.ok();
      return new DatapathState(millisTotal / 1000.0, unknown ? Double.NaN : cores, d.allowedCpus().size(),
          meanBusy(cpu.cores(), d.allowedCpus()), d.description(), health.snapshot());
    } catch (ReadException e) {
      health.failed(e.getMessage());
      return new DatapathState(millisTotal / 1000.0, Double.NaN, 0, Double.NaN, "unknown", health.snapshot());
    }
  }

  /**
   * Mean busy of the online cores among {@code ids} that have an interval; NaN when none has. A core whose tick
   * counters did not move this interval is unknown, not idle.
   */
  private static double meanBusy(List<Core> cores, Set<Integer> ids) {
    double sum = 0;
    int n = 0;
    for (Core c : cores) {
      if (c.online() && c.hasShares() && ids.contains(c.cpu())) {
        sum += c.busy();
        n++;
      }
    }
    return n == 0 ? Double.NaN : sum / n;
  }
}
