package dev.headroom.read;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The CPU's model, from {@code cpuinfo} under the procfs root: x86's "model name", or on Arm (which has none)
 * the implementer and part numbers. A learned ceiling belongs to one CPU model: the same cores of another CPU
 * carry another rate.
 *
 * <p>Usage: {@code String model = CpuModel.read(Path.of("/proc")); // "unknown" when cpuinfo says nothing}
 */
public final class CpuModel {
  /** What a peer whose cpuinfo is unreadable or silent is keyed by. */
  public static final String UNKNOWN = "unknown";

  private CpuModel() {}

  public static String read(Path procfs) {
    try {
      return parse(Files.readString(procfs.resolve("cpuinfo")));
    } catch (IOException | RuntimeException e) {
      return UNKNOWN;
    }
  }

  /** The model in the text of a cpuinfo file (the first processor's lines). */
  public static String parse(String cpuinfo) {
    Map<String, String> first = new LinkedHashMap<>();
    for (String line : cpuinfo.split("\n")) {
      int colon = line.indexOf(':');
      if (colon < 0) {
        continue;
      }
      first.putIfAbsent(line.substring(0, colon).strip(), line.substring(colon + 1).strip());
    }
    String name = first.get("model name");
    if (name != null && !name.isEmpty()) {
      return name;
    }
    String implementer = first.get("CPU implementer");
    String part = first.get("CPU part");
    if (implementer != null && part != null) {
      return "arm implementer " + implementer + " part " + part;
    }
    String hardware = first.get("Hardware");
    return hardware != null && !hardware.isEmpty() ? hardware : UNKNOWN;
  }
}
