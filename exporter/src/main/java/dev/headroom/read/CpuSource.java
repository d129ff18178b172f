package dev.headroom.read;

/**
 * Where per-core CPU times come from: OSHI on the live system, or a procfs tree (fixtures, other roots).
 *
 * <p>Usage: {@code CpuReading r = CpuSource.forRoots(sysfs, procfs).read();}
 */
public interface CpuSource {
  CpuReading read() throws ReadException;

  /** A short name for logs and the status page. */
  String name();

  /**
   * OSHI when both roots are the real ones (its roots are JVM-wide static settings, so it cannot follow a
   * fixture tree), the procfs parser otherwise.
   */
  static CpuSource forRoots(java.nio.file.Path sysfs, java.nio.file.Path procfs) {
    boolean live = sysfs.toAbsolutePath().normalize().toString().equals("/sys")
        && procfs.toAbsolutePath().normalize().toString().equals("/proc");
    return live ? new OshiCpuSource(sysfs) : new ProcStatCpuSource(sysfs, procfs);
  }
}
