package dev.headroom.read;

/**
 * Where per-core CPU times come from: OSHI on the live system, or {@code /proc/stat} under a procfs root
 * (fixtures, other roots).
 *
 * <p>Usage: {@code CpuReading r = CpuSource.forRoots(sysfs, procfs).read();}
 */
public interface CpuSource {
  CpuReading read() throws ReadException;

  /**
   * OSHI when both roots are the real ones (its roots are JVM-wide static settings, so it cannot follow a
   * fixture tree), the procfs parser otherwise. The parser is cheaper (about 0.4 KB allocated per read against
   * OSHI's 11 KB, {@code SampleBench.partCpu*Live}, JMH {@code -prof gc}), but OSHI is the maintained reader of
   * the live system and the parser is checked against it ({@code OshiCpuSourceTest}).
   */
  static CpuSource forRoots(java.nio.file.Path sysfs, java.nio.file.Path procfs) {
    boolean live = sysfs.toAbsolutePath().normalize().toString().equals("/sys")
        && procfs.toAbsolutePath().normalize().toString().equals("/proc");
    return live ? new OshiCpuSource(sysfs) : new ProcStatCpuSource(sysfs, procfs);
  }
}
