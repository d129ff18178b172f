package dev.headroom.judge;

import static dev.headroom.sample.Direction.DOWNLOAD;
import static dev.headroom.sample.Direction.UPLOAD;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.headroom.read.Datapath;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ProfileSessionTest {
  private static final double GBPS = Units.BYTES_PER_GBPS;

  @Test
  void aCpuLimitedDownloadRunWritesAProfileTheSelectorThenTrusts(@TempDir Path dir) throws IOException {
    ProfileSession s = new ProfileSession(Datapath.USERSPACE, 4, 1280);
    for (double[] row : Traces.read("rising_then_flat.csv")) {
      double busy = Math.min(0.99, row[1] / (6.8 * GBPS));
      s.add(new ProfileSession.Interval(row[0], row[1], 0.02 * row[1], new double[] {busy, busy, busy * 0.9, 0.1},
          0.3, 0.01));
    }
    assertTrue(s.done(), "download plateaued; upload carried only 2 % so it does not hold the run up");
    ProfileSession.DirectionResult down = s.result(DOWNLOAD);
    assertTrue(down.measured());
    assertEquals(Limit.CPU, down.limit());
    assertEquals(6.8, Units.gbps(down.bytesPerSecond()), 0.2);
    assertTrue(down.summary().contains("limited by cpu") && down.summary().contains("4 cores"), down.summary());

    MeasuredProfile p = s.toProfile(Instant.parse("2026-11-30T03:00:00Z")).orElseThrow();
    Path f = dir.resolve("ceiling.properties");
    ProfileFile.write(f, p);
    MeasuredProfile back = ProfileFile.read(f);
    assertEquals(Limit.CPU, back.downloadLimit());
    Observation o = Observation.builder(Datapath.USERSPACE, 4).build();
    Ceiling c = CeilingSelector.select(o, back, ConfigCeilings.NONE, DOWNLOAD);
    assertEquals(CeilingSource.PROFILE, c.source());
    assertEquals(down.bytesPerSecond(), c.bytesPerSecond(), 1.0);
  }

  @Test
  void aLinkLimitedUploadNamesTheLink() throws IOException {
    ProfileSession s = new ProfileSession(Datapath.KERNEL, 16, 1280);
    for (double[] row : Traces.read("noisy_flat.csv")) {
      s.add(new ProfileSession.Interval(row[0], 0, row[1], new double[] {0.3, 0.25, 0.2, 0.2}, 0.01, 0.95));
    }
    ProfileSession.DirectionResult up = s.result(UPLOAD);
    assertEquals(Limit.LINK, up.limit());
    assertTrue(up.summary().contains("receive at 95%"), up.summary());
    assertFalse(s.result(DOWNLOAD).measured());
    assertTrue(s.result(DOWNLOAD).summary().contains("not loaded"));
    MeasuredProfile p = s.toProfile(Instant.EPOCH).orElseThrow();
    assertTrue(p.ceiling(DOWNLOAD).isEmpty());
    assertEquals(Limit.LINK, p.limit(UPLOAD));
  }

  @Test
  void aRunThatNeverPlateausWritesNothingAndSaysToAddLoad() throws IOException {
    ProfileSession s = new ProfileSession(Datapath.KERNEL, 8, 1280);
    for (double[] row : Traces.read("never_flat.csv")) {
      s.add(new ProfileSession.Interval(row[0], row[1], 0, new double[] {0.5, 0.5}, 0.2, 0.01));
    }
    assertFalse(s.done());
    assertTrue(s.toProfile(Instant.EPOCH).isEmpty());
    assertTrue(s.result(DOWNLOAD).summary().contains("no plateau"), s.result(DOWNLOAD).summary());
  }

  @Test
  void neitherCoreNorLinkFullIsUnknown() {
    ProfileSession s = new ProfileSession(Datapath.KERNEL, 8, 1280);
    for (int t = 1; t <= 40; t++) {
      s.add(new ProfileSession.Interval(t, 2 * GBPS, 0, new double[] {0.4, 0.3}, 0.2, 0.01));
    }
    assertEquals(Limit.UNKNOWN, s.result(DOWNLOAD).limit());
    assertTrue(s.result(DOWNLOAD).summary().contains("load generator"));
  }

  @Test
  void theProgressLineShowsCurrentAndPeakRatesBusiestCoresAndUnderlay() {
    ProfileSession s = new ProfileSession(Datapath.KERNEL, 4, 1280);
    assertEquals("waiting for the first sample", s.progressLine());
    s.add(new ProfileSession.Interval(1, 5.4 * GBPS, 0.12 * GBPS, new double[] {0.4, 0.98, 0.2, 0.97}, 0.55, 0.03));
    s.add(new ProfileSession.Interval(2, 5.21 * GBPS, 0.1 * GBPS, new double[] {0.4, 0.98, 0.2, 0.97}, 0.52, 0.03));
    assertEquals("2s  download 5.21 Gbps (peak 5.4)  upload 0.1 Gbps (peak 0.12)  busiest cores 98% 97% 40%"
        + "  underlay tx 52% rx 3%", s.progressLine());
  }

  @Test
  void anAbsentDatapathCannotBeProfiled() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> new ProfileSession(Datapath.ABSENT, 4, 1280));
    assertTrue(e.getMessage().contains("no tunnel datapath"));
  }
}
