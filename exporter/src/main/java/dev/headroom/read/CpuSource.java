package dev.headroom.read;

/**
 * Where per-core CPU times come from: {@code /proc/stat} under a procfs root (the live one, fixtures, other
 * roots), or OSHI.
 *
 * <p>Usage: {@code CpuReading r = CpuSource.forRoots(sysfs, procfs).read();}
 */
public interface CpuSource {
  CpuReading read() throws ReadException;

  /** A short name for logs and the status page. */
  String name();

  /**
   * The procfs parser, on the live roots too. OSHI reads the same {@code /proc/stat} but through line strings
   * and splits, about 11 KB allocated per read against 0.4 KB for the parser with its held descriptor
   * ({@code SampleBench.partCpu*Live}, JMH {@code -prof gc}), and its per-core slots shift when a core is
   * offline; {@link OshiCpuSource} stays as the independent reading the parser is checked against.
   */
  static CpuSource forRoots(java.nio.file.Path sysfs, java.nio.file.Path procfs) {
    return new ProcStatCpuSource(sysfs, procfs);
  }
}
