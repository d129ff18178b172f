package dev.headroom.read;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * Finds the interface holding the IPv4 default route, from {@code <procfs>/net/route}.
 *
 * <p>Usage: {@code Optional<String> nic = DefaultRoute.find(Path.of("/proc"));}
 */
public final class DefaultRoute {
  private static final long RTF_UP = 0x1;

  private DefaultRoute() {}

  /**
   * Reads and parses the route table under a procfs root, line by line: a router's table can hold a
   * million routes, so it is never read whole.
   */
  public static Optional<String> find(Path procfsRoot) throws ReadException {
    Path f = procfsRoot.resolve("net/route");
    try {
      Sysfs.requireRegularFile(f);
      try (BufferedReader r = Files.newBufferedReader(f, StandardCharsets.US_ASCII)) {
        return parse(r.lines());
      }
    } catch (IOException e) {
      throw Sysfs.explain(f, e);
    } catch (UncheckedIOException e) {
      throw Sysfs.explain(f, e.getCause());
    }
  }

  /**
   * Picks the up default route (destination and mask 0) with the lowest metric; the tunnel itself never
   * counts as underlay, so callers exclude it.
   */
  static Optional<String> parse(Stream<String> lines) {
    String best = null;
    long bestMetric = Long.MAX_VALUE;
    for (String line : (Iterable<String>) lines.skip(1)::iterator) {
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
