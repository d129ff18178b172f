package dev.headroom.sample;

import dev.headroom.read.InterfaceReading;

/**
 * What one interface collector learned in a pass: the latest reading that worked (kept while reads fail, so
 * MTU and datapath stay known), the running totals and rates, and the source's health.
 *
 * <p>Usage: {@code LinkState t = tunnel.collect(nowNanos, 1.25e9); double down = t.traffic().rate(InterfaceTracker.TX_BYTES);}
 *
 * @param restarted this pass found the interface recreated or a byte or packet counter restarted
 */
public record LinkState(InterfaceReading reading, Traffic traffic, boolean restarted, SourceHealth health) {}
