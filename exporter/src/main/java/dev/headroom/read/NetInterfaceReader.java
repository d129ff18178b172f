package dev.headroom.read;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * Reads interfaces from a sysfs tree; the root is a setting so fixture trees stand in for {@code /sys}.
 *
 * <p>Usage: {@code InterfaceReading wt0 = new NetInterfaceReader(Path.of("/sys")).read("wt0");}
 */
public final class NetInterfaceReader {
  private final Path classNet;

  public NetInterfaceReader(Path sysfsRoot) {
    this.classNet = sysfsRoot.resolve("class/net");
  }

  /**
   * Reads one interface. A missing interface is a normal reading ({@link InterfaceReading#absent}); a
   * present interface with unreadable or malformed counters is an error naming the file.
   */
  public InterfaceReading read(String name) throws ReadException {
    Path dir = classNet.resolve(name);
    if (!Files.isDirectory(dir)) {
      return InterfaceReading.absent(name);
    }
    try {
      int ifindexBefore = (int) Sysfs.parseSigned(Sysfs.read(dir.resolve("ifindex")), dir.resolve("ifindex"));
      long[] v = new long[InterfaceCounters.FILES.length];
      Path stats = dir.resolve("statistics");
      for (int i = 0; i < v.length; i++) {
        v[i] = Sysfs.readUnsigned(stats.resolve(InterfaceCounters.FILES[i]));
      }
      int mtu = (int) Sysfs.parseSigned(Sysfs.read(dir.resolve("mtu")), dir.resolve("mtu"));
      String operstate = Sysfs.readOptional(dir.resolve("operstate")).map(String::strip).orElse("unknown");
      Optional<String> uevent = Sysfs.readOptional(dir.resolve("uevent"));
      boolean wg = uevent.map(NetInterfaceReader::isWireguardUevent).orElse(false);
      boolean tun = Files.exists(dir.resolve("tun_flags"));
      OptionalInt threaded = OptionalInt.empty();
      Optional<String> t = Sysfs.readOptional(dir.resolve("threaded"));
      if (t.isPresent()) {
        threaded = OptionalInt.of((int) Sysfs.parseSigned(t.get(), dir.resolve("threaded")));
      }
      // The interface can be recreated while we read it (NetBird restart); a changed ifindex means the
      // counters may mix two interfaces, so the caller must treat this reading as a restart.
      int ifindexAfter = (int) Sysfs.parseSigned(Sysfs.read(dir.resolve("ifindex")), dir.resolve("ifindex"));
      if (ifindexAfter != ifindexBefore) {
        throw new ReadException(dir + ": interface was recreated while being read");
      }
      return new InterfaceReading(
          name,
          true,
          ifindexBefore,
          mtu,
          operstate,
          InterfaceCounters.of(v),
          Sysfs.readSpeedMbps(dir.resolve("speed")),
          wg,
          tun,
          threaded);
    } catch (ReadException e) {
      if (!Files.isDirectory(dir)) {
        return InterfaceReading.absent(name); // vanished mid-read: that is absence, not corruption
      }
      throw e;
    } catch (IOException e) {
      throw new ReadException(dir + ": " + e.getMessage(), e);
    }
  }

  /** True when a uevent text declares a kernel WireGuard device. */
  public static boolean isWireguardUevent(String uevent) {
    return uevent.lines().map(String::strip).anyMatch("DEVTYPE=wireguard"::equals);
  }
}
