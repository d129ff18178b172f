package dev.headroom.sample;

import dev.headroom.read.CpuQuota;
import dev.headroom.read.ReadException;
import java.nio.file.Path;

/**
 * The cgroup CPU quota ({@code cpu.max}) in cores, NaN for none. It changes only by an operator's hand, so it is
 * re-read every {@code rereadNanos}, not each sample; between reads the last value and health stand. A bad file
 * is read as no quota, logged once, counted and exposed as source {@value #SOURCE}. Only the sampling thread
 * calls it.
 *
 * <p>Usage: {@code CpuQuotaState q = new CpuQuotaCollector(Path.of("/sys/fs/cgroup"), 10_000_000_000L).collect(now);}
 */
public final class CpuQuotaCollector {
  /** The quota's name in {@code headroom_source_up}, {@code headroom_source_errors_total} and {@code /-/ready}. */
  public static final String SOURCE = "cpu_quota";

  private final CpuQuota quota;
  private final long rereadNanos;
  private final SourceHealthTracker health = new SourceHealthTracker(SOURCE);
  private CpuQuotaState last;
  private long readAt;

  public CpuQuotaCollector(Path cgroupRoot, long rereadNanos) {
    this.quota = new CpuQuota(cgroupRoot);
    this.rereadNanos = rereadNanos;
  }

  public CpuQuotaState collect(long nowNanos) {
    if (last != null && nowNanos - readAt < rereadNanos) {
      return last;
    }
    readAt = nowNanos;
    double cores;
    try {
      cores = quota.cores();
      health.ok();
    } catch (ReadException e) {
      health.failed(e.getMessage() + " (the CPU quota is ignored)");
      cores = Double.NaN;
    }
    last = new CpuQuotaState(cores, health.snapshot());
    return last;
  }
}
