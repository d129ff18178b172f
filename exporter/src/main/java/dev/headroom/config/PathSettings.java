package dev.headroom.config;

import java.nio.file.Path;
import java.util.Optional;
import picocli.CommandLine.Option;

/**
 * The roots headroom reads and writes under: a fixture tree stands in for each in tests. Each field is one
 * setting (flag, config-file key, {@code --help} line, default); the accessors are the values the code reads.
 *
 * <p>Usage: {@code new NetInterfaceReader(config.paths().sysfs())}
 */
public final class PathSettings extends SettingsGroup {
  @Option(names = "--path.sysfs", paramLabel = "DIR", defaultValue = "/sys",
      description = "sysfs root (default ${DEFAULT-VALUE})") private Path sysfs;
  @Option(names = "--path.procfs", paramLabel = "DIR", defaultValue = "/proc",
      description = "procfs root (default ${DEFAULT-VALUE})") private Path procfs;
  @Option(names = "--path.cgroupfs", paramLabel = "DIR", defaultValue = "/sys/fs/cgroup",
      description = "cgroup v2 root whose cpu.max quota limits the peer's cores (empty: no quota is read)"
          + " (default ${DEFAULT-VALUE})") private Path cgroupfs;
  @Option(names = "--path.rundir", paramLabel = "DIR", defaultValue = "/var/run",
      description = "run directory holding wireguard/<tunnel>.sock (userspace datapath) (default ${DEFAULT-VALUE})")
  private Path runDir;
  @Option(names = "--path.state", paramLabel = "DIR", defaultValue = "/var/lib/headroom",
      description = "directory of the state file keeping observed ceilings (the unit's StateDirectory) (default"
          + " ${DEFAULT-VALUE})") private Path stateDir;

  public Path sysfs() {
    return sysfs;
  }

  public Path procfs() {
    return procfs;
  }

  /** The cgroup root whose {@code cpu.max} caps the peer's CPU; empty: no quota is read (no cpu_quota source). */
  public Optional<Path> cgroupfs() {
    return Optional.ofNullable(cgroupfs).filter(p -> !p.toString().isBlank());
  }

  public Path runDir() {
    return runDir;
  }

  public Path stateDir() {
    return stateDir;
  }
}
