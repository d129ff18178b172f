package dev.headroom.read;

import java.nio.file.Path;

/**
 * Per-core times from {@code <procfs>/stat}, for any root (fixture trees, a container's view).
 *
 * <p>Usage: {@code CpuSource cpu = new ProcStatCpuSource(Path.of("fixture/sys"), Path.of("fixture/proc"));}
 */
public final class ProcStatCpuSource implements CpuSource {
  private final Path sysfs;
  private final Path stat;

  public ProcStatCpuSource(Path sysfsRoot, Path procfsRoot) {
    this.sysfs = sysfsRoot;
    this.stat = procfsRoot.resolve("stat");
  }

  /** About 150 bytes a core: room for 8192 cores (the kernel's CPU limit) and the other lines. */
  static final int MAX_STAT_BYTES = 4 << 20;

  @Override
  public CpuReading read() throws ReadException {
    return new CpuReading(ProcStat.parseCores(Sysfs.read(stat, MAX_STAT_BYTES), stat), CpuList.readOnline(sysfs));
  }

  @Override
  public String name() {
    return "procfs";
  }
}
