package dev.headroom.judge;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.headroom.read.Datapath;
import dev.headroom.sample.PerDirection;
import dev.headroom.sample.Direction;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.OptionalDouble;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ProfileFileTest {
  @TempDir Path dir;

  private static final String GOOD = """
      download.bytes_per_second=2500000000
      download.limit=cpu
      upload.bytes_per_second=1875000000
      upload.limit=link
      measured.cores=16
      measured.datapath=kernel
      measured.mtu=1280
      measured.at=2026-11-30T02:54:45Z
      download.packet_bytes=400
      upload.packet_bytes=1180
      """;

  @Test
  void readsEveryKey() throws IOException {
    Path f = dir.resolve("ceiling.properties");
    Files.writeString(f, GOOD);
    MeasuredProfile p = ProfileFile.read(f);
    assertEquals(2.5e9, p.ceiling(Direction.DOWNLOAD).getAsDouble());
    assertEquals(1.875e9, p.ceiling(Direction.UPLOAD).getAsDouble());
    assertEquals(Cause.CORES_SATURATED, p.limit(Direction.DOWNLOAD));
    assertEquals(Cause.LINK_FULL, p.limit(Direction.UPLOAD));
    assertEquals(16, p.cores());
    assertEquals(Datapath.KERNEL, p.datapath());
    assertEquals(1280, p.tunnelMtu());
    assertEquals(Instant.parse("2026-11-30T02:54:45Z"), p.measuredAt());
    assertEquals(400, p.packetBytes(Direction.DOWNLOAD));
    assertEquals(1180, p.packetBytes(Direction.UPLOAD));
  }

  @Test
  void theMeasuredPacketSizeIsKeptAndAFileWithoutOneWasMeasuredAtFullPackets() throws IOException {
    MeasuredProfile p = new MeasuredProfile(new PerDirection<>(
        new MeasuredProfile.Measured(OptionalDouble.of(1.2e8), Cause.CORES_SATURATED, 212.4),
        new MeasuredProfile.Measured(OptionalDouble.empty(), Cause.ROOM, Double.NaN)),
        2, Datapath.USERSPACE, 1280, Instant.parse("2026-01-02T03:04:05Z"));
    Path f = dir.resolve("ceiling.properties");
    ProfileFile.write(f, p);
    MeasuredProfile read = ProfileFile.read(f);
    assertEquals(212, read.packetBytes(Direction.DOWNLOAD), "recorded to the byte");
    Files.writeString(f, Files.readString(f).replaceAll("(?m)^download\\.packet_bytes=.*\\n", ""));
    assertEquals(1280, ProfileFile.read(f).packetBytes(Direction.DOWNLOAD), "unrecorded: the tunnel MTU");
  }

  @Test
  void aLimitIsWrittenInTheDaemonsWordsAndTheOlderWordsStillRead() throws IOException {
    MeasuredProfile p = MeasuredProfiles.withoutPacketSizes(OptionalDouble.of(2.5e9), Cause.CORES_SATURATED, OptionalDouble.of(1e9),
        Cause.ONE_TUNNEL_CORE, 16, Datapath.KERNEL, 1280, Instant.parse("2026-01-02T03:04:05Z"));
    Path f = dir.resolve("ceiling.properties");
    ProfileFile.write(f, p);
    String text = Files.readString(f);
    assertTrue(text.contains("download.limit=cores_saturated") && text.contains("upload.limit=one_tunnel_core"), text);
    Files.writeString(f, text.replace("cores_saturated", "cpu").replace("one_tunnel_core", "single_tunnel"));
    assertEquals(p, ProfileFile.read(f), "a file written before reads the same");
  }

  @Test
  void writeThenReadGivesTheSameProfileAndAMissingDirectionStaysMissing() throws IOException {
    MeasuredProfile p = MeasuredProfiles.withoutPacketSizes(OptionalDouble.empty(), Cause.ROOM, OptionalDouble.of(4.0e8),
        Cause.CORES_SATURATED, 2, Datapath.USERSPACE, 1280, Instant.parse("2026-01-02T03:04:05Z"));
    Path f = dir.resolve("sub/dir/ceiling.properties");
    ProfileFile.write(f, p);
    assertEquals(p, ProfileFile.read(f));
    assertTrue(!Files.readString(f).contains("download."));
  }

  @Test
  void aMissingFileIsEmptyForReadIfPresentAndAnErrorForRead() throws IOException {
    Path f = dir.resolve("none.properties");
    assertTrue(ProfileFile.readIfPresent(f).isEmpty());
    assertThrows(NoSuchFileException.class, () -> ProfileFile.read(f));
  }

  @ParameterizedTest(name = "{0}={1} is rejected naming {0}")
  @CsvSource({
      "download.bytes_per_second,fast", "download.bytes_per_second,-5", "download.limit,disk",
      "measured.cores,sixteen", "measured.cores,0", "measured.datapath,absent", "measured.mtu,1280.5",
      "measured.at,yesterday", "download.packet_bytes,big", "download.packet_bytes,1500", "upload.packet_bytes,12"})
  void badContentNamesTheKey(String key, String value) throws IOException {
    Path f = dir.resolve("bad.properties");
    Files.writeString(f, GOOD.replaceAll("(?m)^" + key.replace(".", "\\.") + "=.*$", key + "=" + value));
    ProfileFileException e = assertThrows(ProfileFileException.class, () -> ProfileFile.read(f));
    assertTrue(e.getMessage().contains("key " + key + ": ") && e.getMessage().contains(value) && e.getMessage().contains(f.toString()),
        e.getMessage());
  }

  @ParameterizedTest(name = "missing {0}")
  @CsvSource({"measured.cores", "measured.datapath", "measured.mtu"})
  void aMissingConditionNamesTheKey(String key) throws IOException {
    Path f = dir.resolve("bad.properties");
    Files.writeString(f, GOOD.replaceAll("(?m)^" + key.replace(".", "\\.") + "=.*$\\n", ""));
    ProfileFileException e = assertThrows(ProfileFileException.class, () -> ProfileFile.read(f));
    assertTrue(e.getMessage().contains("key " + key + ": ") && e.getMessage().contains("missing"), e.getMessage());
  }

  @Test
  void aFileWithNoCeilingAtAllIsRejected() throws IOException {
    Path f = dir.resolve("empty.properties");
    Files.writeString(f, "measured.cores=4\nmeasured.datapath=kernel\nmeasured.mtu=1280\n");
    ProfileFileException e = assertThrows(ProfileFileException.class, () -> ProfileFile.read(f));
    assertTrue(e.getMessage().contains("bytes_per_second"), e.getMessage());
  }
}
