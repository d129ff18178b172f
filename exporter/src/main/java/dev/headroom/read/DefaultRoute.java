package dev.headroom.read;

import java.nio.file.Path;
import java.util.Optional;

/**
 * Finds the interface holding the IPv4 default route, from {@code <procfs>/net/route}.
 *
 * <p>Usage: {@code Optional<String> nic = DefaultRoute.parse(Files.readString(procfs.resolve("net/route")));}
 */
public final class DefaultRoute {
  private static final long RTF_UP = 0x1;

  private DefaultRoute() {}

  /** Reads and parses the route table under a procfs root. */
  public static Optional<String> find(Path procfsRoot) throws ReadException {
    return parse(Sysfs.read(procfsRoot.resolve("net/route")));
  }

  /**
   * Picks the up default route (destination and mask 0) with the lowest metric; the tunnel itself never
   * counts as underlay, so callers exclude it.
   */
  public static Optional<String> parse(String routeTable) {
    String best = null;
    long bestMetric = Long.MAX_VALUE;
    for (String line : routeTable.lines().skip(1).toList()) {
      String[] f = line.trim().split("\\s+");
      if (f.length < 8) {
        continue;
      }
      try {
        long flags = Long.parseLong(f[3], 16);
        long metric = Long.parseLong(f[6]);
        if ("00000000".equals(f[1]) && "00000000".equals(f[7]) && (flags & RTF_UP) != 0 && metric < bestMetric) {
          best = f[0];
          bestMetric = metric;
        }
      } catch (NumberFormatException e) {
        // a garbled line is skipped; the others still tell the answer
      }
    }
    return Optional.ofNullable(best);
  }
}
