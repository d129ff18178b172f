package dev.headroom.sample;

import java.util.List;

/**
 * Per-core CPU after a pass, with the interval's summed mode deltas (milliseconds, all cores). Empty cores
 * and zero deltas when the read failed: unknown, never the previous pass's figures.
 *
 * <p>Usage: {@code CpuState c = cpu.collect(); long softirqMs = c.deltaSoftirqMillis();}
 */
public record CpuState(List<Core> cores, long deltaUserMillis, long deltaSystemMillis, long deltaSoftirqMillis,
    long deltaTotalMillis, SourceHealth health) {}
