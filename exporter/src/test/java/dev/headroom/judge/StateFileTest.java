package dev.headroom.judge;

import static dev.headroom.sample.Direction.DOWNLOAD;
import static dev.headroom.sample.Direction.UPLOAD;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.headroom.read.Datapath;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class StateFileTest {
  @TempDir Path dir;

  private static final PeerShape SHAPE = new PeerShape(Datapath.USERSPACE, 1.0, 1280,
      "Intel(R) Xeon(R) Platinum 8375C CPU @ 2.90GHz");

  private static StateFile.Contents contents() {
    return new StateFile.Contents(SHAPE, Map.of(
        DOWNLOAD, new ObservedCeiling(79_375_000.5, Instant.parse("2026-12-01T20:41:07Z"), 192.0,
            ObservedCeiling.From.CPU_SATURATED, Double.NaN),
        UPLOAD, new ObservedCeiling(50_000_000, Instant.parse("2026-12-01T21:00:00Z"), 180.5,
            ObservedCeiling.From.BEAT_CEILING, Double.NaN)), CostModel.Sums.EMPTY);
  }

  @Test
  void whatIsWrittenReadsBackTheSame() throws IOException {
    Path f = dir.resolve(StateFile.NAME);
    StateFile.write(f, contents());
    assertEquals(contents(), StateFile.read(f).orElseThrow());
  }

  @Test
  void noFileIsNothingLearnedNotAnError() throws IOException {
    assertTrue(StateFile.read(dir.resolve(StateFile.NAME)).isEmpty());
  }

  @Test
  void aWriteReplacesTheFileWholeAndLeavesNoTemporaryFile() throws IOException {
    Path f = dir.resolve(StateFile.NAME);
    Files.writeString(f, "x".repeat(10_000));
    StateFile.write(f, new StateFile.Contents(SHAPE, Map.of(), CostModel.Sums.EMPTY));
    assertEquals(new StateFile.Contents(SHAPE, Map.of(), CostModel.Sums.EMPTY), StateFile.read(f).orElseThrow());
    try (var files = Files.list(dir)) {
      assertEquals(java.util.List.of(f), files.toList(), "only the state file: the temporary one was renamed");
    }
  }

  @Test
  void aFailedWriteLeavesTheOldFile() throws IOException {
    Path f = dir.resolve(StateFile.NAME);
    StateFile.write(f, contents());
    // The temporary file's name taken by a directory: the write fails before the rename.
    Files.createDirectory(dir.resolve(StateFile.NAME + ".tmp"));
    Files.writeString(dir.resolve(StateFile.NAME + ".tmp").resolve("x"), "x");
    assertThrows(IOException.class, () -> StateFile.write(f, new StateFile.Contents(SHAPE, Map.of(), CostModel.Sums.EMPTY)));
    assertEquals(contents(), StateFile.read(f).orElseThrow());
  }

  private String refused(String text) throws IOException {
    Path f = dir.resolve(StateFile.NAME);
    Files.writeString(f, text);
    IOException e = assertThrows(IOException.class, () -> StateFile.read(f));
    assertTrue(e.getMessage().startsWith("state file " + f + ": "), e.getMessage());
    return e.getMessage();
  }

  @Test
  void aCorruptFileIsRefusedSayingWhy() throws IOException {
    Path f = dir.resolve(StateFile.NAME);
    StateFile.write(f, contents());
    String whole = Files.readString(f);
    assertTrue(refused(whole.substring(0, whole.length() / 2)).contains("not JSON"));
    assertTrue(refused("").contains("not JSON"));
    assertTrue(refused(whole.replace("\"usable_cores\":1", "\"usable_cores\":-1")).contains("shape"));
    assertTrue(refused(whole.replace("cpu_saturated", "guessed")).contains("observed.download.from"));
    assertTrue(refused(whole.replaceFirst("\"bytes_per_second\":[0-9.eE+]+", "\"bytes_per_second\":\"fast\""))
        .contains("observed.download.bytes_per_second is not a number"));
  }

  @Test
  void aForeignFileIsRefusedByItsFormat() throws IOException {
    assertTrue(refused("{\"download.bytes_per_second\": 1}").contains("not a headroom state file"));
    assertTrue(refused("[1, 2]").contains("not"));
    String next = refused("{\"format\":\"headroom-observed-ceilings-2\",\"shape\":{},\"observed\":{}}");
    assertTrue(next.contains("'headroom-observed-ceilings-2'"), next);
  }

  @Test
  void aFileWithoutAnyObservedCeilingHoldsTheShapeOnly() throws IOException {
    Path f = dir.resolve(StateFile.NAME);
    StateFile.write(f, new StateFile.Contents(SHAPE, Map.of(), CostModel.Sums.EMPTY));
    StateFile.Contents c = StateFile.read(f).orElseThrow();
    assertEquals(SHAPE, c.shape());
    assertFalse(c.ceilings().containsKey(DOWNLOAD));
  }
}
