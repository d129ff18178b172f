package dev.headroom.serve;

import dev.headroom.judge.Judgement;
import dev.headroom.judge.Learned;
import dev.headroom.read.wg.NetbirdStatus;
import dev.headroom.sample.Direction;
import dev.headroom.sample.Sample;
import dev.headroom.sample.ScrapePeak;

/**
 * What the sampling thread publishes for readers: the latest immutable sample, the judgement of it, and the
 * since-last-scrape peaks that a scrape takes, NetBird's own view when it is known (else null), and how
 * punctual the sampler has been, and what the peer has learned about its own ceilings.
 *
 * <p>Usage: {@code Published p = state.get(); p.judgement().of(Direction.DOWNLOAD).verdict();}
 */
public record Published(Sample sample, Judgement judgement, ScrapePeaks peaks, NetbirdStatus netbird, SamplerTiming timing,
    Learned learned) {

  /** The per-direction peaks a metrics scrape takes (and so restarts). */
  public record ScrapePeaks(ScrapePeak download, ScrapePeak upload) {
    public double take(Direction d) {
      return (d == Direction.DOWNLOAD ? download : upload).take();
    }
  }
}
