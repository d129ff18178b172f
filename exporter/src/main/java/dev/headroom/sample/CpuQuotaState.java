package dev.headroom.sample;

/**
 * The cgroup CPU quota after a pass: fractional cores, NaN when there is none or it could not be read.
 *
 * <p>Usage: {@code double cores = quotaCollector.collect(now).cores();}
 */
public record CpuQuotaState(double cores, SourceHealth health) {}
