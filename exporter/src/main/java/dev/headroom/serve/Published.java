package dev.headroom.serve;

import dev.headroom.judge.Judgement;
import dev.headroom.judge.Learned;
import dev.headroom.read.wg.NetbirdStatus;
import dev.headroom.sample.Sample;

/**
 * What the sampling thread publishes for readers: the latest immutable sample, the judgement of it, NetBird's own
 * view when it is known (else null), how punctual the sampler has been, and what the peer has learned about its
 * own ceilings. Immutable: reading it changes nothing, so any number of scrapers see the same answer.
 *
 * <p>Usage: {@code Published p = state.get(); p.judgement().of(Direction.DOWNLOAD).verdict();}
 */
public record Published(Sample sample, Judgement judgement, NetbirdStatus netbird, SamplerTiming timing,
    Learned learned) {}
