package dev.headroom.read;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

/**
 * The CPU quota of the cgroup the peer runs in, from cgroup v2's {@code cpu.max} ("{@code $MAX $PERIOD}", or
 * "{@code max $PERIOD}" for none), as fractional cores: {@code 250000 100000} is 2.5 cores. The root is a setting
 * ({@code --path.cgroupfs}) so a fixture tree stands in for {@code /sys/fs/cgroup}.
 *
 * <p>Usage: {@code double cores = new CpuQuota(Path.of("/sys/fs/cgroup")).cores(); // NaN: no quota}
 */
public final class CpuQuota {
  private final Path file;

  public CpuQuota(Path cgroupRoot) {
    this.file = cgroupRoot.resolve("cpu.max");
  }

  /** The quota in cores; NaN when there is none (no file, cgroup v1, or {@code max}). */
  public double cores() throws ReadException {
    String text;
    try {
      text = Files.readString(file);
    } catch (NoSuchFileException e) {
      return Double.NaN;
    } catch (IOException e) {
      throw new ReadException(file + ": " + e.getMessage(), e);
    }
    return parse(text, file.toString());
  }

  /** Parses the contents of {@code cpu.max}; {@code where} names the file in errors. */
  public static double parse(String text, String where) throws ReadException {
    String[] f = text.strip().split("\\s+");
    if (f.length != 2) {
      throw new ReadException(where + ": expected '$MAX $PERIOD', got '" + text.strip() + "'");
    }
    try {
      long period = Long.parseLong(f[1]);
      if (period <= 0) {
        throw new ReadException(where + ": period must be positive, got " + period);
      }
      if (f[0].equals("max")) {
        return Double.NaN;
      }
      long max = Long.parseLong(f[0]);
      if (max <= 0) {
        throw new ReadException(where + ": quota must be positive or 'max', got " + max);
      }
      return (double) max / period;
    } catch (NumberFormatException e) {
      throw new ReadException(where + ": expected '$MAX $PERIOD' in microseconds, got '" + text.strip() + "'");
    }
  }
}
