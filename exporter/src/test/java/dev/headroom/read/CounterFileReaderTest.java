package dev.headroom.read;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CounterFileReaderTest {
  @TempDir Path dir;
  private final CounterFileReader reader = new CounterFileReader();

  private long read(String content) throws Exception {
    Path f = dir.resolve("tx_bytes");
    Files.writeString(f, content);
    return reader.readUnsigned(f);
  }

  @Test
  void readsCountersAndReusesItsBufferAcrossFiles() throws Exception {
    assertEquals(123456789L, read("123456789\n"));
    assertEquals(7L, read("7\n"));
    assertEquals(0L, read("0"));
  }

  @Test
  void theTopOf64BitsIsKeptAndOneMoreIsRejected() throws Exception {
    assertEquals("18446744073709551615", Long.toUnsignedString(read("18446744073709551615\n")));
    ReadException e = assertThrows(ReadException.class, () -> read("18446744073709551616\n"));
    assertTrue(e.getMessage().contains("64-bit"), e.getMessage());
  }

  @Test
  void garbageEmptyAndMissingFilesNameTheFile() {
    ReadException bad = assertThrows(ReadException.class, () -> read("12x4\n"));
    assertTrue(bad.getMessage().contains("tx_bytes") && bad.getMessage().contains("12x4"), bad.getMessage());
    assertTrue(assertThrows(ReadException.class, () -> read("\n")).getMessage().contains("empty"));
    assertThrows(ReadException.class, () -> read("-3\n"));
    ReadException missing = assertThrows(ReadException.class, () -> reader.readUnsigned(dir.resolve("nope")));
    assertTrue(missing.getMessage().contains("missing"), missing.getMessage());
  }

  @Test
  void moreDigitsThanAnyCounterHasIsRejected() {
    assertThrows(ReadException.class, () -> read("123456789012345678901234567890\n"));
  }

  @Test
  void aFifoInACountersPlaceIsRefusedWithoutOpeningIt() throws Exception {
    Path fifo = dir.resolve("rx_bytes");
    mkfifo(fifo);
    // No writer ever opens it: opening it for reading would wait forever, so a hang here is the failure.
    ReadException e = assertTimeoutPreemptively(java.time.Duration.ofSeconds(30), () ->
        assertThrows(ReadException.class, () -> reader.readUnsigned(fifo)));
    assertTrue(e.getMessage().contains("rx_bytes") && e.getMessage().contains("not a regular file"), e.getMessage());
    ReadException whole = assertTimeoutPreemptively(java.time.Duration.ofSeconds(30), () ->
        assertThrows(ReadException.class, () -> Sysfs.read(fifo)));
    assertTrue(whole.getMessage().contains("not a regular file"), whole.getMessage());
  }

  @Test
  void aFortyMegabyteAttributeIsAnErrorNotAHeapFull() throws Exception {
    Path uevent = dir.resolve("uevent");
    try (var out = Files.newOutputStream(uevent)) {
      byte[] line = "DEVTYPE=wireguard\n".repeat(1000).getBytes(java.nio.charset.StandardCharsets.US_ASCII);
      for (long n = 0; n < 40L * 1024 * 1024; n += line.length) {
        out.write(line);
      }
    }
    ReadException e = assertThrows(ReadException.class, () -> Sysfs.read(uevent));
    assertTrue(e.getMessage().contains("uevent") && e.getMessage().contains("longer than 65536 bytes"), e.getMessage());
    assertTrue(assertThrows(ReadException.class, () -> Sysfs.readOptional(uevent)).getMessage().contains("longer than"));
  }

  static void mkfifo(Path p) throws Exception {
    Process proc = new ProcessBuilder("mkfifo", p.toString()).inheritIO().start();
    assertEquals(0, proc.waitFor(), "mkfifo " + p);
  }
}
