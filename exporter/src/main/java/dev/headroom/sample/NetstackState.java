package dev.headroom.sample;

import dev.headroom.read.wg.NetbirdStatus;

/**
 * What the netstack collector knew at one sample: whether the tunnel is NetBird's netstack, its byte totals and
 * rates from NetBird's per-peer counters, and the status call's health.
 *
 * <p>Usage: {@code NetstackState n = netstack.collect(false, now, 1.25e9); if (n.netstack()) down = n.traffic().rate(InterfaceTracker.TX_BYTES);}
 *
 * @param netstack NetBird answered connected with no kernel interface, and no interface of the tunnel's name exists
 *     (kept through failed calls for a few status intervals, see {@link NetstackCollector})
 * @param status the latest status read, null before the first or when the interface exists
 * @param traffic byte totals and rates over the last two status reads; rates NaN when the last call failed
 * @param resolutionSeconds how often NetBird is asked: the resolution of the rates and peaks
 * @param answers netstack answers folded so far: a change means {@code status} is a new reading of the tunnels
 * @param answerAtNanos when the latest netstack answer's counters were read
 */
public record NetstackState(boolean netstack, NetbirdStatus status, Traffic traffic, SourceHealth health,
    double resolutionSeconds, long answers, long answerAtNanos) {}
