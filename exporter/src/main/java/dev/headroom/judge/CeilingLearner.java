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
 * CeilingLearner.Known known = l.known(observation);  // before judging: known.observed() and known.cost()
 * CeilingLearner.Update u = l.update(known, judgement, nanos, now); // after; save l.contents() when u.save()
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

  /**
   * What the learner holds for the peer of one observation, read once per sample before it is judged.
   *
   * @param shape    the observation's shape; empty when it has none (no datapath)
   * @param observed the observed ceilings, when they describe this shape (else empty)
   * @param cost     the cost model's estimate, when it describes this shape (else {@link CostModel.Estimate#NONE})
   */
  public record Known(Optional<PeerShape> shape, Map<Direction, ObservedCeiling> observed, CostModel.Estimate cost) {
    /**
     * The ceilings the peer is held to when nothing was set on purpose (no profile, no config): observed, cost,
     * else reference. A learning episode is the peer running beyond these, so a set ceiling never hides one.
     */
    public Map<Direction, Ceiling> unset(Observation o) {
      return CeilingSelector.selectBoth(o, null, ConfigCeilings.NONE, observed, cost);
    }
  }

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
  private final Map<Direction, Episode> saturated;
  private final Map<Direction, Episode> beating;
  private final Map<Direction, Episode> beatingSet;
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
    saturated = Direction.each(d -> new Episode(learnAfterNanos));
    beating = Direction.each(d -> new Episode(learnAfterNanos));
    beatingSet = Direction.each(d -> new Episode(learnAfterNanos));
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

  /** What is learned of the peer of this observation: nothing when its shape is not the one learned on. */
  public Known known(Observation o) {
    Optional<PeerShape> s = PeerShape.of(o, Classifier.usableCores(o), cpuModel);
    return learnedOn(s) ? new Known(s, Map.copyOf(current), cost.estimate(o))
        : new Known(s, Map.of(), CostModel.Estimate.NONE);
  }

  /** Whether what is learned describes a peer of this shape. */
  private boolean learnedOn(Optional<PeerShape> s) {
    return s.isPresent() && s.get().sameAs(shape);
  }

  /**
   * Feeds one judgement.
   *
   * @param known what {@link #known} gave for this sample's observation
   * @param j     the judgement of this sample, made with the ceilings {@code known} allowed
   * @param nanos the sample's monotonic time
   * @param now   the sample's wall time
   */
  public Update update(Known known, Judgement j, long nanos, Instant now) {
    Observation o = j.observation();
    Optional<PeerShape> seen = known.shape();
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
    Map<Direction, Ceiling> fallback = known.unset(o);
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
      if (over.teaches()) {
        Learned.Beaten b = new Learned.Beaten(used.source(), used.bytesPerSecond(), over.median(), over.seconds(), now);
        beaten.put(d, b);
        if (over.firstTeaches()) {
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
      saveNow |= sat.firstTeaches() | beat.firstTeaches(); // what an episode first teaches is saved at once
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
    if (!e.teaches()) {
      return best;
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

  /** The published view after {@link #update}, with the state file's health. */
  public Learned snapshot(Known known, Learned.Store store) {
    return new Learned(learnedOn(known.shape()), current, beaten, store);
  }

  /** Whether anything learned has not been handed out for saving yet. */
  public boolean unsaved() {
    return dirty || costMoved;
  }

  /** One run of samples meeting a condition, with their rates; it teaches once it has lasted {@code learnAfter}. */
  static final class Episode {
    private final long learnAfterNanos;
    private long start = -1;
    private long last;
    private int gap;
    /** The ceiling the episode is measured against (beating episodes). */
    double against = Double.NaN;
    /** {@link #firstTeaches} has answered true for it. */
    private boolean told;
    private double[] rates = new double[64];
    private int n;
    /** Keep one rate in this many (doubles each time the buffer fills). */
    private int stride = 1;
    private long seen;
    private double packetSum;
    private int packetN;

    Episode(long learnAfterNanos) {
      this.learnAfterNanos = learnAfterNanos;
    }

    boolean open() {
      return start >= 0;
    }

    /** It is running and has lasted long enough to teach. */
    boolean teaches() {
      return open() && nanos() >= learnAfterNanos;
    }

    /** It teaches and had not before: true once per episode, for the caller to act on once. */
    boolean firstTeaches() {
      if (told || !teaches()) {
        return false;
      }
      told = true;
      return true;
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
      told = false;
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
