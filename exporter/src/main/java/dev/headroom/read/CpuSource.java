package dev.headroom.read;

/**
 * Where per-core CPU times come from: OSHI under the configured roots, or {@code /proc/stat} under them where
 * OSHI cannot follow (other roots later in the same JVM).
 *
 * <p>Usage: {@code CpuReading r = CpuSource.forRoots(sysfs, procfs).read();}
 */
public interface CpuSource {
  CpuReading read() throws ReadException;

  /**
   * OSHI, pointed at these roots, wherever it can follow them: on a peer, and on fixture peers in a JVM of their
   * own (the golden and replay tests). OSHI reads its roots once per JVM ({@link OshiRoots}), so other roots later
   * in the same JVM are read by the procfs parser, which {@code OshiCpuSourceTest} checks against OSHI. The
   * parser is also the cheaper (about 0.4 KB allocated per read against OSHI's 11 KB,
   * {@code SampleBench.partCpu*Live}, JMH {@code -prof gc}), but OSHI is the maintained reader of the live system.
   */
  static CpuSource forRoots(java.nio.file.Path sysfs, java.nio.file.Path procfs) {
    return OshiRoots.follow(sysfs, procfs) ? new OshiCpuSource(sysfs) : new ProcStatCpuSource(sysfs, procfs);
  }
}
