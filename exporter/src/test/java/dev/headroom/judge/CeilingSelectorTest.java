package dev.headroom.judge;

import static dev.headroom.sample.Direction.DOWNLOAD;
import static dev.headroom.sample.Direction.UPLOAD;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.headroom.read.Datapath;
import dev.headroom.sample.PerDirection;
import dev.headroom.serve.Explainer;
import java.time.Instant;
import java.util.Map;
import java.util.OptionalDouble;
import org.junit.jupiter.api.Test;

class CeilingSelectorTest {
  private final Observation kernel16 = Observation.builder(Datapath.KERNEL, 16).build();
  private final MeasuredProfile profile16 = MeasuredProfiles.withoutPacketSizes(OptionalDouble.of(2.0e9), Cause.CORES_SATURATED,
      OptionalDouble.empty(), Cause.ROOM, 16, Datapath.KERNEL, 1280, Instant.parse("2026-11-01T00:00:00Z"));
  private final ConfigCeilings config = new ConfigCeilings(OptionalDouble.of(1.0e9), OptionalDouble.of(5.0e8));

  @Test
  void aMatchingProfileBeatsConfigAndReference() {
    Ceiling c = CeilingSelector.select(kernel16, profile16, config, Map.of(), CostModel.Estimate.NONE, DOWNLOAD);
    assertEquals(CeilingSource.PROFILE, c.source());
    assertEquals(2.0e9, c.bytesPerSecond());
    assertTrue(Explainer.basis(c).contains("16 cores") && Explainer.basis(c).contains("limited by cores_saturated"), Explainer.basis(c));
  }

  @Test
  void aDirectionTheProfileDidNotMeasureFallsToConfig() {
    Ceiling c = CeilingSelector.select(kernel16, profile16, config, Map.of(), CostModel.Estimate.NONE, UPLOAD);
    assertEquals(CeilingSource.CONFIG, c.source());
    assertEquals(5.0e8, c.bytesPerSecond());
  }

  @Test
  void aProfileStoppedByOneTunnelIsNotThePeersCeiling() {
    MeasuredProfile oneTunnel = MeasuredProfiles.withoutPacketSizes(OptionalDouble.of(3.0e8), Cause.ONE_TUNNEL_CORE,
        OptionalDouble.empty(), Cause.ROOM, 16, Datapath.KERNEL, 1280, Instant.EPOCH);
    Ceiling c = CeilingSelector.select(kernel16, oneTunnel, ConfigCeilings.NONE, Map.of(), CostModel.Estimate.NONE, DOWNLOAD);
    assertEquals(CeilingSource.REFERENCE, c.source());
    assertTrue(Explainer.basis(c).contains("one tunnel's limit, not the peer's"), Explainer.basis(c));
  }

  @Test
  void configBeatsReference() {
    Ceiling c = CeilingSelector.select(kernel16, null, config, Map.of(), CostModel.Estimate.NONE, DOWNLOAD);
    assertEquals(CeilingSource.CONFIG, c.source());
    assertEquals("config: ceiling.download = 8 Gbps", Explainer.basis(c));
  }

  @Test
  void withNothingElseTheReferenceIsUsed() {
    Ceiling c = CeilingSelector.select(kernel16, null, ConfigCeilings.NONE, Map.of(), CostModel.Estimate.NONE, UPLOAD);
    assertEquals(CeilingSource.REFERENCE, c.source());
    assertEquals(15, c.gbps(), 1e-9);
  }

  @Test
  void aProfileMeasuredUnderOtherConditionsIsIgnoredAndTheBasisSaysWhy() {
    Observation kernel8 = Observation.builder(Datapath.KERNEL, 8).build();
    Ceiling c = CeilingSelector.select(kernel8, profile16, ConfigCeilings.NONE, Map.of(), CostModel.Estimate.NONE, DOWNLOAD);
    assertEquals(CeilingSource.REFERENCE, c.source());
    assertEquals(13, c.gbps(), 1e-9);
    assertTrue(Explainer.basis(c).contains("profile measured at 16 cores, now 8"), Explainer.basis(c));

    Observation userspace = Observation.builder(Datapath.USERSPACE, 16).build();
    assertEquals(CeilingSource.CONFIG, CeilingSelector.select(userspace, profile16, config, Map.of(), CostModel.Estimate.NONE, DOWNLOAD).source());
    Observation jumbo = Observation.builder(Datapath.KERNEL, 16).tunnelMtu(8000).build();
    assertTrue(Explainer.basis(CeilingSelector.select(jumbo, profile16, config, Map.of(), CostModel.Estimate.NONE, DOWNLOAD)).contains("MTU 1280, now 8000"));
  }

  @Test
  void aProfileIsReadAtThePacketsItWasMeasuredWith() {
    // 400-byte packets carried now: a profile measured at 400 bytes holds as measured, one read as full packets shrinks.
    Observation small = Observation.builder(Datapath.KERNEL, 16).throughput(1.0e9, 0).packets(1.0e9 / 400, 0).build();
    MeasuredProfile atSmall = new MeasuredProfile(new PerDirection<>(
        new MeasuredProfile.Measured(OptionalDouble.of(2.0e9), Cause.CORES_SATURATED, 400),
        new MeasuredProfile.Measured(OptionalDouble.empty(), Cause.ROOM, Double.NaN)), 16, Datapath.KERNEL, 1280, Instant.EPOCH);
    assertEquals(2.0e9, CeilingSelector.select(small, atSmall, config, Map.of(), CostModel.Estimate.NONE, DOWNLOAD).bytesPerSecond(), 1);
    double fromFull = CeilingSelector.select(small, profile16, config, Map.of(), CostModel.Estimate.NONE, DOWNLOAD).bytesPerSecond();
    assertEquals(2.0e9 * PacketSize.scale(Datapath.KERNEL, DOWNLOAD, 1280, 400), fromFull, 1);
    assertTrue(fromFull < 0.5 * 2.0e9, "full packets cost less per byte: " + fromFull);
  }

  @Test
  void selectBothCoversEachDirection() {
    var both = CeilingSelector.selectBoth(kernel16, profile16, config, Map.of(), CostModel.Estimate.NONE);
    assertEquals(CeilingSource.PROFILE, both.get(DOWNLOAD).source());
    assertEquals(CeilingSource.CONFIG, both.get(UPLOAD).source());
  }
}
