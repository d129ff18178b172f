package dev.headroom.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Comparator;
import java.util.stream.Stream;

/**
 * A writable copy of a fixture tree under {@code src/test/resources/fixtures}, with the moves a live peer
 * makes: counters advancing, the tunnel recreated or gone, cores going offline.
 *
 * <p>Usage: {@code FixtureTree t = FixtureTree.copy("userspace", tempDir); t.addCounter("wt0", "tx_bytes", 1000);}
 */
public final class FixtureTree {
  private final Path root;

  private FixtureTree(Path root) {
    this.root = root;
  }

  public static FixtureTree copy(String name, Path into) {
    try {
      copyTree(Path.of(FixtureTree.class.getResource("/fixtures/" + name).toURI()), into);
      return new FixtureTree(into);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }

  public Path sys() {
    return root.resolve("sys");
  }

  public Path proc() {
    return root.resolve("proc");
  }

  public Path netFile(String iface, String file) {
    return sys().resolve("class/net").resolve(iface).resolve(file);
  }

  public long counter(String iface, String stat) {
    return Long.parseUnsignedLong(read(netFile(iface, "statistics/" + stat)).strip());
  }

  public void setCounter(String iface, String stat, long value) {
    write(netFile(iface, "statistics/" + stat), Long.toUnsignedString(value) + "\n");
  }

  public void addCounter(String iface, String stat, long delta) {
    setCounter(iface, stat, counter(iface, stat) + delta);
  }

  /** Moves traffic through an interface: bytes and packets in both directions. */
  public void traffic(String iface, long txBytes, long txPackets, long rxBytes, long rxPackets) {
    addCounter(iface, "tx_bytes", txBytes);
    addCounter(iface, "tx_packets", txPackets);
    addCounter(iface, "rx_bytes", rxBytes);
    addCounter(iface, "rx_packets", rxPackets);
  }

  /**
   * Deletes an interface, as when NetBird stops. It is renamed away first and deleted there, so a reader sees
   * it whole or not at all, as the kernel shows it, never a directory with half its files gone.
   */
  public void removeInterface(String iface) {
    Path gone = root.resolve("gone-" + iface + "-" + System.nanoTime());
    try {
      Files.move(sys().resolve("class/net").resolve(iface), gone, StandardCopyOption.ATOMIC_MOVE);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    delete(gone);
  }

  /**
   * Recreates an interface with zeroed counters and a new ifindex, as a NetBird restart does. The new
   * interface is built aside and swapped in with two renames, so a reader never sees a half-written one
   * (only, for a moment, no interface at all, as on a real peer).
   */
  public void recreateInterface(String iface, int newIfindex) {
    Path dir = sys().resolve("class/net").resolve(iface);
    Path staging = root.resolve("staging-" + iface + "-" + newIfindex);
    try {
      copyTree(dir, staging);
      for (String s : new String[] {"rx_bytes", "tx_bytes", "rx_packets", "tx_packets", "rx_errors", "tx_errors",
          "rx_dropped", "tx_dropped"}) {
        write(staging.resolve("statistics").resolve(s), "0\n");
      }
      write(staging.resolve("ifindex"), newIfindex + "\n");
      Path gone = root.resolve("gone-" + iface + "-" + System.nanoTime());
      Files.move(dir, gone, StandardCopyOption.ATOMIC_MOVE);
      Files.move(staging, dir, StandardCopyOption.ATOMIC_MOVE);
      delete(gone);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static void copyTree(Path src, Path dst) throws IOException {
    try (Stream<Path> files = Files.walk(src)) {
      for (Path p : (Iterable<Path>) files::iterator) {
        Path d = dst.resolve(src.relativize(p).toString());
        if (Files.isDirectory(p)) {
          Files.createDirectories(d);
        } else {
          Files.copy(p, d, StandardCopyOption.REPLACE_EXISTING);
        }
      }
    }
  }

  /** Writes a file the way the kernel presents one: a reader sees the old or the new content, never half. */
  public void write(Path file, String content) {
    try {
      Files.createDirectories(file.getParent());
      Path tmp = file.resolveSibling("." + file.getFileName() + ".tmp");
      Files.writeString(tmp, content);
      Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  public String read(Path file) {
    try {
      return Files.readString(file);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * Adds time to one core's line in {@code proc/stat}, in USER_HZ ticks per mode (user, nice, system, idle,
   * iowait, irq, softirq, steal).
   */
  public void addCpuTicks(int cpu, long... ticks) {
    Path stat = proc().resolve("stat");
    StringBuilder out = new StringBuilder();
    boolean found = false;
    for (String line : read(stat).lines().toList()) {
      if (line.startsWith("cpu" + cpu + " ")) {
        String[] f = line.split("\\s+");
        StringBuilder l = new StringBuilder(f[0]);
        for (int i = 1; i < f.length; i++) {
          long add = i - 1 < ticks.length ? ticks[i - 1] : 0;
          l.append(' ').append(Long.parseLong(f[i]) + add);
        }
        line = l.toString();
        found = true;
      }
      out.append(line).append('\n');
    }
    if (!found) {
      throw new IllegalStateException("cpu" + cpu + " has no line in " + stat);
    }
    write(stat, out.toString());
  }

  /** Takes a core offline: its line leaves {@code proc/stat} and the online list is rewritten. */
  public void setOffline(int cpu, String onlineList) {
    Path stat = proc().resolve("stat");
    StringBuilder out = new StringBuilder();
    for (String line : read(stat).lines().toList()) {
      if (!line.startsWith("cpu" + cpu + " ")) {
        out.append(line).append('\n');
      }
    }
    write(stat, out.toString());
    write(sys().resolve("devices/system/cpu/online"), onlineList + "\n");
    write(sys().resolve("devices/system/cpu/cpu" + cpu + "/online"), "0\n");
  }

  /** Brings a core back with the given times (ticks), keeping lines in id order. */
  public void setOnline(int cpu, String onlineList, long... ticks) {
    Path stat = proc().resolve("stat");
    StringBuilder newLine = new StringBuilder("cpu" + cpu);
    for (int i = 0; i < 10; i++) {
      newLine.append(' ').append(i < ticks.length ? ticks[i] : 0);
    }
    StringBuilder out = new StringBuilder();
    boolean inserted = false;
    for (String line : read(stat).lines().toList()) {
      if (!inserted && line.matches("cpu\\d+ .*")) {
        int id = Integer.parseInt(line.substring(3, line.indexOf(' ')));
        if (id > cpu) {
          out.append(newLine).append('\n');
          inserted = true;
        }
      }
      if (!inserted && !line.startsWith("cpu") && line.length() > 0) {
        out.append(newLine).append('\n');
        inserted = true;
      }
      out.append(line).append('\n');
    }
    write(stat, out.toString());
    write(sys().resolve("devices/system/cpu/online"), onlineList + "\n");
    write(sys().resolve("devices/system/cpu/cpu" + cpu + "/online"), "1\n");
  }

  /** Deletes {@code p} and everything under it, if it exists. */
  public static void delete(Path p) {
    if (!Files.exists(p)) {
      return;
    }
    try (Stream<Path> s = Files.walk(p)) {
      for (Path x : (Iterable<Path>) s.sorted(Comparator.reverseOrder())::iterator) {
        Files.delete(x);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
