package dev.headroom.read;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A kernel file is read whole up to its bound, and a longer one is refused, whatever the buffer's growth. On a
 * real procfs or sysfs the file is held open and read again at offset 0; under a fixture tree, whose files are
 * replaced when they change, it is opened for each read: both sides are tested here.
 */
class KernelFileTest {
  @TempDir Path dir;

  private int read(int size, int maxBytes) throws Exception {
    Path f = dir.resolve("f" + size + "-" + maxBytes);
    Files.writeString(f, "x".repeat(size));
    try (KernelFile k = new KernelFile(f, maxBytes)) {
      return k.read();
    }
  }

  @Test
  void aFileUpToTheBoundIsReadWholeAndALongerOneIsRefused() throws Exception {
    assertEquals(100, read(100, 100));
    assertEquals(600, read(600, 600), "past the first buffer, up to the bound");
    assertEquals(1024, read(1024, 4096), "exactly two buffers");
    for (int[] c : new int[][] {{101, 100}, {601, 600}, {5000, 600}}) {
      ReadException e = assertThrows(ReadException.class, () -> read(c[0], c[1]));
      assertTrue(e.getMessage().contains("longer than " + c[1] + " bytes"), e.getMessage());
    }
  }

  @Test
  void onProcfsTheFileIsHeldOpenAndEachReadGivesTheKernelsNewText() throws Exception {
    assertTrue(KernelFile.isKernelMount(Path.of("/proc")));
    try (KernelFile k = new KernelFile(Path.of("/proc/uptime"), 4096)) {
      String first = new String(k.bytes(), 0, k.read(), StandardCharsets.US_ASCII);
      Thread.sleep(50); // uptime counts hundredths of a second
      String second = new String(k.bytes(), 0, k.read(), StandardCharsets.US_ASCII);
      assertNotEquals(first, second, "the held descriptor reads the kernel's text afresh");
    }
  }

  @Test
  void underAFixtureTreeAFileReplacedBetweenReadsIsReadAnew() throws Exception {
    assertFalse(KernelFile.isKernelMount(dir));
    Path f = dir.resolve("stat");
    Files.writeString(f, "old");
    try (KernelFile k = new KernelFile(f, 100)) {
      assertEquals("old", new String(k.bytes(), 0, k.read(), StandardCharsets.US_ASCII));
      Path next = dir.resolve("stat.next");
      Files.writeString(next, "newer");
      Files.move(next, f, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
      assertEquals("newer", new String(k.bytes(), 0, k.read(), StandardCharsets.US_ASCII));
    }
  }
}
