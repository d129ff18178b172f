package dev.headroom.read;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A kernel file is read whole up to its bound, and a longer one is refused, whatever the buffer's growth. */
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
}
