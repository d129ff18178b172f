package dev.headroom.config;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A configuration for a sampler over a fixture tree, parsed from flags as the daemon's is: the fixture's sysfs
 * and procfs, no cgroup quota, no census and a 10 s peak window unless {@code flags} say otherwise (a later flag
 * wins).
 *
 * <p>Usage: {@code new Sampler(TestConfig.fixture(t.sys(), t.proc(), "--underlay.line-rate=10gbit"), ...)}
 */
public final class TestConfig {
  private TestConfig() {}

  public static Config fixture(Path sys, Path proc, String... flags) {
    List<String> all = new ArrayList<>(List.of("--path.sysfs=" + sys, "--path.procfs=" + proc, "--path.cgroupfs=",
        "--census.interval=0s", "--sample.peak-window=10s"));
    all.addAll(List.of(flags));
    try {
      return ConfigParser.parse(all.toArray(String[]::new)).config();
    } catch (ConfigException e) {
      throw new IllegalArgumentException(e.getMessage(), e);
    }
  }
}
