package dev.headroom.sample;

import dev.headroom.read.CpuQuota;
import dev.headroom.read.ReadException;
import java.nio.file.Path;

/**
 * The cgroup CPU quota ({@code cpu.max}) in cores, NaN for none. It changes only by an operator's hand, so it is
 * re-read every ten seconds, not each sample; between reads the last value and health stand. A bad file
 * is read as no quota, logged once, counted and exposed as source {@value #SOURCE}. Only the sampling thread
 * calls it.
 *
 * <p>Usage: {@code CpuQuotaState q = new CpuQuotaCollector(Path.of("/sys/fs/cgroup")).collect(now);}
 */
public final class CpuQuotaCollector {
  /** The quota's name in {@code headroom_source_up}, {@code headroom_source_errors_total} and {@code /-/ready}. */
  public static final String SOURCE = "cpu_quota";
  private static final long REREAD_NANOS = 10_000_000_000L;

  private final CpuQuota quota;
  private final SourceHealthTracker health = new SourceHealthTracker(SOURCE);
  private CpuQuotaState last;
  private long readAt;

  public CpuQuotaCollector(Path cgroupRoot) {
    this.quota = new CpuQuota(cgroupRoot);
  }

  public CpuQuotaState collect(long nowNanos) {
    if (last != null && nowNanos - readAt < REREAD_NANOS) {
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
