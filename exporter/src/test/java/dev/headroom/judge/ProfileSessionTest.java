package dev.headroom.judge;

import static dev.headroom.sample.Direction.DOWNLOAD;
import static dev.headroom.sample.Direction.UPLOAD;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.headroom.sample.PerDirection;
import dev.headroom.cmd.ProfileCommand;
import dev.headroom.read.Datapath;
import dev.headroom.sample.Direction;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Arrays;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The profile's state machine fed synthetic steps: 15 one-second samples per step (5 s settle, 10 s measured). */
class ProfileSessionTest {
  private static final double GBPS = Units.BYTES_PER_GBPS;
  private static final PerDirection<Double> UNKNOWN = new PerDirection<>(Double.NaN, Double.NaN);

  /** A peer under one step of load: rates in Gbps with +-3 % noise, the cores and the underlay as given. */
  private static final class Peer {
    final ProfileSession session;
    final Random noise = new Random(14);
    double t;
    double[] busy = {0.5, 0.5};
    double txUtil = 0.1;
    double rxUtil = 0.01;
    double allowedBusy = Double.NaN;
    double packetBytes = Double.NaN;

    Peer(ProfileSession session) {
      this.session = session;
    }

    /** Begins a step at the current time and samples it until it is measured. */
    Peer step(double downGbps, double upGbps) {
      session.beginStep(t);
      while (session.phase() == ProfileSession.Phase.SETTLING || session.phase() == ProfileSession.Phase.MEASURING) {
        t += 1;
        double down = jitter(downGbps) * GBPS;
        double up = jitter(upGbps) * GBPS;
        session.add(new ProfileSession.Interval(t, new PerDirection<>(down, up),
            new PerDirection<>(down / packetBytes, up / 64), busy, new PerDirection<>(txUtil, rxUtil), allowedBusy,
            Double.NaN, Double.NaN, Double.NaN));
      }
      return this;
    }

    double jitter(double v) {
      return v * (1 + 0.06 * (noise.nextDouble() - 0.5));
    }
  }

  /** What {@code headroom profile} prints for the direction. */
  private static String said(ProfileSession s, Direction d) {
    return ProfileCommand.summary(s, s.result(d));
  }

  private static double[] cores(int n, double busy) {
    double[] b = new double[n];
    Arrays.fill(b, busy);
    return b;
  }

  /** A session without a CPU quota, at the default step settings. */
  private static ProfileSession session(Datapath datapath, int cores, int tunnelMtu) {
    return new ProfileSession(datapath, cores, Double.NaN, tunnelMtu, ProfileSession.Settings.forInterval(1, 8, Thresholds.defaults()));
  }

  @Test
  void aFlatStepAfterClientOneThenARiseAfterClientTwoDoesNotStopEarly() {
    Peer p = new Peer(session(Datapath.USERSPACE, 2, 1280));
    p.step(0.20, 0.005).step(0.20, 0.005);
    assertEquals(ProfileSession.Phase.STEP_MEASURED, p.session.phase(), "one flat step after client 1 is no plateau");
    assertFalse(p.session.done());
    p.step(0.30, 0.007);
    assertEquals(ProfileSession.Phase.STEP_MEASURED, p.session.phase());
    p.step(0.31, 0.007);
    assertFalse(p.session.done(), "one flat step since the last rise");
    p.step(0.30, 0.007);
    assertEquals(ProfileSession.Phase.PLATEAU, p.session.phase());
    ProfileSession.DirectionResult down = p.session.result(DOWNLOAD);
    assertTrue(down.measured());
    assertEquals(0.31, Units.gbps(down.bytesPerSecond()), 0.31 * 0.03);
    assertTrue(said(p.session, DOWNLOAD).contains("after 5 steps"), said(p.session, DOWNLOAD));
  }

  @Test
  void theProfileRecordsThePacketSizeItsPlateauCarried() {
    Peer p = new Peer(session(Datapath.USERSPACE, 2, 1280));
    p.busy = cores(2, 0.95);
    p.packetBytes = 300;
    p.step(0.05, 0.001).step(0.1, 0.002).step(0.101, 0.002).step(0.1, 0.002);
    ProfileSession.DirectionResult down = p.session.result(DOWNLOAD);
    assertTrue(down.measured());
    assertEquals(300, down.packetBytes(), 1);
    assertEquals(300, p.session.toProfile(java.time.Instant.EPOCH).orElseThrow().packetBytes(DOWNLOAD), 1);
    assertTrue(said(p.session, DOWNLOAD).contains("in 300-byte packets"), said(p.session, DOWNLOAD));
  }

  @Test
  void aTruePlateauStopsWithTheBestStepAsTheCeilingAndAllCoresBusyIsCpu(@TempDir Path dir) throws IOException {
    Peer p = new Peer(session(Datapath.KERNEL, 4, 1280));
    p.busy = cores(4, 0.95);
    p.step(1.0, 0.02).step(2.0, 0.04).step(2.05, 0.04).step(2.02, 0.04);
    assertTrue(p.session.done());
    ProfileSession.DirectionResult down = p.session.result(DOWNLOAD);
    assertEquals(2.05, Units.gbps(down.bytesPerSecond()), 2.05 * 0.03);
    assertEquals(Cause.CORES_SATURATED, down.limit());

    MeasuredProfile written = p.session.toProfile(Instant.EPOCH).orElseThrow();
    Path f = dir.resolve("ceiling.properties");
    ProfileFile.write(f, written);
    Observation o = Observation.builder(Datapath.KERNEL, 4).build();
    Ceiling c = CeilingSelector.select(o, ProfileFile.read(f), ConfigCeilings.NONE, Map.of(), CostModel.Estimate.NONE, DOWNLOAD);
    assertEquals(CeilingSource.PROFILE, c.source());
    assertEquals(down.bytesPerSecond(), c.bytesPerSecond(), 1.0);
  }

  @Test
  void theAckStreamOfADownloadTestIsNotWrittenAndAnEarlierUploadCeilingIsKept() {
    Peer p = new Peer(session(Datapath.KERNEL, 4, 1280));
    p.busy = cores(4, 0.95);
    // Upload rises with every step too (more clients, more ACKs), at ~3 % of download.
    p.step(1.0, 0.03).step(2.0, 0.06).step(2.05, 0.062).step(2.02, 0.061);
    ProfileSession.DirectionResult up = p.session.result(UPLOAD);
    assertEquals(ProfileSession.Outcome.NOT_DRIVEN, up.outcome());
    assertTrue(said(p.session, UPLOAD).contains("ACK stream"), said(p.session, UPLOAD));
    assertEquals(java.util.List.of(DOWNLOAD), p.session.driven());
    MeasuredProfile now = p.session.toProfile(Instant.EPOCH).orElseThrow();
    assertTrue(now.ceiling(UPLOAD).isEmpty());

    MeasuredProfile earlier = MeasuredProfiles.withoutPacketSizes(OptionalDouble.of(1.0 * GBPS), Cause.CORES_SATURATED, OptionalDouble.of(1.4 * GBPS),
        Cause.LINK_FULL, 4, Datapath.KERNEL, 1280, Instant.EPOCH);
    MeasuredProfile merged = now.keepingFrom(earlier);
    assertEquals(1.4 * GBPS, merged.ceiling(UPLOAD).getAsDouble(), 1e-6, "the undriven direction keeps its ceiling");
    assertEquals(Cause.LINK_FULL, merged.limit(UPLOAD));
    assertEquals(now.ceiling(DOWNLOAD), merged.ceiling(DOWNLOAD), "the driven direction is the new measurement");
    MeasuredProfile otherMachine = MeasuredProfiles.withoutPacketSizes(OptionalDouble.empty(), Cause.ROOM,
        OptionalDouble.of(1.4 * GBPS), Cause.LINK_FULL, 8, Datapath.KERNEL, 1280, Instant.EPOCH);
    assertTrue(now.keepingFrom(otherMachine).ceiling(UPLOAD).isEmpty(), "another core count is another machine");
  }

  @Test
  void bothDirectionsDrivenMustBothPlateau() {
    Peer p = new Peer(session(Datapath.KERNEL, 4, 1280));
    p.step(1.0, 0.8).step(1.0, 1.2).step(1.0, 1.5);
    assertFalse(p.session.done(), "download is flat but upload still rises");
    p.step(1.0, 1.52).step(1.0, 1.5);
    assertTrue(p.session.done());
    assertTrue(p.session.result(DOWNLOAD).measured() && p.session.result(UPLOAD).measured());
  }

  @Test
  void theUnderlayAtLineRateIsTheLink() {
    Peer p = new Peer(session(Datapath.KERNEL, 16, 1280));
    p.rxUtil = 0.95;
    p.busy = cores(16, 0.2);
    p.step(0.01, 0.9).step(0.01, 0.9).step(0.01, 0.9);
    ProfileSession.DirectionResult up = p.session.result(UPLOAD);
    assertEquals(Cause.LINK_FULL, up.limit());
    assertTrue(said(p.session, UPLOAD).contains("receive at 95%"), said(p.session, UPLOAD));
    assertEquals(ProfileSession.Outcome.NOT_DRIVEN, p.session.result(DOWNLOAD).outcome());
  }

  @Test
  void aCpuQuotaMakesFewerCoresTheWholePeer() {
    double[] busy = {0.6, 0.6, 0.6, 0.6, 0.1, 0.0, 0.0, 0.0}; // 2.5 cores of work
    Peer quota = new Peer(new ProfileSession(Datapath.KERNEL, 8, 2.5, 1280, ProfileSession.Settings.forInterval(1, 8, Thresholds.defaults())));
    quota.busy = busy;
    quota.step(1, 0.01).step(1, 0.01).step(1, 0.01);
    assertEquals(Cause.CORES_SATURATED, quota.session.result(DOWNLOAD).limit(), said(quota.session, DOWNLOAD));
    Peer free = new Peer(session(Datapath.KERNEL, 8, 1280));
    free.busy = busy;
    free.step(1, 0.01).step(1, 0.01).step(1, 0.01);
    assertEquals(Cause.ROOM, free.session.result(DOWNLOAD).limit(), "8 free cores, 2.5 busy: not the CPU");
  }

  @Test
  void onePeggedCoreWithTheOthersIdleIsOneTunnelNotThePeer() {
    Peer p = new Peer(session(Datapath.KERNEL, 32, 1280));
    p.busy = cores(32, 0.05);
    p.busy[7] = 0.98;
    p.step(3.0, 0.05).step(3.0, 0.05).step(3.05, 0.05);
    ProfileSession.DirectionResult down = p.session.result(DOWNLOAD);
    assertEquals(Cause.ONE_TUNNEL_CORE, down.limit());
    assertTrue(said(p.session, DOWNLOAD).contains("a bigger box does not"), said(p.session, DOWNLOAD));
  }

  @Test
  void aKernelPeerPastTheKneeAtTheReferenceFigureWithIdleCoresIsAtItsCeiling() {
    Peer p = new Peer(session(Datapath.KERNEL, 32, 1280));
    p.busy = cores(32, 0.25); // 8 busy cores of 32
    p.step(0.2, 10).step(0.2, 14.5).step(0.2, 14.6).step(0.2, 14.5);
    ProfileSession.DirectionResult up = p.session.result(UPLOAD);
    assertEquals(Cause.AT_CEILING, up.limit());
    // The same cores idle at a fifth of the reference figure: nothing on the peer was full.
    Peer slow = new Peer(session(Datapath.KERNEL, 32, 1280));
    slow.busy = cores(32, 0.05);
    slow.step(0.05, 3).step(0.05, 3).step(0.05, 3);
    assertEquals(Cause.ROOM, slow.session.result(UPLOAD).limit());
    assertTrue(said(slow.session, UPLOAD).contains("load generator"));
  }

  @Test
  void theProfileNamesItsLimitWithTheDaemonsThresholdsCpuSaturationIncluded() {
    // Three of four cores busy: short of the default 90 %, saturated for a peer run at --cpu.saturation=0.7.
    java.util.function.Function<Thresholds, ProfileSession> run = t -> {
      Peer p = new Peer(new ProfileSession(Datapath.KERNEL, 4, Double.NaN, 1280,
          ProfileSession.Settings.forInterval(1, 8, t)));
      p.busy = cores(4, 0.75);
      p.step(3, 0.1).step(3, 0.1).step(3, 0.1);
      return p.session;
    };
    assertEquals(Cause.ROOM, run.apply(Thresholds.defaults()).result(DOWNLOAD).limit());
    ProfileSession lower = run.apply(Thresholds.defaults().withCpuSaturation(0.7));
    assertEquals(Cause.CORES_SATURATED, lower.result(DOWNLOAD).limit());
    assertTrue(said(lower, DOWNLOAD).contains("limited by cores_saturated"), said(lower, DOWNLOAD));
  }

  @Test
  void atTheReferencePastTheKneeWithOneHotCoreIsAtItsCeilingAsTheDaemonSaysIt() {
    // The daemon's ladder: at the ceiling before one tunnel's core, whichever the profile would have named first.
    Peer p = new Peer(session(Datapath.KERNEL, 32, 1280));
    double[] busy = cores(32, 0.1);
    busy[0] = 0.97;
    p.busy = busy;
    p.step(0.2, 10).step(0.2, 14.5).step(0.2, 14.6).step(0.2, 14.5);
    assertEquals(Cause.AT_CEILING, p.session.result(UPLOAD).limit());
    assertEquals(Classifier.ladder(false, false, true, false, true, false), p.session.result(UPLOAD).limit());
  }

  @Test
  void aUserspaceDatapathPinnedToAFullCoreIsCpu() {
    Peer p = new Peer(session(Datapath.USERSPACE, 2, 1280));
    p.busy = new double[] {0.99, 0.35};
    p.allowedBusy = 0.99;
    p.step(0.25, 0.01).step(0.25, 0.01).step(0.25, 0.01);
    assertEquals(Cause.CORES_SATURATED, p.session.result(DOWNLOAD).limit(), said(p.session, DOWNLOAD));
  }

  @Test
  void runningOutOfStepsWhileStillRisingWritesNothingAndSaysToAddLoad() {
    ProfileSession s = new ProfileSession(Datapath.KERNEL, 8, Double.NaN, 1280,
        ProfileSession.Settings.forInterval(1, 4, Thresholds.defaults()));
    Peer p = new Peer(s);
    p.step(1, 0).step(2, 0).step(3, 0).step(4, 0);
    assertEquals(ProfileSession.Phase.OUT_OF_STEPS, s.phase());
    assertTrue(s.done());
    assertTrue(s.toProfile(Instant.EPOCH).isEmpty());
    assertEquals(ProfileSession.Outcome.NO_PLATEAU, s.result(DOWNLOAD).outcome());
    assertTrue(said(s, DOWNLOAD).contains("no plateau after 4 steps"), said(s, DOWNLOAD));
  }

  @Test
  void unknownRatesAreNoPointOnTheCurveAndStepsBeginOnlyWhenWanted() {
    ProfileSession s = session(Datapath.KERNEL, 2, 1280);
    assertTrue(s.wantsStep());
    assertEquals(1, s.beginStep(0));
    assertThrows(IllegalStateException.class, () -> s.beginStep(1), "the step is still settling");
    for (int t = 1; t <= 30; t++) {
      s.add(new ProfileSession.Interval(t, new PerDirection<>(Double.NaN, 0.0), UNKNOWN, new double[] {0.1, 0.1},
          new PerDirection<>(0.1, 0.1), Double.NaN, Double.NaN, Double.NaN, Double.NaN));
    }
    assertEquals(ProfileSession.Phase.SETTLING, s.phase(), "no known sample moved the step on");
    for (int t = 31; t <= 45; t++) {
      s.add(new ProfileSession.Interval(t, new PerDirection<>(1e8, 0.0), UNKNOWN, new double[] {0.1, 0.1},
          new PerDirection<>(0.1, 0.1), Double.NaN, Double.NaN, Double.NaN, Double.NaN));
    }
    assertEquals(ProfileSession.Phase.STEP_MEASURED, s.phase());
    assertEquals(0.8, Units.gbps(s.result(DOWNLOAD).bytesPerSecond()), 1e-9,
        "the step's level is the known samples' mean, the unknown ones left out");
  }

  @Test
  void theProgressAndStepLinesShowTheStepRatesGainsCoresAndUnderlay() {
    Peer p = new Peer(session(Datapath.KERNEL, 4, 1280));
    assertEquals("waiting for the first sample", ProfileCommand.progressLine(p.session));
    p.busy = new double[] {0.4, 0.98, 0.2, 0.97};
    p.txUtil = 0.52;
    p.rxUtil = 0.03;
    p.step(1, 0.01).step(1.5, 0.01);
    assertTrue(ProfileCommand.stepLine(p.session).matches(
        "step 2:  download 1\\.\\d+ Gbps \\(\\+\\d+%\\)  upload 0\\.01 Gbps"),
        ProfileCommand.stepLine(p.session));
    assertTrue(ProfileCommand.progressLine(p.session).matches(
        "30s  step 2 measured  download 1\\.\\d+ Gbps  upload 0\\.01 Gbps  busiest cores 98% 97% 40%  underlay tx 52% rx 3%"),
        ProfileCommand.progressLine(p.session));
  }

  @Test
  void theCostOfAnArmIsReadOverItsPlateau() {
    ProfileSession s = session(Datapath.KERNEL, 2, 1280);
    assertTrue(s.cost().isEmpty());
    double t = 0;
    for (double gbps : new double[] {0.1, 0.2, 0.2, 0.2}) {
      s.beginStep(t);
      for (int i = 0; i < 15; i++) {
        t += 1;
        // 0.2 cores user, 0.1 system, 0.05 softirq per 0.1 Gbps of download.
        double k = gbps / 0.1;
        s.add(new ProfileSession.Interval(t, new PerDirection<>(gbps * GBPS, 0.0), UNKNOWN, new double[] {0.5, 0.5},
            new PerDirection<>(0.1, 0.1), Double.NaN, 0.2 * k, 0.1 * k, 0.05 * k));
      }
    }
    ArmCost c = s.cost().orElseThrow();
    assertEquals(0.2, Units.gbps(c.bytesPerSecond()), 1e-9);
    assertEquals(2.0, c.userSecondsPerGbit(), 1e-9);
    assertEquals(1.0, c.systemSecondsPerGbit(), 1e-9);
    assertEquals(0.5, c.softirqSecondsPerGbit(), 1e-9);
  }

  @Test
  void anAbsentDatapathCannotBeProfiled() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> session(Datapath.ABSENT, 4, 1280));
    assertTrue(e.getMessage().contains("no tunnel datapath"));
  }
}
