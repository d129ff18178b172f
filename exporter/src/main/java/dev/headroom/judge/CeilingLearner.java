package dev.headroom.judge;

import dev.headroom.sample.Direction;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Learns this peer's ceilings from its own traffic, the guide's method done by the peer itself: where throughput
 * stops rising is the capacity. Each direction has episodes, runs of samples (a few missed samples do not end
 * one) in which:
 * <ul>
 *   <li>the direction is bound by saturated cores ({@link Cause#CORES_SATURATED}) while carrying at least
 *       {@link Thresholds#trafficShare()} of the traffic (so it, not the other direction, is what the CPU
 *       spends itself on);</li>
 *   <li>or it runs more than {@link #BEAT_MARGIN} times the reference (or observed) ceiling it is read
 *       against: that ceiling is wrong too.</li>
 * </ul>
 * An episode that has lasted {@code learnAfter} (minutes, not a one-second peak) sets the observed ceiling to its
 * sustained rate, the median of its sample rates, and keeps it current while it lasts; a later, higher episode
 * raises it, a lower one leaves it. A profile or configured ceiling that the peer beats the same way is reported
 * ({@link Learned.Beaten}), never replaced: it was set on purpose. Everything is keyed by the {@link PeerShape}:
 * when it changes (and stays changed for {@link #SHAPE_SETTLE_SAMPLES} samples) learning starts over.
 *
 * <p>Not thread-safe: fed by the sampling thread only; {@link #snapshot} is immutable.
 *
 * <p>Usage:
 * <pre>{@code
 * CeilingLearner l = new CeilingLearner(Duration.ofMinutes(3), Duration.ofMinutes(1), thresholds, cpuModel,
 *     StateFile.read(file).orElse(null));
 * Map<Direction, ObservedCeiling> known = l.inUse(observation);     // before judging, for the ceiling selection
 * CostModel.Estimate cost = l.cost(observation);                    // likewise
 * CeilingLearner.Update u = l.update(judgement, fallback, nanos, now); // after; save l.contents() when u.save()
 * }</pre>
 */
public final class CeilingLearner {
  /** Sustained above this many times a reference or observed ceiling, the peer proves that ceiling wrong. */
  public static final double BEAT_MARGIN = 1.2;
  /** Samples in a row without the condition that end an episode (a missed sample or a dip does not). */
  static final int GAP_SAMPLES = 3;
  /** Samples in a row a new shape must hold before learning starts over (a datapath found late is no new peer). */
  public static final int SHAPE_SETTLE_SAMPLES = 10;
  /** While an episode keeps moving the ceiling, the state file is rewritten at most this often. */
  static final long SAVE_EVERY_NANOS = 60_000_000_000L;
  /** An episode keeps at most this many rates (every other one is dropped when full): the median stays cheap. */
  static final int MAX_RATES = 4096;

  /**
   * What one update did.
   *
   * @param save        the state changed in a way worth writing now
   * @param newlyBeaten profile or config ceilings that an episode has just proven low (to be logged once)
   * @param startedOver the shape change that made learning start over; empty when none
   */
  public record Update(boolean save, Map<Direction, Learned.Beaten> newlyBeaten, Optional<Reshaped> startedOver) {
    static final Update NOTHING = new Update(false, Map.of(), Optional.empty());
  }

  /** The peer's shape before and after a change that makes learning start over. */
  public record Reshaped(PeerShape was, PeerShape now) {}

  private final long learnAfterNanos;
  private final double trafficShare;
  private final double trafficFloor;
  /** What a packet costs this peer, learned beside the observed ceilings and kept with them. */
  private final CostModel cost;
  /** The cost model learned something not yet handed out for saving. */
  private boolean costMoved;
  private final String cpuModel;
  private PeerShape shape;
  /** Committed: what ended episodes (and the state file) left. */
  private final Map<Direction, ObservedCeiling> base = new EnumMap<>(Direction.class);
  /** In use: {@link #base} raised by the episodes still running. */
  private final Map<Direction, ObservedCeiling> current = new EnumMap<>(Direction.class);
  private final Map<Direction, Episode> saturated = Direction.each(d -> new Episode());
  private final Map<Direction, Episode> beating = Direction.each(d -> new Episode());
  private final Map<Direction, Episode> beatingSet = Direction.each(d -> new Episode());
  private final Map<Direction, Learned.Beaten> beaten = new EnumMap<>(Direction.class);
  private PeerShape pending;
  private int pendingSamples;
  private boolean dirty;
  /** When the state was last handed out for saving; the first sample's time before that. */
  private long savedAt = Long.MIN_VALUE;

  /**
   * @param learnAfter   how long an episode must last before it teaches anything
   * @param costAfter    how much loaded time the cost model needs before its ceiling is used
   * @param t            the classifier's thresholds (its traffic share and floor)
   * @param cpuModel     the CPU model, part of the shape
   * @param restored     what the state file held; null for nothing
   */
  public CeilingLearner(Duration learnAfter, Duration costAfter, Thresholds t, String cpuModel,
      StateFile.Contents restored) {
    this.learnAfterNanos = learnAfter.toNanos();
    this.trafficShare = t.trafficShare();
    this.trafficFloor = t.trafficFloorBytesPerSecond();
    this.cpuModel = cpuModel;
    this.cost = new CostModel(costAfter, restored == null ? null : restored.cost());
    if (restored != null) {
      shape = restored.shape();
      base.putAll(restored.ceilings());
      current.putAll(restored.ceilings());
    }
  }

  /** What the cost model has learned of the peer of this observation; none when its shape changed. */
  public CostModel.Estimate cost(Observation o) {
    Optional<PeerShape> s = PeerShape.of(o, Classifier.usableCores(o), cpuModel);
    return s.isPresent() && s.get().sameAs(shape) ? cost.estimate(o) : CostModel.Estimate.NONE;
  }

  /** The observed ceilings that describe the peer of this observation; empty when none, or its shape changed. */
  public Map<Direction, ObservedCeiling> inUse(Observation o) {
    Optional<PeerShape> s = PeerShape.of(o, Classifier.usableCores(o), cpuModel);
    return s.isPresent() && s.get().sameAs(shape) ? Map.copyOf(current) : Map.of();
  }

  /**
   * Feeds one judgement.
   *
   * @param j        the judgement of this sample, made with the ceilings {@link #inUse} allowed
   * @param fallback per direction the ceiling the peer is held to when no profile or config is set (observed,
   *                 else reference): the one an episode beyond {@link #BEAT_MARGIN} proves wrong
   * @param nanos    the sample's monotonic time
   * @param now      the sample's wall time
   */
  public Update update(Judgement j, Map<Direction, Ceiling> fallback, long nanos, Instant now) {
    Observation o = j.observation();
    Optional<PeerShape> seen = PeerShape.of(o, j.usableCores(), cpuModel);
    if (seen.isEmpty()) {
      return endAll(nanos); // no datapath, or its shape unknown: nothing bound, nothing learned
    }
    if (shape == null) {
      shape = seen.get();
    } else if (!seen.get().sameAs(shape)) {
      if (pending == null || !seen.get().sameAs(pending)) {
        pending = seen.get();
        pendingSamples = 0;
      }
      if (++pendingSamples < SHAPE_SETTLE_SAMPLES) {
        return endAll(nanos);
      }
      Optional<Reshaped> what = Optional.of(new Reshaped(shape, seen.get()));
      boolean forgets = !current.isEmpty() || cost.sums().w() > 0;
      shape = seen.get();
      cost.reset();
      costMoved = false;
      pending = null;
      base.clear();
      current.clear();
      beaten.clear();
      saturated.values().forEach(Episode::reset);
      beating.values().forEach(Episode::reset);
      beatingSet.values().forEach(Episode::reset);
      // Nothing to forget, nothing to write: the file keeps the shape it had until something is learned.
      return forgets ? saved(nanos, new Update(true, Map.of(), what)) : new Update(false, Map.of(), what);
    }
    pending = null;
    if (savedAt == Long.MIN_VALUE) {
      savedAt = nanos; // the cost moves every sample: its first save is a save interval away, like every other
    }
    cost.feed(o, trafficFloor, nanos);
    costMoved |= cost.sums().w() > 0;

    boolean saveNow = false;
    Map<Direction, Learned.Beaten> newly = null; // made only when a set ceiling is first proven low
    double total = o.totalThroughput();
    for (Direction d : Direction.values()) {
      double rate = o.throughput(d);
      if (Double.isNaN(rate)) {
        continue; // unknown is no evidence either way
      }
      DirectionJudgement dj = j.of(d);
      boolean ended = false;

      double share = total > 0 ? rate / total : 0;
      Episode sat = saturated.get(d);
      double packet = o.carriedPacketBytes(d);
      ended |= sat.feed(dj.cause() == Cause.CORES_SATURATED && share >= trafficShare, nanos, rate, Double.NaN, packet);

      // Held to the ceiling it was read against when the episode began: the episode's own ceiling does not end it.
      Episode beat = beating.get(d);
      double against = beat.open() ? beat.against : fallback.get(d).bytesPerSecond();
      ended |= beat.feed(rate > BEAT_MARGIN * against, nanos, rate, against, packet);

      Ceiling used = dj.ceiling();
      boolean setOnPurpose = used.source() == CeilingSource.PROFILE || used.source() == CeilingSource.CONFIG;
      Episode over = beatingSet.get(d);
      over.feed(setOnPurpose && (!over.open() || over.against == used.bytesPerSecond())
          && rate > BEAT_MARGIN * used.bytesPerSecond(), nanos, rate, used.bytesPerSecond(), packet);
      if (!setOnPurpose || (beaten.containsKey(d) && beaten.get(d).ceilingBytesPerSecond() != used.bytesPerSecond())) {
        beaten.remove(d);
      }
      if (over.open() && over.nanos() >= learnAfterNanos) {
        Learned.Beaten b = new Learned.Beaten(used.source(), used.bytesPerSecond(), over.median(), over.seconds(), now);
        beaten.put(d, b);
        if (!over.qualified) {
          over.qualified = true;
          if (newly == null) {
            newly = new EnumMap<>(Direction.class);
          }
          newly.put(d, b);
        }
      }

      if (ended) {
        commit(d); // what the ended episode taught, as the last sample left it
        saveNow |= dirty;
      }
      ObservedCeiling best = taught(beat, ObservedCeiling.From.BEAT_CEILING, now,
          taught(sat, ObservedCeiling.From.CPU_SATURATED, now, base.get(d)));
      saveNow |= sat.firstTaught | beat.firstTaught;
      sat.firstTaught = false;
      beat.firstTaught = false;
      if (!Objects.equals(best, current.get(d))) {
        if (best == null) {
          current.remove(d);
        } else {
          current.put(d, best);
        }
        dirty = true;
      }
    }
    saveNow |= (dirty || costMoved) && nanos - savedAt >= SAVE_EVERY_NANOS;
    if (!saveNow && newly == null) {
      return Update.NOTHING;
    }
    Update u = new Update(saveNow, newly == null ? Map.of() : newly, Optional.empty());
    return saveNow ? saved(nanos, u) : u;
  }

  /** {@code best}, or what an episode long enough teaches when that is higher. */
  private ObservedCeiling taught(Episode e, ObservedCeiling.From from, Instant now, ObservedCeiling best) {
    if (!e.open() || e.nanos() < learnAfterNanos) {
      return best;
    }
    if (!e.qualified) {
      e.qualified = true;
      e.firstTaught = true;
    }
    double median = e.median();
    return best != null && best.bytesPerSecond() >= median ? best
        : new ObservedCeiling(median, now, e.seconds(), from, e.packetBytes());
  }

  /** Ends every running episode, keeping what they taught. */
  private Update endAll(long nanos) {
    boolean any = false;
    for (Direction d : Direction.values()) {
      boolean ended = saturated.get(d).end() | beating.get(d).end();
      beatingSet.get(d).end();
      if (ended) {
        commit(d);
        any = true;
      }
    }
    return any && dirty ? saved(nanos, new Update(true, Map.of(), Optional.empty())) : Update.NOTHING;
  }

  private void commit(Direction d) {
    ObservedCeiling c = current.get(d);
    if (c != null) {
      base.put(d, c);
    }
  }

  private Update saved(long nanos, Update u) {
    dirty = false;
    costMoved = false;
    savedAt = nanos;
    return u;
  }

  /** What the state file should hold now. */
  public StateFile.Contents contents() {
    return new StateFile.Contents(shape, Map.copyOf(current), cost.sums());
  }

  /** The published view, with the state file's health. */
  public Learned snapshot(Observation o, Learned.Store store) {
    Optional<PeerShape> s = PeerShape.of(o, Classifier.usableCores(o), cpuModel);
    return new Learned(s.isPresent() && s.get().sameAs(shape), current, beaten, store);
  }

  /** Whether anything learned has not been handed out for saving yet. */
  public boolean unsaved() {
    return dirty || costMoved;
  }

  /** One run of samples meeting a condition, with their rates. */
  static final class Episode {
    private long start = -1;
    private long last;
    private int gap;
    /** The ceiling the episode is measured against (beating episodes). */
    double against = Double.NaN;
    /** It has lasted long enough to teach. */
    boolean qualified;
    /** It became long enough to teach in this sample (the state is saved at once). */
    boolean firstTaught;
    private double[] rates = new double[64];
    private int n;
    /** Keep one rate in this many (doubles each time the buffer fills). */
    private int stride = 1;
    private long seen;
    private double packetSum;
    private int packetN;

    boolean open() {
      return start >= 0;
    }

    /** One sample; returns true when this sample ended the episode. */
    boolean feed(boolean meets, long nanos, double rate, double against, double packetBytes) {
      if (meets) {
        if (!open()) {
          start = nanos;
          this.against = against;
        }
        last = nanos;
        gap = 0;
        add(rate);
        if (!Double.isNaN(packetBytes)) {
          packetSum += packetBytes;
          packetN++;
        }
        return false;
      }
      if (open() && ++gap > GAP_SAMPLES) {
        reset();
        return true;
      }
      return false;
    }

    /** Ends it now; true when one was running. */
    boolean end() {
      boolean was = open();
      reset();
      return was;
    }

    void reset() {
      start = -1;
      gap = 0;
      n = 0;
      stride = 1;
      seen = 0;
      packetSum = 0;
      packetN = 0;
      qualified = false;
      firstTaught = false;
      against = Double.NaN;
    }

    long nanos() {
      return last - start;
    }

    double seconds() {
      return nanos() / 1e9;
    }

    /** The mean packet size the episode carried; NaN when none was known. */
    double packetBytes() {
      return packetN == 0 ? Double.NaN : packetSum / packetN;
    }

    private void add(double rate) {
      if (seen++ % stride != 0) {
        return;
      }
      if (n == rates.length) {
        if (n >= MAX_RATES) {
          for (int i = 0; i < n / 2; i++) {
            rates[i] = rates[2 * i];
          }
          n /= 2;
          stride *= 2;
        } else {
          rates = Arrays.copyOf(rates, n * 2);
        }
      }
      rates[n++] = rate;
    }

    /** The median rate: what the episode held for half its time, not its peak. */
    double median() {
      double[] r = Arrays.copyOf(rates, n);
      Arrays.sort(r);
      return n % 2 == 1 ? r[n / 2] : (r[n / 2 - 1] + r[n / 2]) / 2;
    }
  }
}
