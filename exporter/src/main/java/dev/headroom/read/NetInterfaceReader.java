package dev.headroom.read;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * Reads interfaces from a sysfs tree; the root is a setting so fixture trees stand in for {@code /sys}.
 * Counters are read every time; mtu, operstate, the datapath marker and speed are re-read when the
 * ifindex changes or after ten seconds. One instance per reading thread.
 *
 * <p>On a real sysfs mount the ifindex and counter files of an interface are opened once and re-read from
 * offset 0 each sample (nine reads, no opens): sysfs formats an attribute afresh on each such read, never
 * replaces the file, and fails every read with "No such device" once the interface is removed, so a removed
 * or recreated interface is noticed at the next read, which opens the files again and finds the new ifindex.
 * A fixture tree is not sysfs (its files are replaced on every change, and a held descriptor would keep the
 * old one), so there every read opens its files.
 *
 * <p>Usage: {@code InterfaceReading wt0 = new NetInterfaceReader(Path.of("/sys")).read("wt0", System.nanoTime());}
 */
public final class NetInterfaceReader {
  /** How long the slow-changing attributes (mtu, operstate, the WireGuard marker, speed) are trusted. */
  static final long ATTRIBUTES_TTL_NANOS = 10_000_000_000L;

  private final Path classNet;
  private final CounterFileReader counters = new CounterFileReader();
  private final java.util.Map<String, Attributes> cache = new java.util.HashMap<>();
  /** The root is a sysfs mount, where held descriptors stay valid (see class comment). */
  private final boolean holdOpen;
  /** Per interface: ifindex then the counters in {@link InterfaceCounters#FILES} order, open. */
  private final java.util.Map<String, FileChannel[]> held = new java.util.HashMap<>();
  /** Scratch for one read; {@link InterfaceCounters} copies what it keeps. */
  private final long[] scratch = new long[InterfaceCounters.FILES.length];

  /** What changes only when the interface is recreated or reconfigured: re-read by ifindex or age. */
  private record Attributes(int ifindex, int mtu, String operstate, boolean wireguard, OptionalInt threaded,
      java.util.OptionalLong speedMbps, long readAtNanos) {
    InterfaceReading reading(String name, long[] counters) {
      return new InterfaceReading(name, true, ifindex, mtu, operstate, InterfaceCounters.of(counters), speedMbps,
          wireguard, threaded);
    }
  }

  public NetInterfaceReader(Path sysfsRoot) {
    this.classNet = sysfsRoot.resolve("class/net");
    this.holdOpen = KernelFile.isKernelMount(classNet);
  }

  /**
   * Reads one interface. A missing interface is a normal reading ({@link InterfaceReading#absent}); a
   * present interface with unreadable or malformed counters is an error naming the file. {@code nowNanos} is
   * the time the sample is stamped with, which ages the cached attributes: the reader asks no clock of its own,
   * so every reading in a sample stands at that one time.
   */
  public InterfaceReading read(String name, long nowNanos) throws ReadException {
    FileChannel[] h = held.get(name);
    if (h != null) {
      try {
        return readHeld(name, h, nowNanos);
      } catch (IOException e) {
        // Removed or recreated (ENODEV), or unreadable: open afresh, which tells which it was.
        release(name);
      }
    }
    InterfaceReading r = readOpening(name, nowNanos);
    if (holdOpen && r.present()) {
      hold(name);
    }
    return r;
  }

  private InterfaceReading readHeld(String name, FileChannel[] h, long now) throws IOException {
    Path dir = classNet.resolve(name);
    int ifindex = (int) counters.readUnsigned(h[0], dir);
    for (int i = 0; i < scratch.length; i++) {
      scratch[i] = counters.readUnsigned(h[i + 1], dir);
    }
    return attributes(name, dir, ifindex, now).reading(name, scratch);
  }

  /** The interface's attributes, from the cache while its ifindex is the same and they are fresh. */
  private Attributes attributes(String name, Path dir, int ifindex, long now) throws IOException {
    Attributes a = cache.get(name);
    if (a == null || a.ifindex() != ifindex || now - a.readAtNanos() >= ATTRIBUTES_TTL_NANOS) {
      a = readAttributes(dir, ifindex, now);
      cache.put(name, a);
    }
    return a;
  }

  /** Opens the interface's ifindex and counter files for the next reads; on any failure, holds none. */
  private void hold(String name) {
    Path dir = classNet.resolve(name);
    FileChannel[] h = new FileChannel[InterfaceCounters.FILES.length + 1];
    try {
      h[0] = Sysfs.open(dir.resolve("ifindex"));
      for (int i = 0; i < InterfaceCounters.FILES.length; i++) {
        h[i + 1] = Sysfs.open(dir.resolve("statistics").resolve(InterfaceCounters.FILES[i]));
      }
      held.put(name, h);
    } catch (IOException e) {
      closeAll(h);
    }
  }

  private void release(String name) {
    closeAll(held.remove(name));
    cache.remove(name);
  }

  private static void closeAll(FileChannel[] h) {
    if (h == null) {
      return;
    }
    for (FileChannel c : h) {
      if (c != null) {
        try {
          c.close();
        } catch (IOException ignored) {
          // a descriptor of a removed interface: nothing left to release
        }
      }
    }
  }

  private InterfaceReading readOpening(String name, long now) throws ReadException {
    Path dir = classNet.resolve(name);
    if (!Files.isDirectory(dir)) {
      return InterfaceReading.absent(name);
    }
    try {
      int ifindexBefore = (int) counters.readUnsigned(dir.resolve("ifindex"));
      Path stats = dir.resolve("statistics");
      for (int i = 0; i < scratch.length; i++) {
        scratch[i] = counters.readUnsigned(stats.resolve(InterfaceCounters.FILES[i]));
      }
      Attributes a = attributes(name, dir, ifindexBefore, now);
      // The interface can be recreated while we read it (NetBird restart); a changed ifindex means the
      // counters may mix two interfaces, so the caller must treat this reading as a restart.
      int ifindexAfter = (int) counters.readUnsigned(dir.resolve("ifindex"));
      if (ifindexAfter != ifindexBefore) {
        cache.remove(name);
        throw new ReadException(dir + ": interface was recreated while being read");
      }
      return a.reading(name, scratch);
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
    Optional<String> t = Sysfs.readOptional(dir.resolve("threaded"));
    OptionalInt threaded = t.isPresent() ? OptionalInt.of((int) Sysfs.parseSigned(t.get(), dir.resolve("threaded")))
        : OptionalInt.empty();
    return new Attributes(ifindex, mtu, operstate, wg, threaded, Sysfs.readSpeedMbps(dir.resolve("speed")), now);
  }

  public static boolean isWireguardUevent(String uevent) {
    return uevent.lines().map(String::strip).anyMatch("DEVTYPE=wireguard"::equals);
  }
}
