package dev.headroom.sample;

/**
 * CPU seconds (all cores) spent per 10^9 tunnel bytes (both directions) over the last interval.
 *
 * <p>Usage: {@code if (sample.cpuPerGigabyte() != null) show(sample.cpuPerGigabyte().system());}
 */
public record CpuPerGigabyte(double user, double system, double softirq) {}
