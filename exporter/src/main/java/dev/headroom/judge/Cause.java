package dev.headroom.judge;

import java.util.Locale;

/**
 * Why a direction got its verdict: the fact the {@link Classifier} decided on, before anything is put in words
 * ({@code serve.Explainer} does that). Sent as {@code cause} in {@code /api/v1/status}. A profile names what stopped a
 * direction rising with the same causes ({@link MeasuredProfile#limit}), so a profile and a live verdict say the
 * same thing, in the same words: the profile file, {@code size}, the page, the JSON and the metrics all use
 * {@link #label()} (the file still reads its older words).
 *
 * <p>Usage: {@code if (judgement.of(UPLOAD).cause() == Cause.AT_CEILING) System.out.println("cannot spread further");}
 */
public enum Cause {
  /** No tunnel datapath: nothing to judge. */
  NO_DATAPATH(Verdict.NO_DATAPATH),
  /**
   * No rate has been measured yet (the tunnel's counters unreadable or dropped as implausible): nothing is known
   * to be bound. Once a rate was measured, an unknown one holds the last cause instead.
   */
  RATE_UNKNOWN(Verdict.HEADROOM),
  /** Below the traffic floor: too little traffic to judge. */
  IDLE(Verdict.HEADROOM),
  /**
   * Carrying traffic with room left. Of a profile's plateau: nothing on the peer was full, so the load generator
   * or the far side may have been the limit.
   */
  ROOM(Verdict.HEADROOM),
  /** The underlay NIC's side for this direction is near its line rate. */
  LINK_FULL(Verdict.LINK_BOUND),
  /** Every core the datapath can use is busy. */
  CORES_SATURATED(Verdict.CPU_BOUND),
  /**
   * The direction holds at its CPU-derived ceiling (profiled, configured or reference, not a NIC cap) while cores
   * idle: the datapath cannot spread over more of them (kernel upload past ~16 cores, the userspace plateau).
   */
  AT_CEILING(Verdict.CPU_BOUND),
  /**
   * The CPU that carries the datapath is full because of the other direction (its cores saturated while that
   * direction carries most of the bytes, or the userspace datapath at its plateau): this direction, carrying
   * traffic or idle, has no room either, since any more of it takes CPU from the other.
   */
  CPU_SHARED(Verdict.CPU_BOUND),
  /** One core is pegged by the datapath while the others idle, and one tunnel carries most of this direction. */
  ONE_TUNNEL_CORE(Verdict.SINGLE_TUNNEL_BOUND),
  /** The busiest tunnel runs at the cloud's single-flow cap ({@code --underlay.flow-cap}). */
  FLOW_CAP(Verdict.SINGLE_TUNNEL_BOUND),
  /**
   * The busiest tunnel carries most of this direction through NetBird's relay and holds flat at its level while the
   * peer has room: the relay's path, not the peer, is that client's limit.
   */
  RELAY_HELD(Verdict.SINGLE_TUNNEL_BOUND);

  private final String label = name().toLowerCase(Locale.ROOT);
  private final Verdict verdict;

  Cause(Verdict verdict) {
    this.verdict = verdict;
  }

  /** The value used in JSON. */
  public String label() {
    return label;
  }

  public Verdict verdict() {
    return verdict;
  }
}
