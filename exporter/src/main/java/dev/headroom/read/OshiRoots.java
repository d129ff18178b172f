package dev.headroom.read;

import java.nio.file.Files;
import java.nio.file.Path;
import oshi.util.GlobalConfig;
import oshi.util.platform.linux.ProcPath;
import oshi.util.platform.linux.SysPath;

/**
 * Points OSHI at the configured sysfs and procfs roots, so it reads a fixture tree in tests as it reads
 * {@code /sys} and {@code /proc} on a peer. OSHI takes its roots from its global configuration once per JVM,
 * when its path classes load: the first roots asked for win, and any other roots later in the same JVM (a test
 * of another fixture, a reload that moved {@code --path.*}) cannot be followed.
 *
 * <p>Usage: {@code CpuSource cpu = OshiRoots.follow(sys, proc) ? new OshiCpuSource(sys) : new ProcStatCpuSource(sys, proc);}
 */
final class OshiRoots {
  private static boolean configured;

  private OshiRoots() {}

  /** Whether OSHI reads these roots, afresh on each read; the first call in a JVM makes it so when both exist. */
  static synchronized boolean follow(Path sysfs, Path procfs) {
    Path sys = sysfs.toAbsolutePath().normalize();
    Path proc = procfs.toAbsolutePath().normalize();
    if (!configured) {
      if (!Files.isDirectory(sys) || !Files.isDirectory(proc)) {
        return false; // OSHI refuses a root that does not exist, and its paths would stay unusable in this JVM
      }
      configured = true;
      GlobalConfig.set("oshi.util.sys.path", sys.toString());
      GlobalConfig.set("oshi.util.proc.path", proc.toString());
      // udev enumerates the live machine's processors whatever the roots say; without it OSHI reads them from
      // sysfs under its root, on a peer as on a fixture tree.
      GlobalConfig.set("oshi.os.linux.allowudev", false);
      // OSHI keeps an answer for 300 ms by default; the sampler asks once per --sample.interval, which may be
      // shorter, and a kept answer would read as a core that did nothing since the last sample.
      GlobalConfig.set("oshi.util.memoizer.expiration", 0);
    }
    try {
      return Path.of(SysPath.SYS).equals(sys) && Path.of(ProcPath.PROC).equals(proc);
    } catch (LinkageError e) {
      return false; // OSHI's paths could not load: the parser reads instead
    }
  }
}
