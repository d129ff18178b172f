package dev.headroom.judge;

import static dev.headroom.judge.Units.bytesPerSecond;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.headroom.read.Datapath;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.function.DoubleFunction;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every input that decides a state, held on its enter threshold with noise for five minutes of 1 s samples: the
 * verdicts and advice settle (possibly stepping from one bound state to a stronger one) and never return to a
 * state they left: 0 flips.
 */
class ClassifierHysteresisTest {
  private static final double GBPS = Units.BYTES_PER_GBPS;
  private static final int FIVE_MINUTES = 300;
  /** Noise amplitude on a ratio: under half the 0.10 gap between enter and exit. */
  private static final double NOISE = 0.045;

  private static double[] cores(int n, double busy) {
    double[] b = new double[n];
    Arrays.fill(b, busy);
    return b;
  }

  private static double[] onePegged(int n, double hot, double others) {
    double[] b = cores(n, others);
    b[n - 1] = hot;
    return b;
  }

  private static Observation.Builder kernel(int n) {
    return Observation.builder(Datapath.KERNEL, n).underlayMtu(1500).lineRate(bytesPerSecond(100))
        .underlayUtilization(0.1, 0.02);
  }

  /** name, threshold, noise amplitude, observation at a value of the input. */
  static Stream<Arguments> inputs() {
    return Stream.of(
        Arguments.of("underlay utilization (link 0.90)", 0.90, NOISE, (DoubleFunction<Observation>) u ->
            kernel(16).lineRate(bytesPerSecond(10)).throughput(8 * GBPS, 0).underlayUtilization(u, 0.01)
                .coreBusy(cores(16, 0.3)).build()),
        Arguments.of("mean core busy (cpu 0.90)", 0.90, NOISE, (DoubleFunction<Observation>) b ->
            kernel(8).throughput(10 * GBPS, 0).coreBusy(cores(8, b)).build()),
        Arguments.of("traffic share (0.40)", 0.40, NOISE, (DoubleFunction<Observation>) s ->
            kernel(8).throughput((1 - s) * 10 * GBPS, s * 10 * GBPS).coreBusy(cores(8, 0.96)).build()),
        Arguments.of("others idle (0.50)", 0.50, NOISE, (DoubleFunction<Observation>) o ->
            kernel(8).throughput(2.8 * GBPS, 0.05 * GBPS).coreBusy(onePegged(8, 0.99, o)).build()),
        Arguments.of("hot core (0.90)", 0.90, NOISE, (DoubleFunction<Observation>) h ->
            kernel(8).throughput(2.8 * GBPS, 0.05 * GBPS).coreBusy(onePegged(8, h, 0.08)).build()),
        Arguments.of("busiest tunnel share (0.50)", 0.50, NOISE, (DoubleFunction<Observation>) s ->
            kernel(8).throughput(2.8 * GBPS, 0).hottestTunnel(s * 2.8 * GBPS, 0).coreBusy(onePegged(8, 0.99, 0.08))
                .build()),
        Arguments.of("utilization guard of single-tunnel (0.90)", 0.90, NOISE, (DoubleFunction<Observation>) u ->
            kernel(8).throughput(u * 13 * GBPS, 0.05 * GBPS).coreBusy(onePegged(8, 0.99, 0.08)).build()),
        Arguments.of("CPU-derived ceiling (0.90)", 0.90, NOISE, (DoubleFunction<Observation>) u ->
            kernel(32).throughput(0.3 * GBPS, u * 15 * GBPS).coreBusy(onePegged(32, 0.99, 0.25)).build()),
        Arguments.of("datapath cores for single-tunnel (0.5)", 0.5, NOISE, (DoubleFunction<Observation>) c ->
            Observation.builder(Datapath.USERSPACE, 2).underlayMtu(1500).lineRate(bytesPerSecond(1))
                .underlayUtilization(0.3, 0.0).throughput(0.3 * GBPS, 0.005 * GBPS).coreBusy(1.0, 0.2)
                .datapathCpuCores(c).build()),
        Arguments.of("traffic floor (1 MB/s), relative", 1.0, 0.09, (DoubleFunction<Observation>) r ->
            kernel(8).throughput(r * 1_000_000, 0).coreBusy(cores(8, 0.96)).build()),
        Arguments.of("userspace plateau (0.90 of 6.8 Gbps)", 0.90, NOISE, (DoubleFunction<Observation>) r ->
            Observation.builder(Datapath.USERSPACE, 16).throughput(r * 6.8 * GBPS, 0.1 * GBPS)
                .coreBusy(onePegged(16, 0.9, 0.1)).datapathCpuCores(2.5).build()));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("inputs")
  void anInputHeldOnItsThresholdWithNoiseNeverFlipsBack(String name, double threshold, double noise,
      DoubleFunction<Observation> at) {
    Classifier c = new Classifier(Thresholds.defaults());
    Random r = new Random(name.hashCode());
    List<String> states = new ArrayList<>();
    int lastChange = 0;
    for (int i = 0; i < FIVE_MINUTES; i++) {
      Judgement j = ClassifierTest.judge(c, at.apply(threshold + noise * (2 * r.nextDouble() - 1)));
      String state = j.of(dev.headroom.sample.Direction.DOWNLOAD).cause() + "/"
          + j.of(dev.headroom.sample.Direction.UPLOAD).cause() + "/" + j.adviceSet();
      if (states.isEmpty() || !states.get(states.size() - 1).equals(state)) {
        states.add(state);
        lastChange = i;
      }
    }
    Set<String> distinct = new HashSet<>(states);
    assertEquals(distinct.size(), states.size(), name + " returned to a state it left: " + states);
    // Settling is one step per condition that turns on (e.g. near-plateau advice, then one tunnel, then the
    // ceiling); each happens once, so a handful of changes is the most there can be.
    assertTrue(states.size() <= 4, name + " changed state " + (states.size() - 1) + " times, last at second "
        + lastChange + ": " + states);
  }
}
