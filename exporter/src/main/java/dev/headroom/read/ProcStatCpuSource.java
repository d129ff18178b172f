package dev.headroom.read;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.SortedSet;

/**
 * Per-core times from {@code <procfs>/stat}, for any root (the live system, fixture trees, a container's
 * view). Both files are read into reused buffers, through descriptors held open on the real filesystems
 * (see {@link KernelFile}); the online set is parsed again only when its text changes. Not thread-safe: the
 * sampling thread is its only caller.
 *
 * <p>Usage: {@code CpuSource cpu = new ProcStatCpuSource(Path.of("fixture/sys"), Path.of("fixture/proc"));}
 */
public final class ProcStatCpuSource implements CpuSource {
  /** About 150 bytes a core: room for 8192 cores (the kernel's CPU limit) and the other lines. */
  static final int MAX_STAT_BYTES = 4 << 20;

  private final KernelFile stat;
  private final KernelFile online;
  private byte[] onlineText = new byte[0];
  private SortedSet<Integer> onlineIds;

  public ProcStatCpuSource(Path sysfsRoot, Path procfsRoot) {
    this.stat = new KernelFile(procfsRoot.resolve("stat"), MAX_STAT_BYTES);
    this.online = new KernelFile(sysfsRoot.resolve(CpuList.ONLINE), Sysfs.MAX_ATTRIBUTE_BYTES);
  }

  @Override
  public CpuReading read() throws ReadException {
    int n = stat.read();
    java.util.List<CpuTimes> cores = ProcStat.parseCores(stat.bytes(), n, stat.path());
    return new CpuReading(cores, online());
  }

  private SortedSet<Integer> online() throws ReadException {
    int n = online.read();
    byte[] b = online.bytes();
    if (onlineIds == null || !Arrays.equals(b, 0, n, onlineText, 0, onlineText.length)) {
      onlineIds = CpuList.parse(new String(b, 0, n, StandardCharsets.US_ASCII), online.path());
      onlineText = Arrays.copyOf(b, n);
    }
    return onlineIds;
  }
}
