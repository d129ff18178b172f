package dev.headroom.read;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.headroom.testing.FixtureTree;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Held descriptors on this machine's real sysfs, and none on a fixture tree whose files are replaced. */
class NetInterfaceReaderLiveTest {
  @TempDir Path dir;

  @Test
  void onTheRealSysfsCountersAreReReadThroughHeldDescriptorsAndMatchAFreshRead() throws Exception {
    NetInterfaceReader reader = new NetInterfaceReader(Path.of("/sys"));
    InterfaceReading first = reader.read("lo", System.nanoTime());
    InterfaceReading second = reader.read("lo", System.nanoTime());
    assertTrue(descriptorsOn("/net/lo/") > 0, "lo on /sys is read through held descriptors");
    Path lo = Path.of("/sys/class/net/lo");
    assertEquals(Integer.parseInt(Files.readString(lo.resolve("ifindex")).strip()), second.ifindex());
    long freshRx = Long.parseUnsignedLong(Files.readString(lo.resolve("statistics/rx_bytes")).strip());
    assertTrue(Long.compareUnsigned(first.counters().rxBytes(), second.counters().rxBytes()) <= 0);
    assertTrue(Long.compareUnsigned(second.counters().rxBytes(), freshRx) <= 0,
        "a held read is never ahead of a fresh read taken after it");
  }

  @Test
  void onAFixtureTreeEveryReadOpensItsFilesSoAReplacedCounterIsSeen() throws Exception {
    FixtureTree tree = FixtureTree.copy("kernel", dir.resolve("tree"));
    NetInterfaceReader reader = new NetInterfaceReader(tree.sys());
    long before = reader.read("wt0", System.nanoTime()).counters().txBytes();
    tree.traffic("wt0", 1000, 1, 0, 0);
    assertEquals(0, descriptorsOn(tree.sys().toRealPath().toString()), "no descriptor is held on the fixture tree");
    assertEquals(before + 1000, reader.read("wt0", System.nanoTime()).counters().txBytes());
  }

  /** This process's open descriptors whose target path contains {@code part}, from /proc/self/fd. */
  private static long descriptorsOn(String part) throws IOException {
    try (Stream<Path> fds = Files.list(Path.of("/proc/self/fd"))) {
      return fds.filter(fd -> {
        try {
          return Files.readSymbolicLink(fd).toString().contains(part);
        } catch (IOException gone) {
          return false; // closed while listing (the listing's own descriptor among them)
        }
      }).count();
    }
  }
}
