package dev.headroom.judge;

import dev.headroom.read.Datapath;
import dev.headroom.sample.Direction;
import dev.headroom.sample.PerDirection;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.function.ToDoubleFunction;

/**
 * The pure part of {@code headroom profile}: a state machine fed one sample per interval and told when load was
 * added ({@link #beginStep}). Each step settles, then is measured over a window; its mean rate per direction goes
 * to a {@link PlateauDetector}. The run ends when every driven direction has plateaued (two consecutive steps each
 * raising throughput by less than 5 %, by default; the ceiling is the mean of the plateau's steps) or when the
 * steps run out.
 *
 * <p>Only a driven direction is measured: one that carried at least {@link #DRIVEN_SHARE} of the other's best rate.
 * The other is the ACK stream of the test and is neither judged nor written. What limited a direction is named
 * from the whole peer over the plateau's means by the daemon's own ladder ({@link Classifier#ladder}) and
 * thresholds ({@code --cpu.saturation} included): the underlay at line rate ({@link Cause#LINK_FULL}); every
 * usable core busy, or every core a userspace datapath may run on ({@link Cause#CORES_SATURATED}); a datapath at
 * the reference figure for its size past the guide's knee ({@link Cause#AT_CEILING}); one core pegged with the
 * others idle ({@link Cause#ONE_TUNNEL_CORE}); else {@link Cause#ROOM}. It returns the facts; {@code headroom
 * profile} puts them in words.
 *
 * <p>Usage:
 * <pre>{@code
 * ProfileSession s = new ProfileSession(Datapath.KERNEL, 16, Double.NaN, 1280, ProfileSession.Settings.forInterval(1, 8, Thresholds.defaults()));
 * s.beginStep(t0);                       // client 1 started
 * s.add(new ProfileSession.Interval(t, new PerDirection<>(down, up), packets, coreBusy, new PerDirection<>(txUtil, rxUtil), allowedBusy, user, system, softirq));
 * if (s.phase() == ProfileSession.Phase.STEP_MEASURED) s.beginStep(t);   // client 2 started
 * s.toProfile(Instant.now()).ifPresent(p -> ProfileFile.write(path, p));
 * }</pre>
 */
public final class ProfileSession {
  /** A direction whose best step stayed below this was not loaded (1,000,000 B/s). */
  public static final double FLOOR_BYTES_PER_SECOND = 1_000_000;
  /** A direction carrying less than this share of the other's best step is that direction's ACK stream. */
  public static final double DRIVEN_SHARE = 0.20;

  /**
   * One sampling interval of the peer under load: its rates, per-core busy ratios and underlay use (named apart
   * from {@link dev.headroom.sample.Sample}, the whole sampler reading it is taken from).
   *
   * @param seconds    monotonic time
   * @param rate       bytes per second each direction carried; NaN when unknown
   * @param packetRate packets per second each direction carried; NaN when unknown
   * @param coreBusy   busy ratio per online core (copied); empty when the interval's CPU is unknown
   * @param util       the underlay's use on each direction's side (transmit for download); NaN when unknown
   * @param datapathAllowedBusy mean busy of the cores a userspace datapath may run on; NaN when unknown
   * @param userCores    user CPU over the interval, summed over cores, in cores; NaN when unknown
   * @param systemCores  system CPU, in cores; NaN when unknown
   * @param softirqCores softirq CPU, in cores; NaN when unknown
   */
  public record Interval(double seconds, PerDirection<Double> rate, PerDirection<Double> packetRate,
      double[] coreBusy, PerDirection<Double> util, double datapathAllowedBusy, double userCores, double systemCores,
      double softirqCores) {
    public Interval {
      coreBusy = coreBusy == null ? new double[0] : coreBusy.clone();
    }

    @Override
    public double[] coreBusy() {
      return coreBusy.clone();
    }

    public double rate(Direction d) {
      return rate.get(d);
    }

    public double packetRate(Direction d) {
      return packetRate.get(d);
    }

    /** The underlay's use on the direction's side: transmit for download, receive for upload. */
    public double util(Direction d) {
      return util.get(d);
    }
  }

  /**
   * How steps are measured and judged.
   *
   * @param settleSeconds  after load is added, this long is not measured (iperf3 ramps, TCP windows open)
   * @param measureSeconds then the step's level is the mean over this long
   * @param minSamples     samples the measured window needs
   * @param minGain        a step raising the best level by less than this adds nothing (0.05)
   * @param flatSteps      consecutive such steps that make a plateau (2)
   * @param maxSteps       steps offered before giving up without a plateau
   */
  public record Settings(double settleSeconds, double measureSeconds, int minSamples, double minGain, int flatSteps,
      int maxSteps, Thresholds thresholds) {
    /** 5 s settle and 10 s measured per step at a 1 s interval, scaled with it; 5 % gain, 2 flat steps. */
    public static Settings forInterval(double intervalSeconds, int maxSteps, Thresholds thresholds) {
      return new Settings(5 * intervalSeconds, 10 * intervalSeconds, 3, 0.05, 2, maxSteps, thresholds);
    }
  }

  /** Where the run is. */
  public enum Phase {
    /** Before the first step: no load added yet. */
    WAITING_FOR_LOAD,
    /** Load was just added; not measured yet. */
    SETTLING,
    /** The step's window is being measured. */
    MEASURING,
    /** The step is measured and more load is wanted: add the next step. */
    STEP_MEASURED,
    /** Every driven direction plateaued. */
    PLATEAU,
    /** All steps taken, and some driven direction still rose. */
    OUT_OF_STEPS
  }

  /** What became of a direction. */
  public enum Outcome {
    /** Driven, and it plateaued: the ceiling is measured. */
    MEASURED,
    /** Driven, still rising (or stopped early): the level is only a lower bound. */
    NO_PLATEAU,
    /** Not driven: idle, or only the ACK stream of the other direction. */
    NOT_DRIVEN
  }

  /**
   * The outcome for one direction, and the figures it rests on.
   *
   * @param bytesPerSecond the ceiling when measured; else the best step level (a lower bound), 0 when unloaded
   * @param limit          what stopped it rising; {@link Cause#ROOM} unless measured with something on the peer full
   * @param steps          the plateau's last step when measured, else the steps measured so far
   * @param otherBest      the other direction's best step level: a direction far below it is that one's ACK stream
   * @param on             the plateau's means the limit was named from; {@link Figures#UNKNOWN} unless measured
   * @param packetBytes    the mean packet size on the plateau (its bytes over its packets); NaN when not measured or
   *                       the packets were not counted
   */
  public record DirectionResult(Direction direction, Outcome outcome, double bytesPerSecond, Cause limit, int steps,
      double otherBest, Figures on, double packetBytes) {
    public boolean measured() {
      return outcome == Outcome.MEASURED;
    }
  }

  /**
   * Means over a plateau's samples, each NaN when unknown.
   *
   * @param underlay    the underlay's use on the direction's side
   * @param busyCores   the busy cores summed
   * @param hottest     the hottest core's busy ratio
   * @param othersBusy  the other cores' mean busy ratio
   * @param allowedBusy mean busy of the cores a userspace datapath may run on
   */
  public record Figures(double underlay, double busyCores, double hottest, double othersBusy, double allowedBusy) {
    public static final Figures UNKNOWN = new Figures(Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN);
  }

  /** One measured step: its number and the samples of its measured window. */
  private record Step(int number, List<Interval> window) {}

  private final Datapath datapath;
  private final int cores;
  private final double peerCores;
  private final int tunnelMtu;
  private final Settings settings;
  private final Map<Direction, PlateauDetector> detectors;
  private final List<Step> steps = new ArrayList<>();
  private Phase phase = Phase.WAITING_FOR_LOAD;
  private double stepStart;
  private final List<Interval> window = new ArrayList<>();
  private Interval last;

  /**
   * @param cores      online cores
   * @param quotaCores the cgroup CPU quota in cores, NaN for none: fewer usable cores than online
   */
  public ProfileSession(Datapath datapath, int cores, double quotaCores, int tunnelMtu, Settings settings) {
    this.datapath = Objects.requireNonNull(datapath, "datapath");
    if (datapath == Datapath.ABSENT) {
      throw new IllegalArgumentException("no tunnel datapath to profile (is NetBird up?)");
    }
    this.cores = cores;
    this.peerCores = Classifier.peerCores(cores, quotaCores);
    this.tunnelMtu = tunnelMtu;
    this.settings = Objects.requireNonNull(settings, "settings");
    this.detectors = Direction.each(d -> new PlateauDetector(settings.minGain(), settings.flatSteps()));
  }

  public Phase phase() {
    return phase;
  }

  /** True when the next step's load is wanted: before the first, or after a step was measured. */
  public boolean wantsStep() {
    return phase == Phase.WAITING_FOR_LOAD || phase == Phase.STEP_MEASURED;
  }

  /** Steps begun so far (the one being measured included). */
  public int stepsBegun() {
    return steps.size() + (phase == Phase.SETTLING || phase == Phase.MEASURING ? 1 : 0);
  }

  /** Load was added at {@code seconds}: step {@link #stepsBegun()} starts. Only when {@link #wantsStep()}. */
  public int beginStep(double seconds) {
    if (!wantsStep()) {
      throw new IllegalStateException("a step can begin only when the last one is measured (now " + phase + ")");
    }
    stepStart = seconds;
    window.clear();
    phase = Phase.SETTLING;
    return stepsBegun();
  }

  /** Adds a sample. A sample whose rates are unknown (NaN) is no point on the curve and is skipped. */
  public void add(Interval s) {
    if (Double.isNaN(s.rate(Direction.DOWNLOAD)) || Double.isNaN(s.rate(Direction.UPLOAD))) {
      return;
    }
    last = s;
    if (phase == Phase.SETTLING && s.seconds() > stepStart + settings.settleSeconds()) {
      phase = Phase.MEASURING;
    }
    if (phase != Phase.MEASURING) {
      return;
    }
    window.add(s);
    if (s.seconds() >= stepStart + settings.settleSeconds() + settings.measureSeconds()
        && window.size() >= settings.minSamples()) {
      finishStep();
    }
  }

  private void finishStep() {
    Step step = new Step(steps.size() + 1, List.copyOf(window));
    steps.add(step);
    window.clear();
    for (Direction d : Direction.values()) {
      detectors.get(d).addStep(mean(step.window(), s -> s.rate(d)));
    }
    List<Direction> driven = driven();
    if (!driven.isEmpty() && driven.stream().allMatch(d -> detectors.get(d).plateau().isPresent())) {
      phase = Phase.PLATEAU;
    } else if (steps.size() >= settings.maxSteps()) {
      phase = Phase.OUT_OF_STEPS;
    } else {
      phase = Phase.STEP_MEASURED;
    }
  }

  /** True once the run is over: every driven direction plateaued, or the steps ran out. */
  public boolean done() {
    return phase == Phase.PLATEAU || phase == Phase.OUT_OF_STEPS;
  }

  /** The directions driven so far: loaded, and not only the ACK stream of the other. */
  public List<Direction> driven() {
    return Arrays.stream(Direction.values()).filter(this::isDriven).toList();
  }

  private boolean isDriven(Direction d) {
    double best = detectors.get(d).best();
    return best >= FLOOR_BYTES_PER_SECOND && best >= DRIVEN_SHARE * detectors.get(d.other()).best();
  }

  public int stepsMeasured() {
    return steps.size();
  }

  /** A direction's level at measured step {@code n} (1-based). */
  public double level(Direction d, int n) {
    return detectors.get(d).levels().get(n - 1);
  }

  /** A driven direction's gain at step {@code n} over the best before it; NaN for the first and when not driven. */
  public double gain(Direction d, int n) {
    return isDriven(d) ? detectors.get(d).gain(n) : Double.NaN;
  }

  /** The last sample added; empty before the first. */
  public Optional<Interval> lastSample() {
    return Optional.ofNullable(last);
  }

  public Datapath datapath() {
    return datapath;
  }

  public int cores() {
    return cores;
  }

  /** The cores the peer may use: online, or fewer under a CPU quota. */
  public double peerCores() {
    return peerCores;
  }

  public int tunnelMtu() {
    return tunnelMtu;
  }

  public Settings settings() {
    return settings;
  }

  public DirectionResult result(Direction d) {
    PlateauDetector p = detectors.get(d);
    double otherBest = detectors.get(d.other()).best();
    Optional<PlateauDetector.Plateau> plateau = p.plateau();
    if (!isDriven(d) || plateau.isEmpty()) {
      Outcome o = isDriven(d) ? Outcome.NO_PLATEAU : Outcome.NOT_DRIVEN;
      return new DirectionResult(d, o, p.best(), Cause.ROOM, steps.size(), otherBest, Figures.UNKNOWN, Double.NaN);
    }
    List<Interval> on = plateauSamples(plateau.get());
    double rate = plateau.get().bytesPerSecond();
    Figures f = new Figures(mean(on, s -> s.util(d)), mean(on, s -> Observation.totalBusy(s.coreBusy)),
        mean(on, s -> Observation.hottest(s.coreBusy)), mean(on, s -> Observation.othersMean(s.coreBusy)),
        mean(on, Interval::datapathAllowedBusy));
    Thresholds t = settings.thresholds();
    Cause limit = Classifier.ladder(f.underlay() >= t.linkEnter(),
        allCoresBusy(f) || datapath.userspace() && f.allowedBusy() >= t.cpuEnter(),
        pastKnee() && rate >= t.ceilingEnter() * referenceBytesPerSecond(d), false,
        f.hottest() >= t.coreEnter() && f.othersBusy() < t.othersIdle(), false);
    double packets = mean(on, s -> s.packetRate(d));
    double packetBytes = packets > 0 ? Math.max(PacketSize.MIN_PACKET_BYTES, Math.min(tunnelMtu,
        mean(on, s -> s.rate(d)) / packets)) : Double.NaN;
    return new DirectionResult(d, Outcome.MEASURED, rate, limit == null ? Cause.ROOM : limit, plateau.get().step(),
        otherBest, f, packetBytes);
  }

  /** Every core the peer may use was busy on the plateau (the CPU is full whatever the datapath's affinity). */
  public boolean allCoresBusy(Figures f) {
    return f.busyCores() >= settings.thresholds().cpuEnter() * peerCores;
  }

  /** The samples of the steps on the plateau: the one that set the level and the flat ones after it. */
  private List<Interval> plateauSamples(PlateauDetector.Plateau p) {
    return steps.stream().filter(s -> s.number() >= p.firstFlatStep() - 1 && s.number() <= p.step())
        .flatMap(s -> s.window().stream()).toList();
  }

  private boolean pastKnee() {
    return ReferenceProfile.pastKnee(datapath, peerCores);
  }

  private double referenceBytesPerSecond(Direction d) {
    return ReferenceProfile.ceiling(datapath, peerCores, tunnelMtu, OptionalDouble.empty(), d).bytesPerSecond();
  }

  /**
   * What the driven directions carried and cost over the plateau's steps (or the best step without one): the
   * arm's figure for comparing with the same path without the tunnel. Empty before any step was measured.
   */
  public Optional<ArmCost> cost() {
    List<Direction> driven = driven();
    if (steps.isEmpty() || driven.isEmpty()) {
      return Optional.empty();
    }
    Direction main = driven.stream().max((a, b) -> Double.compare(detectors.get(a).best(), detectors.get(b).best()))
        .orElseThrow();
    List<Interval> on = detectors.get(main).plateau().map(this::plateauSamples).orElseGet(() -> {
      int best = detectors.get(main).levels().indexOf(detectors.get(main).best());
      return steps.get(best).window();
    });
    return Optional.of(ArmCost.of(mean(on, s -> s.rate(main)),
        mean(on, s -> s.rate(Direction.DOWNLOAD) + s.rate(Direction.UPLOAD)), mean(on, Interval::userCores),
        mean(on, Interval::systemCores), mean(on, Interval::softirqCores)));
  }

  /** The profile to write: the measured (driven and plateaued) directions; empty when none. */
  public Optional<MeasuredProfile> toProfile(Instant measuredAt) {
    PerDirection<DirectionResult> results = PerDirection.of(this::result);
    if (!results.download().measured() && !results.upload().measured()) {
      return Optional.empty();
    }
    return Optional.of(new MeasuredProfile(results.map(r -> new MeasuredProfile.Measured(
        r.measured() ? OptionalDouble.of(r.bytesPerSecond()) : OptionalDouble.empty(), r.limit(), r.packetBytes())),
        cores, datapath, tunnelMtu, measuredAt));
  }

  private static double mean(List<Interval> on, ToDoubleFunction<Interval> f) {
    return on.stream().mapToDouble(f).filter(x -> !Double.isNaN(x)).average().orElse(Double.NaN);
  }
}
