package dev.headroom.read;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * Reads interfaces from a sysfs tree; the root is a setting so fixture trees stand in for {@code /sys}.
 * Counters are read every time; mtu, operstate, the datapath markers and speed are re-read when the
 * ifindex changes or after ten seconds. One instance per reading thread.
 *
 * <p>Usage: {@code InterfaceReading wt0 = new NetInterfaceReader(Path.of("/sys")).read("wt0");}
 */
public final class NetInterfaceReader {
  /** How long the slow-changing attributes (mtu, operstate, type markers, speed) are trusted. */
  static final long ATTRIBUTES_TTL_NANOS = 10_000_000_000L;

  private final Path classNet;
  private final CounterFileReader counters = new CounterFileReader();
  private final java.util.Map<String, Attributes> cache = new java.util.HashMap<>();
  private final java.util.function.LongSupplier clock;

  /** What changes only when the interface is recreated or reconfigured: re-read by ifindex or age. */
  private record Attributes(int ifindex, int mtu, String operstate, boolean wireguard, boolean tun,
      OptionalInt threaded, java.util.OptionalLong speedMbps, long readAtNanos) {}

  public NetInterfaceReader(Path sysfsRoot) {
    this(sysfsRoot, System::nanoTime);
  }

  /** With the clock that ages the cached attributes. */
  public NetInterfaceReader(Path sysfsRoot, java.util.function.LongSupplier clock) {
    this.classNet = sysfsRoot.resolve("class/net");
    this.clock = clock;
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
      int ifindexBefore = (int) counters.readUnsigned(dir.resolve("ifindex"));
      long[] v = new long[InterfaceCounters.FILES.length];
      Path stats = dir.resolve("statistics");
      for (int i = 0; i < v.length; i++) {
        v[i] = counters.readUnsigned(stats.resolve(InterfaceCounters.FILES[i]));
      }
      Attributes a = cache.get(name);
      long now = clock.getAsLong();
      if (a == null || a.ifindex() != ifindexBefore || now - a.readAtNanos() >= ATTRIBUTES_TTL_NANOS) {
        a = readAttributes(dir, ifindexBefore, now);
        cache.put(name, a);
      }
      // The interface can be recreated while we read it (NetBird restart); a changed ifindex means the
      // counters may mix two interfaces, so the caller must treat this reading as a restart.
      int ifindexAfter = (int) counters.readUnsigned(dir.resolve("ifindex"));
      if (ifindexAfter != ifindexBefore) {
        cache.remove(name);
        throw new ReadException(dir + ": interface was recreated while being read");
      }
      return new InterfaceReading(name, true, ifindexBefore, a.mtu(), a.operstate(), InterfaceCounters.of(v),
          a.speedMbps(), a.wireguard(), a.tun(), a.threaded());
    } catch (ReadException e) {
      cache.remove(name);
      if (!Files.isDirectory(dir)) {
        return InterfaceReading.absent(name); // vanished mid-read: that is absence, not corruption
      }
      throw e;
    } catch (IOException e) {
      throw new ReadException(dir + ": " + e.getMessage(), e);
    }
  }

  private static Attributes readAttributes(Path dir, int ifindex, long now) throws IOException {
    int mtu = (int) Sysfs.parseSigned(Sysfs.read(dir.resolve("mtu")), dir.resolve("mtu"));
    String operstate = Sysfs.readOptional(dir.resolve("operstate")).map(String::strip).orElse("unknown");
    boolean wg = Sysfs.readOptional(dir.resolve("uevent")).map(NetInterfaceReader::isWireguardUevent).orElse(false);
    boolean tun = Files.exists(dir.resolve("tun_flags"));
    OptionalInt threaded = OptionalInt.empty();
    Optional<String> t = Sysfs.readOptional(dir.resolve("threaded"));
    if (t.isPresent()) {
      threaded = OptionalInt.of((int) Sysfs.parseSigned(t.get(), dir.resolve("threaded")));
    }
    return new Attributes(ifindex, mtu, operstate, wg, tun, threaded, Sysfs.readSpeedMbps(dir.resolve("speed")), now);
  }

  /** True when a uevent text declares a kernel WireGuard device. */
  public static boolean isWireguardUevent(String uevent) {
    return uevent.lines().map(String::strip).anyMatch("DEVTYPE=wireguard"::equals);
  }
}
