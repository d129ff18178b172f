package dev.headroom.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Comparator;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Writable copies of the exporter's fixture trees (packed into the benchmark jar from
 * {@code exporter/src/test/resources/fixtures}), so the sampler reads real files from any working directory.
 *
 * <p>Usage: {@code Path root = Fixtures.copy("kernel"); ... Fixtures.delete(root);}
 */
final class Fixtures {
  private Fixtures() {}

  static Path copy(String name) {
    URL url = Fixtures.class.getResource("/fixtures/" + name);
    if (url == null) {
      throw new IllegalStateException("fixture tree '" + name + "' is not in the benchmark jar");
    }
    try {
      Path into = Files.createTempDirectory("headroom-jmh-" + name);
      URI uri = url.toURI();
      if ("jar".equals(uri.getScheme())) {
        try (FileSystem fs = FileSystems.newFileSystem(uri, Map.of())) {
          copyTree(fs.provider().getPath(uri), into);
        }
      } else {
        copyTree(Path.of(uri), into);
      }
      return into;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }

  private static void copyTree(Path src, Path into) throws IOException {
    try (Stream<Path> files = Files.walk(src)) {
      for (Path p : (Iterable<Path>) files::iterator) {
        Path dst = into.resolve(src.relativize(p).toString());
        if (Files.isDirectory(p)) {
          Files.createDirectories(dst);
        } else {
          Files.copy(p, dst, StandardCopyOption.REPLACE_EXISTING);
        }
      }
    }
  }

  /** Adds {@code delta} to a sysfs counter file of the copied tree, as traffic would. */
  static void addCounter(Path root, String iface, String stat, long delta) {
    Path f = root.resolve("sys/class/net").resolve(iface).resolve("statistics").resolve(stat);
    try {
      long v = Long.parseUnsignedLong(Files.readString(f).strip());
      Files.writeString(f, Long.toUnsignedString(v + delta) + "\n");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static void delete(Path root) {
    if (root == null) {
      return;
    }
    try (Stream<Path> files = Files.walk(root)) {
      files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
